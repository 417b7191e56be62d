import { operations } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/test-clay-webhook (administrators): posts a test payload to the enrichment webhook, answers a summary. */
export const testWebhook = () => call(operations.testEnrichmentWebhook);

/** Run on demand (the Test button), so a mutation rather than a query. */
export function useTestWebhook() {
  return useMutation({ mutationFn: testWebhook });
}
