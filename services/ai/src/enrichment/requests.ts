import type { EventEnvelope } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';
import { describeFailure, type EnrichmentWebhook } from './webhook.ts';

/**
 * Referrals handed to the external enrichment service. The local draft is written first; then the
 * referral is posted, and a later signed callback may replace the draft (source 'enrichment', the web's
 * `fromClay`). A failed post is logged and recorded, never retried forever, and never holds up the draft.
 */
export function enrichmentRequests(options: { prisma: PrismaClient; webhook: EnrichmentWebhook; callbackUrl: string }) {
  const { prisma, webhook, callbackUrl } = options;

  return {
    /** Inside the transaction that stores the local draft: the referral is to be posted once that commits. */
    async open(tx: Prisma.TransactionClient, referralId: number, eventId: string) {
      await tx.enrichmentRequest.createMany({
        data: [{ referralId, eventId, status: 'pending' }],
        skipDuplicates: true,
      });
    },

    /** Posts the referral if it is still pending (so a redelivered event that already posted does nothing). */
    async post(event: EventEnvelope<'referral.created'>, log: FastifyBaseLogger) {
      const { referralId } = event.payload;
      const request = await prisma.enrichmentRequest.findUnique({ where: { referralId } });
      if (request?.status !== 'pending') return;
      let outcome: { status: 'posted' | 'failed'; lastError: string | null };
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
      // Only from pending: a callback that came back while we were still posting has already completed it.
      await prisma.enrichmentRequest.updateMany({
        where: { referralId, status: 'pending' },
        data: { ...outcome, attempts: { increment: 1 } },
      });
      if (outcome.status === 'failed')
        log.warn(
          { referralId, eventId: event.id, error: outcome.lastError },
          'enrichment webhook failed; the local draft stands',
        );
      else log.info({ referralId, eventId: event.id }, 'referral posted to the enrichment webhook');
    },

    isExpected: async (referralId: number) => (await prisma.enrichmentRequest.count({ where: { referralId } })) > 0,
  };
}

export type EnrichmentRequests = ReturnType<typeof enrichmentRequests>;
