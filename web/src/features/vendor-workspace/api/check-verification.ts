import { operations } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { storeVendor } from '@/lib/my-vendors';

/** POST /api/vendors/{vendorId}/verification: verify now if a member has a confirmed address on the domain. */
export const checkVerification = (vendorId: string) =>
  call(operations.checkVendorVerification, { params: { vendorId } });

export function useCheckVerification() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: checkVerification, onSuccess: (vendor) => storeVendor(queryClient, vendor) });
}
