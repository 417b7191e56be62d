import { operations, type ReferralFitRequest } from '@app/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/referrals/fit: where the referral would go and how the client fits the vendor's ICP. */
export const checkReferralFit = (body: ReferralFitRequest) => call(operations.checkReferralFit, { body });

/** Read for each (debounced) request; null: nothing to check yet. The previous answer shows while the next loads. */
export function useReferralFit(request: ReferralFitRequest | null) {
  return useQuery({
    queryKey: [operations.checkReferralFit.path, request] as const,
    queryFn: () => checkReferralFit(request!),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}
