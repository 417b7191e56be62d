import { Bounties, EmailDraft } from '@app/contracts';
import type { EventBus } from '@app/kit';
import type { FastifyBaseLogger } from 'fastify';
import { storeBounties } from './commissions.ts';
import type { Tx } from './figures.ts';
import type { PrismaClient } from './generated/prisma/client.ts';
import { storeProgram } from './programs.ts';
import { companyKey } from './projects.ts';

/**
 * Runs a handler at most once per event and subscriber: the processed_events row is inserted in the
 * same transaction as the handler's writes, so a redelivery (at-least-once bus) finds it and is skipped,
 * and a crash before commit leaves neither. Answers whether the handler ran.
 */
export async function handleOnce(
  prisma: PrismaClient,
  subscriber: string,
  eventId: string,
  handle: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const claimed = await tx.processedEvent.createMany({ data: [{ subscriber, eventId }], skipDuplicates: true });
    if (claimed.count === 0) return false;
    await handle(tx);
    return true;
  });
}

export const SUBSCRIBERS = {
  referrerProfile: 'referrals-referrer-profile',
  emailDraft: 'referrals-email-draft',
  programs: 'referrals-programs',
  bounties: 'referrals-bounties',
} as const;

export async function subscribeConsumers(bus: EventBus, prisma: PrismaClient, log: FastifyBaseLogger): Promise<void> {
  // The referrer's names and company, for the intro email and reciprocity.
  await bus.subscribe({
    event: 'user.registered',
    subscriber: SUBSCRIBERS.referrerProfile,
    handle: async (event) => {
      const { userId, email, firstName, lastName, companyName } = event.payload;
      const profile = { email, firstName, lastName, companyName, companyKey: companyKey(companyName) };
      await handleOnce(prisma, SUBSCRIBERS.referrerProfile, event.id, async (tx) => {
        await tx.referrer.upsert({ where: { userId }, create: { userId, ...profile }, update: profile });
      });
    },
  });

  // The intro email draft (AI service, or the enrichment callback through it).
  await bus.subscribe({
    event: 'referral.draft_generated',
    subscriber: SUBSCRIBERS.emailDraft,
    handle: async (event) => {
      const { referralId, subject, body, recipients, source } = event.payload;
      // Recipients are normalized (spec 3) and the whole draft checked: an invalid draft is never stored.
      const draft = EmailDraft.safeParse({ subject, body, recipients });
      if (!draft.success) {
        log.warn(
          { eventId: event.id, referralId, issue: draft.error.issues[0]?.message },
          'invalid email draft dropped',
        );
        return;
      }
      const fromClay = source === 'enrichment';
      await handleOnce(prisma, SUBSCRIBERS.emailDraft, event.id, async (tx) => {
        // An enrichment draft replaces a template/LLM one, never the other way round; once the email
        // is sent the stored draft is what was sent and stays.
        const stored = await tx.referral.updateMany({
          where: { id: referralId, emailSentAt: null, ...(fromClay ? {} : { fromClay: false }) },
          data: { emailDraft: draft.data, fromClay },
        });
        if (stored.count === 0)
          log.info(
            { eventId: event.id, referralId, source },
            'email draft not stored (unknown referral, already sent, or an enrichment draft is kept)',
          );
      });
    },
  });

  // Referral programs (programs service): a vendor's active program answers the referral-program check.
  await bus.subscribe({
    event: 'program.saved',
    subscriber: SUBSCRIBERS.programs,
    handle: async (event) => {
      await handleOnce(prisma, SUBSCRIBERS.programs, event.id, (tx) => storeProgram(tx, event));
    },
  });

  // Vendors' bounties (profiles): what referrals to the vendor's products earn (commissions.ts).
  await bus.subscribe({
    event: 'bounties.saved',
    subscriber: SUBSCRIBERS.bounties,
    handle: async (event) => {
      const { companyName, bounties } = event.payload;
      const key = companyKey(companyName);
      const parsed = Bounties.safeParse(bounties);
      if (!key || !parsed.success) {
        log.warn(
          { eventId: event.id, companyName, issue: parsed.error?.issues[0]?.message },
          'bounties dropped (no company or invalid)',
        );
        return;
      }
      await handleOnce(prisma, SUBSCRIBERS.bounties, event.id, (tx) =>
        storeBounties(tx, key, companyName, parsed.data, new Date(event.occurredAt)),
      );
    },
  });
}
