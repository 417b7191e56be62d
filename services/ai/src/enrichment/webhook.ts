import { signBody } from './signature.ts';

export interface WebhookAnswer {
  status: number;
  ok: boolean;
  /** The answer's JSON, or its text (at most 2000 characters). */
  body: unknown;
}

const MAX_ANSWER = 2000;
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readAnswer(response: Response): Promise<unknown> {
  const text = (await response.text()).slice(0, 64 * 1024);
  if (/json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      return JSON.parse(text);
    } catch {
      // not JSON after all: show the text
    }
  }
  return text.slice(0, MAX_ANSWER);
}

/**
 * Posts signed JSON to the enrichment webhook: each attempt bounded by `timeoutMs`, network failures,
 * timeouts, 408, 429 and 5xx retried up to `maxRetries` times with backoff. Returns the last answer, or
 * throws the last network error.
 */
export function enrichmentWebhook(options: { url: string; secret: string; timeoutMs: number; maxRetries: number }) {
  return {
    url: options.url,
    async post(payload: unknown, extra: { idempotencyKey?: string; maxRetries?: number } = {}): Promise<WebhookAnswer> {
      const { idempotencyKey, maxRetries = options.maxRetries } = extra;
      const body = JSON.stringify(payload);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'referral-hub-ai/1',
        // The same referral posted again (a redelivered event) carries the same key, so the receiver can drop it.
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      };
      for (let attempt = 0; ; attempt++) {
        const last = attempt >= maxRetries;
        try {
          const response = await fetch(options.url, {
            method: 'POST',
            // Signed at each attempt, so a retry carries a fresh time.
            headers: { ...headers, ...signBody(options.secret, body) },
            body,
            signal: AbortSignal.timeout(options.timeoutMs),
            redirect: 'error',
          });
          const answer = { status: response.status, ok: response.ok, body: await readAnswer(response) };
          if (answer.ok || last || !retryable(answer.status)) return answer;
        } catch (error) {
          if (last) throw error;
        }
        await pause(Math.min(2000, 200 * 2 ** attempt));
      }
    },
  };
}

export type EnrichmentWebhook = ReturnType<typeof enrichmentWebhook>;

/** An error as one line for a screen or a log: "The operation was aborted due to timeout", "fetch failed: ECONNREFUSED". */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause =
    error.cause instanceof Error ? `: ${(error.cause as Error & { code?: string }).code ?? error.cause.message}` : '';
  return `${error.message}${cause}`.slice(0, 500);
}
