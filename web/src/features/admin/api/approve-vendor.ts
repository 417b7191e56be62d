import { operations } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { vendorDirectoryKey } from './vendor-directory';

/** POST /api/vendors/{vendorId}/approve {note}: verified by an administrator; the note goes to the audit log. */
export const approveVendor = (vendorId: string, note: string) =>
  call(operations.approveVendor, { params: { vendorId }, body: { note } });

export function useApproveVendor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ vendorId, note }: { vendorId: string; note: string }) => approveVendor(vendorId, note),
    onSettled: () => queryClient.invalidateQueries({ queryKey: vendorDirectoryKey }),
  });
}
