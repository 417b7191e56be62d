import { operations } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { myVendorsKey, storeVendor } from '@/lib/my-vendors';

/** POST /api/vendor-invitations/{invitationId}/accept: only the user the invitation was sent to. */
export const acceptInvitation = (invitationId: string) =>
  call(operations.acceptInvitation, { params: { invitationId } });

/** Joins, then reads the list again (the invitation is gone from it). */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: async (vendor) => {
      storeVendor(queryClient, vendor);
      await queryClient.invalidateQueries({ queryKey: myVendorsKey });
    },
  });
}
