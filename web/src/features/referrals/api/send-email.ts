import type { SendEmailRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { referralListKey, referralPath } from './keys';
import { referralQueryKey } from './get-referral';

export interface SendEmailAnswer {
  success: boolean;
  message: string;
}

/** POST /api/referrals/{id}/send-email {subject, body, recipients{to, cc, bcc}}. */
export function sendEmail(id: string | number, data: SendEmailRequest): Promise<SendEmailAnswer> {
  return apiRequest<SendEmailAnswer>('POST', `${referralPath(id)}/send-email`, data);
}

export function useSendEmail(id: string | number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (data: SendEmailRequest) => sendEmail(id, data),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: referralQueryKey(id), refetchType: 'none' }),
        queryClient.invalidateQueries({ queryKey: referralListKey, refetchType: 'none' }),
      ]);
    },
  });
}
