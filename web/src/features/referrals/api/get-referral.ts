import type { Referral } from '@app/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryFetch } from '@/lib/api-client';
import { referralPath } from './keys';

export const referralQueryKey = (id: string | number) => [referralPath(id)] as const;

/** GET /api/referrals/{id}: retried once, fresh for 5 seconds (spec 7). */
export function getReferralQueryOptions(id: string | number) {
  return queryOptions({
    queryKey: referralQueryKey(id),
    queryFn: () => queryFetch<Referral>(referralPath(id)),
    retry: 1,
    staleTime: 5_000,
  });
}

export function useReferral(id: string | number, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getReferralQueryOptions(id), enabled: options.enabled ?? true });
}
