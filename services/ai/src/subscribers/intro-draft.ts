import type { LanguageModel } from '@app/llm';
import { defineSubscriber } from '../db.ts';
import { INTRO_DRAFT_SUBSCRIBER, writeDraft } from '../drafts/intro-drafts.ts';
import { openRequest } from '../enrichment/repository.ts';

/**
 * A new referral gets its intro draft once per event id, however often it is delivered. The model is asked
 * before the claim (and not at all for an event already handled).
 */

// Model calls wait on the network: a few at once per replica, taking no more ahead than it works on
// (a message waiting in a buffer would use up its ack wait). The bus signals progress while one runs.
const options = { concurrency: 4, prefetch: 4 };

/**
 * Without enrichment the draft's only effect is the `referral.draft_generated` event: the claim and the
 * event are written in one statement (an emitting subscriber: one round trip and commit, bench:pipeline).
 */
export const introDraft = (deps: { model: LanguageModel | null }) =>
  defineSubscriber({
    kind: 'emitting',
    id: INTRO_DRAFT_SUBSCRIBER,
    event: 'referral.created',
    // The template is quick database-only work: many at once, whose claims share one statement (the kit's
    // `batched`), and a bigger pull batch (fewer pull requests).
    options: deps.model ? options : { concurrency: 32, prefetch: 64 },
    // The template costs less than looking the event up first; a model call does not.
    skipHandled: deps.model !== null,
    handle: async ({ event, emit, log }) => {
      const draft = await writeDraft(event.payload, deps.model, log);
      emit('referral.draft_generated', draft);
      log.info({ referralId: draft.referralId, source: draft.source }, 'intro draft written');
    },
  });

/** With enrichment, the claim, the event and the request to post it commit together in one transaction. */
export const introDraftWithEnrichment = (deps: { model: LanguageModel | null }) =>
  defineSubscriber({
    id: INTRO_DRAFT_SUBSCRIBER,
    event: 'referral.created',
    options,
    prepare: (event, log) => writeDraft(event.payload, deps.model, log),
    handle: async ({ event, tx, emit, prepared: draft, log }) => {
      emit('referral.draft_generated', draft);
      await openRequest(tx, draft.referralId, event.id);
      log.info({ referralId: draft.referralId, source: draft.source }, 'intro draft written');
    },
  });
