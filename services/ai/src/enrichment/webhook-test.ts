import type { TestWebhookResponse, TestWebhookSummary } from '@app/contracts';
import type { EnrichmentWebhook } from './webhook.ts';

export const TEST_MESSAGES = {
  success: 'Test Successful',
  failure: 'Test Failed',
  notConfigured: 'Enrichment webhook is not configured',
} as const;

const MAX_FIELDS = 20;

/** The names of a JSON object answer's top-level fields (never their values). */
function fieldsOf(body: unknown): { fields: string[]; fieldCount: number } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { fields: [], fieldCount: 0 };
  const names = Object.keys(body);
  return { fields: names.slice(0, MAX_FIELDS).map((name) => name.slice(0, 60)), fieldCount: names.length };
}

/** A failure in a few words that cannot carry the webhook's URL or answer: "timeout", "ECONNREFUSED". */
function failureOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timeout';
  const code = error instanceof Error ? (error.cause as { code?: unknown } | undefined)?.code : undefined;
  return typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? code : 'network error';
}

/**
 * The /test-clay page (administrators): does the webhook answer? Posts one signed test payload, no
 * retries, and answers a summary (status, time, field names), never the webhook's body: it may carry the
 * provider's keys.
 */
export async function testWebhook(webhook: EnrichmentWebhook | null): Promise<TestWebhookResponse> {
  if (!webhook) return { message: TEST_MESSAGES.notConfigured, result: null };
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  let result: TestWebhookSummary;
  try {
    // A person is waiting on the button: one attempt, no retries.
    const answer = await webhook.post(
      { event: 'test', test: true, message: 'Test from Referral Hub', sentAt: new Date().toISOString() },
      { maxRetries: 0 },
    );
    result = {
      ok: answer.ok,
      status: answer.status,
      durationMs: took(),
      ...fieldsOf(answer.body),
      error: answer.ok ? null : `HTTP ${answer.status}`,
    };
  } catch (error) {
    result = { ok: false, status: null, durationMs: took(), fields: [], fieldCount: 0, error: failureOf(error) };
  }
  return { message: result.ok ? TEST_MESSAGES.success : TEST_MESSAGES.failure, result };
}
