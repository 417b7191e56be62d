import type { LanguageModel } from '@app/llm';
import { defineSubscriber } from '../db.ts';
import { INTRO_DRAFT_SUBSCRIBER, writeDraft } from '../drafts/intro-drafts.ts';
import { openRequest } from '../enrichment/repository.ts';

/**
 * A new referral gets its intro draft once per event id, however often it is delivered. The model is asked
 * before the transaction (and not at all for an event already handled); the claim, the
 * `referral.draft_generated` event and, with enrichment, the request to post it commit together.
 */
export const introDraft = (deps: { model: LanguageModel | null; enrichment: boolean }) =>
  defineSubscriber({
    id: INTRO_DRAFT_SUBSCRIBER,
    event: 'referral.created',
    prepare: (event, log) => writeDraft(event.payload, deps.model, log),
    handle: async ({ event, tx, emit, prepared: draft, log }) => {
      emit('referral.draft_generated', draft);
      if (deps.enrichment) await openRequest(tx, draft.referralId, event.id);
      log.info({ referralId: draft.referralId, source: draft.source }, 'intro draft written');
    },
  });
