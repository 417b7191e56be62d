import { EmailDraft } from '@app/contracts';
import { batched } from '@app/kit';
import type pg from 'pg';
import { defineSubscriber } from '../db.ts';
import { claimAndStoreEmailDraft, claimAndStoreEmailDrafts, type DraftToStore } from '../repository.ts';

const id = 'referrals-email-draft';

/**
 * The intro email draft of a referral (the AI service, or the enrichment callback through it): claimed by
 * its event id and stored in one statement (`claimAndStoreEmailDraft`), so a redelivery changes nothing.
 */
export const emailDraft = (pool: pg.Pool) => {
  // Drafts of distinct referrals handled at once share one statement (`batched`); a referral's second draft
  // waits for the next one.
  const store = batched({
    name: 'referrals.email_draft_store',
    runBatch: (drafts: DraftToStore[]) => claimAndStoreEmailDrafts(pool, drafts),
    runOne: (one) => claimAndStoreEmailDraft(pool, one, one.referralId, one.draft, one.fromEnrichment),
    key: (one) => String(one.referralId),
  });
  return defineSubscriber({
    kind: 'idempotent',
    id,
    event: 'referral.draft_generated',
    // One referral's row each, whatever the order (an enrichment draft is kept over the model's by the update's
    // own condition): many at once, whose statements go together (bench:pipeline).
    options: { concurrency: 32, prefetch: 64 },
    handle: async ({ event, log }) => {
      const { referralId, subject, body, recipients, source } = event.payload;
      // Recipients are normalized (spec 3) and the whole draft checked: an invalid draft is never stored.
      const draft = EmailDraft.safeParse({ subject, body, recipients });
      if (!draft.success) {
        log.warn({ referralId, issue: draft.error.issues[0]?.message }, 'invalid email draft dropped');
        return;
      }
      const outcome = await store({
        subscriber: id,
        eventId: event.id,
        referralId,
        draft: draft.data,
        fromEnrichment: source === 'enrichment',
      });
      if (outcome.claimed && !outcome.stored)
        log.info(
          { referralId, source },
          'email draft not stored (unknown referral, already sent, or an enrichment draft is kept)',
        );
    },
  });
};
