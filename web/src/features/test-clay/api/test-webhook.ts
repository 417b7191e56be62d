import { operations } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/test-clay-webhook: posts a test payload to the enrichment webhook and reports what it answered. */
export const testWebhook = () => call(operations.testEnrichmentWebhook);

/** Run on demand (the Test button), so a mutation rather than a query. */
export function useTestWebhook() {
  return useMutation({ mutationFn: testWebhook });
}
