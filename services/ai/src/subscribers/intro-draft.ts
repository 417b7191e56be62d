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
    // Model calls wait on the network: a few at once per replica, taking no more ahead than it works on
    // (a message waiting in a buffer would use up its ack wait). The bus signals progress while one runs.
    options: { concurrency: 4, prefetch: 4 },
    prepare: (event, log) => writeDraft(event.payload, deps.model, log),
    handle: async ({ event, tx, emit, prepared: draft, log }) => {
      emit('referral.draft_generated', draft);
      if (deps.enrichment) await openRequest(tx, draft.referralId, event.id);
      log.info({ referralId: draft.referralId, source: draft.source }, 'intro draft written');
    },
  });
