import { operations, type ResendVerificationRequest } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/resend-verification: the answer is the same whether or not the email is registered. */
export const resendVerification = ({ email }: ResendVerificationRequest) =>
  call(operations.resendVerification, { body: { email } });

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
