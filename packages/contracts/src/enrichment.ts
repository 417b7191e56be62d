import { z } from 'zod';
import { EmailDraft } from './referrals.ts';

/** What the external enrichment service (the spec's Clay) sends back: the draft that replaces the local one. */
export const EnrichmentCallback = z.strictObject({
  referralId: z.number().int().positive(),
  subject: EmailDraft.shape.subject,
  body: EmailDraft.shape.body,
  recipients: z.object({
    to: EmailDraft.shape.recipients.shape.to.refine((list) => list.length > 0, 'At least one recipient is required'),
    cc: EmailDraft.shape.recipients.shape.cc,
    bcc: EmailDraft.shape.recipients.shape.bcc,
  }),
});
export type EnrichmentCallback = z.input<typeof EnrichmentCallback>;

/**
 * The headers of a signed enrichment post, both directions: `x-signature-timestamp` (Unix seconds) and
 * `x-signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<exact body>">` with ENRICHMENT_WEBHOOK_SECRET.
 */
export const ENRICHMENT_SIGNATURE_HEADER = 'x-signature';
export const ENRICHMENT_TIMESTAMP_HEADER = 'x-signature-timestamp';
/** A callback signed longer ago than this is refused (CALLBACK_EXPIRED)... */
export const ENRICHMENT_CALLBACK_MAX_AGE_SECONDS = 300;
/** ...and so is one dated further ahead than this clock skew. */
export const ENRICHMENT_CALLBACK_MAX_SKEW_SECONDS = 60;

/**
 * What the webhook answered, summarized: never its body or headers (they may carry the provider's keys),
 * only the status, the time it took and the names of the top-level fields of a JSON answer.
 */
export const TestWebhookSummary = z.object({
  ok: z.boolean(),
  /** The HTTP status of the answer; null when there was none (unreachable, timeout). */
  status: z.number().int().nullable(),
  durationMs: z.number().int().nonnegative(),
  /** Top-level field names of a JSON object answer (at most 20, each at most 60 characters). */
  fields: z.array(z.string()),
  /** How many top-level fields the answer had (all of them, even past the 20 named). */
  fieldCount: z.number().int().nonnegative(),
  /** Why it failed, in a few words: "HTTP 502", "ECONNREFUSED", "timeout"; null on success. */
  error: z.string().nullable(),
});
export type TestWebhookSummary = z.infer<typeof TestWebhookSummary>;

/** POST /api/test-clay-webhook: what the /test-clay page shows (no result when no webhook is configured). */
export const TestWebhookResponse = z.object({ message: z.string(), result: TestWebhookSummary.nullable() });
export type TestWebhookResponse = z.infer<typeof TestWebhookResponse>;
