import type { z } from 'zod';
import type { TestWebhookResponse } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export type TestWebhookAnswer = z.infer<typeof TestWebhookResponse>;

/** GET /api/test-clay-webhook: posts a test payload to the enrichment webhook and reports what it answered. */
export const testWebhook = () => apiRequest<TestWebhookAnswer>('GET', '/api/test-clay-webhook');

export function useTestWebhook() {
  return useMutation({ mutationFn: testWebhook });
}
