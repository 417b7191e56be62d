import { operations, type UpdateVendorRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { storeVendor } from '@/lib/my-vendors';

/** PATCH /api/vendors/{vendorId}: name and website (owners), lead inbox (members of a verified workspace). */
export const updateVendor = (vendorId: string, body: UpdateVendorRequest) =>
  call(operations.updateVendor, { params: { vendorId }, body });

export function useUpdateVendor(vendorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateVendorRequest) => updateVendor(vendorId, body),
    onSuccess: (vendor) => storeVendor(queryClient, vendor),
  });
}
