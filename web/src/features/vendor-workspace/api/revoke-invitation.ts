import { operations } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { storeVendor } from '@/lib/my-vendors';

/** DELETE /api/vendors/{vendorId}/invitations/{invitationId} (owners). */
export const revokeInvitation = (vendorId: string, invitationId: string) =>
  call(operations.revokeInvitation, { params: { vendorId, invitationId } });

export function useRevokeInvitation(vendorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => revokeInvitation(vendorId, invitationId),
    onSuccess: (vendor) => storeVendor(queryClient, vendor),
  });
}
