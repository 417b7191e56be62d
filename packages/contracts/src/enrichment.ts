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

/** GET /api/test-clay-webhook: what the /test-clay page shows. */
export const TestWebhookResponse = z.object({ message: z.string(), result: z.unknown() });
