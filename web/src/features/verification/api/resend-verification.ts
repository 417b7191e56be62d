import type { ResendVerificationRequest } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /api/resend-verification: the answer is the same whether or not the email is registered. */
export function resendVerification(data: ResendVerificationRequest): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('POST', '/api/resend-verification', { email: data.email });
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
