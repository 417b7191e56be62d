import { EmailDraft } from '@app/contracts';
import { defineSubscriber } from '../db.ts';
import { storeEmailDraft } from '../repository.ts';

/** The intro email draft of a referral (the AI service, or the enrichment callback through it). */
export const emailDraft = defineSubscriber({
  id: 'referrals-email-draft',
  event: 'referral.draft_generated',
  // One referral's row each, whatever the order (an enrichment draft is kept over the model's by the update's
  // own condition): several at once, or the pipeline waits on one transaction at a time (bench:pipeline).
  options: { concurrency: 8, prefetch: 16 },
  handle: async ({ event, tx, log }) => {
    const { referralId, subject, body, recipients, source } = event.payload;
    // Recipients are normalized (spec 3) and the whole draft checked: an invalid draft is never stored.
    const draft = EmailDraft.safeParse({ subject, body, recipients });
    if (!draft.success) {
      log.warn({ referralId, issue: draft.error.issues[0]?.message }, 'invalid email draft dropped');
      return;
    }
    if (!(await storeEmailDraft(tx, referralId, draft.data, source === 'enrichment')))
      log.info(
        { referralId, source },
        'email draft not stored (unknown referral, already sent, or an enrichment draft is kept)',
      );
  },
});
