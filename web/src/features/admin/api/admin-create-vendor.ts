import { operations, type AdminCreateVendorRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { vendorDirectoryKey } from './vendor-directory';

/** POST /api/admin/vendors: a workspace for a vendor (e.g. for its program), approved at once or not. */
export const adminCreateVendor = (body: AdminCreateVendorRequest) => call(operations.adminCreateVendor, { body });

export function useAdminCreateVendor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminCreateVendor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vendorDirectoryKey }),
  });
}
