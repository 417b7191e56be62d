import type { Referral, ReferralStatus } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { referralListKey } from '@/lib/query-keys';

/** PUT /api/referrals/{id}/status {status, dealValue?} → the updated referral (dealValue only for Closed-Won). */
export function updateReferralStatus(id: number, status: ReferralStatus, dealValue?: number): Promise<Referral> {
  const body: { status: ReferralStatus; dealValue?: number } =
    dealValue === undefined ? { status } : { status, dealValue };
  return apiRequest<Referral>('PUT', `/api/referrals/${encodeURIComponent(String(id))}/status`, body);
}

/** On success the list is fetched again (spec 7) and the referral's own query is refreshed. */
export function useUpdateReferralStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status, dealValue }: { id: number; status: ReferralStatus; dealValue?: number }) =>
      updateReferralStatus(id, status, dealValue),
    onSuccess: async (referral) => {
      queryClient.setQueryData([`/api/referrals/${referral.id}`], referral);
      await queryClient.invalidateQueries({ queryKey: referralListKey });
    },
  });
}
