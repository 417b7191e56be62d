import { operations, type SendEmailRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { referralKey, referralListKey } from '@/lib/query-keys';

/** POST /api/referrals/{id}/send-email {subject, body, recipients{to, cc, bcc}}. */
export const sendEmail = (id: string | number, body: SendEmailRequest) =>
  call(operations.sendEmail, { params: { id }, body });

export function useSendEmail(id: string | number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SendEmailRequest) => sendEmail(id, body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: referralKey(id), refetchType: 'none' }),
        queryClient.invalidateQueries({ queryKey: referralListKey, refetchType: 'none' }),
      ]);
    },
  });
}
