import type { EventEnvelope } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Matcher } from './engine.ts';
import { vendorKey } from './text.ts';

export const MATCH_SUBSCRIBERS = {
  programs: 'ai-match-programs',
  leadCriteria: 'ai-match-lead-criteria',
  bounties: 'ai-match-bounties',
} as const;

type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/**
 * The Smart Match read model: programs and vendor profiles in the ai schema, mirrored in memory by the
 * matcher. Each consumer handles an event once per id (processed_events in the same transaction as the
 * change); an event older than what a row already holds (late redelivery) changes nothing.
 * Other instances of the service catch up from the tables (`sync`), since each event reaches one instance.
 */
export function matchReadModel(deps: { prisma: PrismaClient; matcher: Matcher; log: FastifyBaseLogger }) {
  const { prisma, matcher, log } = deps;
  let syncedTo = new Date(0);

  async function once(subscriber: string, eventId: string, work: (tx: Tx) => Promise<void>): Promise<boolean> {
    return prisma.$transaction(async (tx) => {
      const claimed =
        await tx.$executeRaw`INSERT INTO processed_events (subscriber, event_id) VALUES (${subscriber}, ${eventId}::uuid) ON CONFLICT DO NOTHING`;
      if (claimed === 0) return false;
      await work(tx);
      return true;
    });
  }

  async function refreshVendor(companyKey: string) {
    const row = await prisma.vendorProfile.findUnique({ where: { companyKey } });
    if (row) matcher.putVendor({ companyKey: row.companyKey, criteria: row.criteria, bounties: row.bounties });
  }

  /** Loads whatever changed since the last load (everything the first time) into the matcher. */
  async function sync(): Promise<void> {
    // A little overlap: rows committed late with an earlier updated_at are picked up next time.
    const since = new Date(syncedTo.getTime() - 5000);
    const started = new Date();
    const programs = await prisma.matchProgram.findMany({ where: { updatedAt: { gte: since } } });
    const vendors = await prisma.vendorProfile.findMany({ where: { updatedAt: { gte: since } } });
    for (const vendor of vendors)
      matcher.putVendor({ companyKey: vendor.companyKey, criteria: vendor.criteria, bounties: vendor.bounties });
    for (const p of programs)
      matcher.putProgram({
        id: p.id,
        name: p.name,
        description: p.description,
        website: p.website,
        rewardDetails: p.rewardDetails,
        companyName: p.companyName,
        isActive: p.isActive,
      });
    syncedTo = started;
  }

  return {
    sync,

    async programSaved(event: EventEnvelope<'program.saved'>): Promise<void> {
      const { programId, ...program } = event.payload;
      const savedAt = new Date(event.occurredAt);
      const data = { ...program, companyKey: vendorKey(program.companyName), savedAt };
      await once(MATCH_SUBSCRIBERS.programs, event.id, async (tx) => {
        const existing = await tx.matchProgram.findUnique({ where: { id: programId }, select: { savedAt: true } });
        if (existing && existing.savedAt > savedAt) return;
        await tx.matchProgram.upsert({ where: { id: programId }, create: { id: programId, ...data }, update: data });
      });
      const row = await prisma.matchProgram.findUnique({ where: { id: programId } });
      if (row)
        matcher.putProgram({
          id: row.id,
          name: row.name,
          description: row.description,
          website: row.website,
          rewardDetails: row.rewardDetails,
          companyName: row.companyName,
          isActive: row.isActive,
        });
      log.info({ programId, isActive: program.isActive, eventId: event.id }, 'program read model updated');
    },

    async leadCriteriaSaved(event: EventEnvelope<'lead_criteria.saved'>): Promise<void> {
      const companyKey = vendorKey(event.payload.companyName);
      if (!companyKey) return void log.warn({ eventId: event.id }, 'lead criteria without a company ignored');
      const at = new Date(event.occurredAt);
      const criteria = event.payload.criteria as object;
      await once(MATCH_SUBSCRIBERS.leadCriteria, event.id, async (tx) => {
        const existing = await tx.vendorProfile.findUnique({ where: { companyKey }, select: { criteriaAt: true } });
        if (existing?.criteriaAt && existing.criteriaAt > at) return;
        await tx.vendorProfile.upsert({
          where: { companyKey },
          create: { companyKey, companyName: event.payload.companyName, criteria, criteriaAt: at },
          update: { companyName: event.payload.companyName, criteria, criteriaAt: at },
        });
      });
      await refreshVendor(companyKey);
    },

    async bountiesSaved(event: EventEnvelope<'bounties.saved'>): Promise<void> {
      const companyKey = vendorKey(event.payload.companyName);
      if (!companyKey) return void log.warn({ eventId: event.id }, 'bounties without a company ignored');
      const at = new Date(event.occurredAt);
      const bounties = event.payload.bounties as object;
      await once(MATCH_SUBSCRIBERS.bounties, event.id, async (tx) => {
        const existing = await tx.vendorProfile.findUnique({ where: { companyKey }, select: { bountiesAt: true } });
        if (existing?.bountiesAt && existing.bountiesAt > at) return;
        await tx.vendorProfile.upsert({
          where: { companyKey },
          create: { companyKey, companyName: event.payload.companyName, bounties, bountiesAt: at },
          update: { companyName: event.payload.companyName, bounties, bountiesAt: at },
        });
      });
      await refreshVendor(companyKey);
    },
  };
}

export type MatchReadModel = ReturnType<typeof matchReadModel>;
