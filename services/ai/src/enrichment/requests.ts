import type { EventEnvelope } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { INTRO_DRAFT_SUBSCRIBER } from '../drafts/intro-drafts.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { findRequest, handledBy, recordPost, type PostOutcome } from './repository.ts';
import { describeFailure, type EnrichmentWebhook } from './webhook.ts';

/** Thrown while the local draft is not written yet: the bus delivers the event again after a backoff. */
export class DraftNotWrittenYet extends Error {}

/**
 * Referrals handed to the external enrichment service. The local draft is written first (the intro-draft
 * subscriber opens the request in the same transaction); then the referral is posted, and a later signed
 * callback may replace the draft (source 'enrichment', the web's `fromClay`). A failed post is logged and
 * recorded, never retried forever, and never holds up the draft.
 */
export function enrichmentRequests(options: { prisma: PrismaClient; webhook: EnrichmentWebhook; callbackUrl: string }) {
  const { prisma, webhook, callbackUrl } = options;

  return {
    /**
     * Posts the referral if its request is still pending, so a redelivered event that already posted does
     * nothing. Not before the local draft is written: a callback must not overtake it.
     */
    async post(event: EventEnvelope<'referral.created'>, log: FastifyBaseLogger): Promise<void> {
      const { referralId } = event.payload;
      // The draft's claim first: the request commits with it, so once the claim shows, so does the request.
      if (!(await handledBy(prisma, INTRO_DRAFT_SUBSCRIBER, event.id)))
        throw new DraftNotWrittenYet(`referral ${referralId}: the local draft is not written yet`);
      const request = await findRequest(prisma, referralId);
      // None: drafted while enrichment was off. Not pending: posted before (a redelivery) or completed.
      if (request?.status !== 'pending') return;
      let outcome: PostOutcome;
      try {
        const answer = await webhook.post(
          { event: 'referral.created', eventId: event.id, callbackUrl, referral: event.payload },
          { idempotencyKey: event.id },
        );
        outcome = answer.ok
          ? { status: 'posted', lastError: null }
          : { status: 'failed', lastError: `HTTP ${answer.status}` };
      } catch (error) {
        outcome = { status: 'failed', lastError: describeFailure(error) };
      }
      await recordPost(prisma, referralId, outcome);
      if (outcome.status === 'failed')
        log.warn({ referralId, error: outcome.lastError }, 'enrichment webhook failed; the local draft stands');
      else log.info({ referralId }, 'referral posted to the enrichment webhook');
    },
  };
}

export type EnrichmentRequests = ReturnType<typeof enrichmentRequests>;
