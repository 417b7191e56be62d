import { operations, type ReferralStatus } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { referralKey, referralListKey } from '@/lib/query-keys';

/** PUT /api/referrals/{id}/status {status, dealValue?} → the updated referral (dealValue only for Closed-Won). */
export const updateReferralStatus = (id: number, status: ReferralStatus, dealValue?: number) =>
  call(operations.updateStatus, {
    params: { id },
    body: dealValue === undefined ? { status } : { status, dealValue },
  });

/** On success the list is fetched again (spec 7) and the referral's own query is refreshed. */
export function useUpdateReferralStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status, dealValue }: { id: number; status: ReferralStatus; dealValue?: number }) =>
      updateReferralStatus(id, status, dealValue),
    onSuccess: async (referral) => {
      queryClient.setQueryData(referralKey(referral.id), referral);
      await queryClient.invalidateQueries({ queryKey: referralListKey });
    },
  });
}
