import type { CreateReferralRequest, Referral } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { referralListKey } from './keys';
import { referralQueryKey } from './get-referral';

/** POST /api/referrals: the form fields plus product, company and description → 201 Referral. */
export function createReferral(data: CreateReferralRequest): Promise<Referral> {
  return apiRequest<Referral>('POST', '/api/referrals', data);
}

/** Seeds the new referral into the cache (the submitted screen reads it) and marks the lists out of date. */
export function useCreateReferral() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReferral,
    onSuccess: async (referral) => {
      queryClient.setQueryData(referralQueryKey(referral.id), referral);
      await queryClient.invalidateQueries({ queryKey: referralListKey, refetchType: 'none' });
    },
  });
}
