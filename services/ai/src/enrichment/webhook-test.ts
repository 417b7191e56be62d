import type { TestWebhookResponse } from '@app/contracts';
import type { z } from 'zod';
import { describeFailure, type EnrichmentWebhook } from './webhook.ts';

export const TEST_MESSAGES = {
  success: 'Test Successful',
  failure: 'Test Failed',
  notConfigured: 'Enrichment webhook is not configured',
} as const;

const asText = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));

/** The /test-clay page: does the webhook answer? Always an answer, with the outcome in message and result. */
export async function testWebhook(webhook: EnrichmentWebhook | null): Promise<z.input<typeof TestWebhookResponse>> {
  if (!webhook)
    return {
      message: TEST_MESSAGES.notConfigured,
      result: 'Set ENRICHMENT_WEBHOOK_URL and ENRICHMENT_WEBHOOK_SECRET to post new referrals to it.',
    };
  try {
    // A person is waiting on the button: one attempt, no retries.
    const answer = await webhook.post(
      { event: 'test', test: true, message: 'Test from Referral Hub', sentAt: new Date().toISOString() },
      { maxRetries: 0 },
    );
    if (answer.ok) return { message: TEST_MESSAGES.success, result: answer.body };
    return { message: TEST_MESSAGES.failure, result: `HTTP ${answer.status}: ${asText(answer.body)}`.slice(0, 2000) };
  } catch (error) {
    return { message: TEST_MESSAGES.failure, result: describeFailure(error) };
  }
}
