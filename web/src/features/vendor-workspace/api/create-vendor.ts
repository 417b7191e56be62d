import { operations, type CreateVendorRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { storeVendor } from '@/lib/my-vendors';

/** POST /api/vendors: a new workspace, the caller its owner (verified at once when their email is on its domain). */
export const createVendor = (body: CreateVendorRequest) => call(operations.createVendor, { body });

export function useCreateVendor() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createVendor, onSuccess: (vendor) => storeVendor(queryClient, vendor) });
}
