import type { EventEnvelope } from '@app/contracts';
import { companyKey } from '@app/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../db.ts';
import type { MatchProgram, PrismaClient, VendorProfile } from '../generated/prisma/client.ts';
import type { Matcher, MatchProgramRecord, VendorRecord } from './engine.ts';
import { changedSince, saveProgram, saveVendorBounties, saveVendorCriteria } from './repository.ts';

const programRecord = (row: MatchProgram): MatchProgramRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  website: row.website,
  rewardDetails: row.rewardDetails,
  companyName: row.companyName,
  isActive: row.isActive,
});

const vendorRecord = (row: VendorProfile): VendorRecord => ({
  companyKey: row.companyKey,
  criteria: row.criteria,
  bounties: row.bounties,
});

/**
 * The Smart Match read model: programs and vendor profiles in the ai schema, mirrored in memory by the
 * matcher. Its subscribers (subscribers/match-*.ts) apply each event in their transaction, where the event
 * is also claimed; an event older than what a row already holds (a late redelivery) changes nothing.
 * Other instances of the service catch up from the tables (`sync`), since each event reaches one instance.
 *
 * The memory follows the row as the transaction leaves it, just before the commit: should the commit fail,
 * the event is delivered again and writes the same row, so memory is never ahead of an event that counts.
 */
export function matchReadModel(deps: { prisma: PrismaClient; matcher: Matcher }) {
  const { prisma, matcher } = deps;
  let syncedTo = new Date(0);

  /** Loads whatever changed since the last load (everything the first time) into the matcher. */
  async function sync(): Promise<void> {
    // A little overlap: rows committed late with an earlier updated_at are picked up next time.
    const since = new Date(syncedTo.getTime() - 5000);
    const started = new Date();
    const [programs, vendors] = await changedSince(prisma, since);
    for (const vendor of vendors) matcher.putVendor(vendorRecord(vendor));
    for (const program of programs) matcher.putProgram(programRecord(program));
    syncedTo = started;
  }

  /** The vendor an event names, or null (with a warning) when it names no company. */
  function vendorOf(event: EventEnvelope<'lead_criteria.saved' | 'bounties.saved'>, log: FastifyBaseLogger) {
    const key = companyKey(event.payload.companyName);
    if (!key) log.warn({ eventId: event.id, event: event.name }, 'vendor profile without a company ignored');
    return key ? { companyKey: key, companyName: event.payload.companyName } : null;
  }

  return {
    sync,

    async programSaved(tx: Tx, event: EventEnvelope<'program.saved'>): Promise<void> {
      const { programId, ...program } = event.payload;
      const fields = { ...program, companyKey: companyKey(program.companyName) || null };
      matcher.putProgram(programRecord(await saveProgram(tx, programId, fields, new Date(event.occurredAt))));
    },

    async leadCriteriaSaved(tx: Tx, event: EventEnvelope<'lead_criteria.saved'>, log: FastifyBaseLogger) {
      const vendor = vendorOf(event, log);
      if (!vendor) return;
      const row = await saveVendorCriteria(tx, vendor, event.payload.criteria, new Date(event.occurredAt));
      matcher.putVendor(vendorRecord(row));
    },

    async bountiesSaved(tx: Tx, event: EventEnvelope<'bounties.saved'>, log: FastifyBaseLogger) {
      const vendor = vendorOf(event, log);
      if (!vendor) return;
      const row = await saveVendorBounties(tx, vendor, event.payload.bounties, new Date(event.occurredAt));
      matcher.putVendor(vendorRecord(row));
    },
  };
}

export type MatchReadModel = ReturnType<typeof matchReadModel>;
