import { operations, type InviteMemberRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { myVendorsKey } from '@/lib/my-vendors';

/** POST /api/vendors/{vendorId}/invitations (owners): the invitee is emailed and accepts by signing in. */
export const inviteMember = (vendorId: string, body: InviteMemberRequest) =>
  call(operations.inviteMember, { params: { vendorId }, body });

/** The answer is the invitation: the workspace (its pending invitations) is read again. */
export function useInviteMember(vendorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteMemberRequest) => inviteMember(vendorId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myVendorsKey }),
  });
}
