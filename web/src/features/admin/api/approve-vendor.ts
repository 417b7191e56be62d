import { operations } from '@app/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, urlFor } from '@/lib/api-client';
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

/** POST /api/vendors/{vendorId}/revoke {note}: no longer verified; only an administrator verifies it again. */
export const revokeVendor = (vendorId: string, note: string) =>
  call(operations.revokeVendor, { params: { vendorId }, body: { note } });

export function useRevokeVendor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ vendorId, note }: { vendorId: string; note: string }) => revokeVendor(vendorId, note),
    onSettled: () => queryClient.invalidateQueries({ queryKey: vendorDirectoryKey }),
  });
}

/** GET /api/vendors/{vendorId}: the workspace with its members, for the administrator about to approve it. */
export const useVendorClaim = (vendorId: string | null) =>
  useQuery({
    queryKey: [urlFor(operations.getVendor, { params: { vendorId: vendorId ?? '' } })],
    queryFn: () => call(operations.getVendor, { params: { vendorId: vendorId! } }),
    enabled: vendorId !== null,
  });
