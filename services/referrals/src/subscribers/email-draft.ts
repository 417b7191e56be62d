import { EmailDraft } from '@app/contracts';
import type pg from 'pg';
import { defineSubscriber } from '../db.ts';
import { claimAndStoreEmailDraft } from '../repository.ts';

const id = 'referrals-email-draft';

/**
 * The intro email draft of a referral (the AI service, or the enrichment callback through it): claimed by
 * its event id and stored in one statement (`claimAndStoreEmailDraft`), so a redelivery changes nothing.
 */
export const emailDraft = (pool: pg.Pool) =>
  defineSubscriber({
    kind: 'idempotent',
    id,
    event: 'referral.draft_generated',
    // One referral's row each, whatever the order (an enrichment draft is kept over the model's by the update's
    // own condition): several at once, or the pipeline waits on one statement at a time (bench:pipeline).
    options: { concurrency: 8, prefetch: 16 },
    handle: async ({ event, log }) => {
      const { referralId, subject, body, recipients, source } = event.payload;
      // Recipients are normalized (spec 3) and the whole draft checked: an invalid draft is never stored.
      const draft = EmailDraft.safeParse({ subject, body, recipients });
      if (!draft.success) {
        log.warn({ referralId, issue: draft.error.issues[0]?.message }, 'invalid email draft dropped');
        return;
      }
      const outcome = await claimAndStoreEmailDraft(
        pool,
        { subscriber: id, eventId: event.id },
        referralId,
        draft.data,
        source === 'enrichment',
      );
      if (outcome.claimed && !outcome.stored)
        log.info(
          { referralId, source },
          'email draft not stored (unknown referral, already sent, or an enrichment draft is kept)',
        );
    },
  });
