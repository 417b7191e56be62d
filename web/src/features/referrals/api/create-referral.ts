import { operations, type CreateReferralRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { referralKey, referralListKey } from '@/lib/query-keys';

/** POST /api/referrals: the form fields plus product, company and description → 201 Referral. */
export const createReferral = (body: CreateReferralRequest) => call(operations.createReferral, { body });

/** Seeds the new referral into the cache (the submitted screen reads it) and marks the lists out of date. */
export function useCreateReferral() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReferral,
    onSuccess: async (referral) => {
      queryClient.setQueryData(referralKey(referral.id), referral);
      await queryClient.invalidateQueries({ queryKey: referralListKey, refetchType: 'none' });
    },
  });
}
