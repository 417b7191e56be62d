import { operations } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { leadsKey } from './list-leads';

/** POST /api/vendors/{vendorId}/leads/{referralId}/decline {reason}: the referral becomes Declined. */
export const declineLead = (vendorId: string, referralId: number, reason: string) =>
  call(operations.declineLead, { params: { vendorId, referralId }, body: { reason } });

export function useDeclineLead(vendorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ referralId, reason }: { referralId: number; reason: string }) =>
      declineLead(vendorId, referralId, reason),
    onSettled: () => queryClient.invalidateQueries({ queryKey: leadsKey(vendorId) }),
  });
}
