import { operations } from '@app/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { referralKey } from '@/lib/query-keys';

/** GET /api/referrals/{id}. */
export const getReferral = (id: string | number) => call(operations.getReferral, { params: { id } });

/** Retried once, fresh for 5 seconds (spec 7). */
export function getReferralQueryOptions(id: string | number) {
  return queryOptions({
    queryKey: referralKey(id),
    queryFn: () => getReferral(id),
    retry: 1,
    staleTime: 5_000,
  });
}

export function useReferral(id: string | number, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getReferralQueryOptions(id), enabled: options.enabled ?? true });
}
