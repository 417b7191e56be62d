import { operations, type ConfirmationRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { invalidateMoney, referralKey } from '@/lib/query-keys';

/** POST /api/referrals/{id}/confirmation-requests {milestone, message}: the vendor is emailed. */
export const requestConfirmation = (id: number, body: ConfirmationRequest) =>
  call(operations.requestConfirmation, { params: { id }, body });

export function useRequestConfirmation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ConfirmationRequest }) => requestConfirmation(id, body),
    onSuccess: async (referral) => {
      queryClient.setQueryData(referralKey(referral.id), referral);
      await invalidateMoney(queryClient);
    },
  });
}
