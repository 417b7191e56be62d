import { operations, type ReferralStatus } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { invalidateMoney, referralKey } from '@/lib/query-keys';

/**
 * PUT /api/referrals/{id}/status {status} → the updated referral. The referrer's own tracking: it earns
 * nothing (the vendor confirms milestones), but Declined withdraws the referral and reverses its unpaid
 * commissions.
 */
export const updateReferralStatus = (id: number, status: ReferralStatus) =>
  call(operations.updateStatus, { params: { id }, body: { status } });

/** On success the list is fetched again (spec 7), the referral's own query refreshed, and the money figures. */
export function useUpdateReferralStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: ReferralStatus }) => updateReferralStatus(id, status),
    onSuccess: async (referral) => {
      queryClient.setQueryData(referralKey(referral.id), referral);
      await invalidateMoney(queryClient);
    },
  });
}
