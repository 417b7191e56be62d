import type { Referral, ReferralStatus } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { referralListKey } from '@/lib/query-keys';

/** PUT /api/referrals/{id}/status {status} → the updated referral. */
export function updateReferralStatus(id: number, status: ReferralStatus): Promise<Referral> {
  return apiRequest<Referral>('PUT', `/api/referrals/${encodeURIComponent(String(id))}/status`, { status });
}

/** On success the list is fetched again (spec 7) and the referral's own query is refreshed. */
export function useUpdateReferralStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: ReferralStatus }) => updateReferralStatus(id, status),
    onSuccess: async (referral) => {
      queryClient.setQueryData([`/api/referrals/${referral.id}`], referral);
      await queryClient.invalidateQueries({ queryKey: referralListKey });
    },
  });
}
