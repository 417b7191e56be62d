import { operations } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { leadsKey } from './list-leads';

/** POST /api/vendors/{vendorId}/leads/{referralId}/accept: the referrer is told by email. */
export const acceptLead = (vendorId: string, referralId: number) =>
  call(operations.acceptLead, { params: { vendorId, referralId } });

/** Every list of the workspace is read again after a decision (or a refusal: someone else decided). */
export function useAcceptLead(vendorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (referralId: number) => acceptLead(vendorId, referralId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: leadsKey(vendorId) }),
  });
}
