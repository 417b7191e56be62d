import type { EventEnvelope } from '@app/contracts';
import { outboxEvent, type OutboxRelay } from '@app/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { EnrichmentRequests } from '../enrichment/requests.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { LanguageModel } from '@app/llm';
import { recipientsFor, type Draft, type NewReferral } from './draft.ts';
import { askModelForDraft } from './llm-draft.ts';
import { templateDraft } from './template.ts';

/** The durable subscriber id of intro drafting: one consumer shared by every instance of the service. */
export const INTRO_DRAFT_SUBSCRIBER = 'ai-intro-draft';

/** The draft for a new referral: the language model's when configured and its output is valid, else the template. */
export async function writeDraft(
  referral: NewReferral,
  model: LanguageModel | null,
  log: FastifyBaseLogger,
): Promise<Draft> {
  const written = model ? await askModelForDraft(model, referral, log) : null;
  const text = written ?? templateDraft(referral);
  return {
    referralId: referral.referralId,
    ...text,
    recipients: recipientsFor(referral),
    source: written ? 'llm' : 'template',
  };
}

/**
 * Handles `referral.created` once per event id, however often it is delivered: the processed_events row
 * and the `referral.draft_generated` outbox row commit together, and a delivery that finds the row already
 * there stops. Then, when enrichment is configured, the referral goes to the webhook.
 */
export function introDrafts(deps: {
  prisma: PrismaClient;
  relay: OutboxRelay;
  model: LanguageModel | null;
  enrichment: EnrichmentRequests | null;
  log: FastifyBaseLogger;
}) {
  const { prisma, relay, model, enrichment, log } = deps;

  const handled = async (eventId: string) =>
    (await prisma.processedEvent.count({ where: { subscriber: INTRO_DRAFT_SUBSCRIBER, eventId } })) > 0;

  return async function handle(event: EventEnvelope<'referral.created'>): Promise<void> {
    // Checked before drafting too, so a redelivery does not pay for a language model call.
    if (!(await handled(event.id))) {
      const draft = await writeDraft(event.payload, model, log);
      const stored = await prisma.$transaction(async (tx) => {
        const claimed = await tx.$executeRaw`
          INSERT INTO processed_events (subscriber, event_id) VALUES (${INTRO_DRAFT_SUBSCRIBER}, ${event.id}::uuid) ON CONFLICT DO NOTHING`;
        if (claimed === 0) return false;
        await tx.outboxEvent.create({ data: outboxEvent('referral.draft_generated', draft, event.requestId) });
        if (enrichment) await enrichment.open(tx, draft.referralId, event.id);
        return true;
      });
      if (stored) {
        relay.kick();
        log.info({ referralId: draft.referralId, eventId: event.id, source: draft.source }, 'intro draft written');
      }
    }
    if (enrichment) await enrichment.post(event, log);
  };
}
