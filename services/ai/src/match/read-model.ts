import type { EventEnvelope } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../db.ts';
import type { MatchProgram, MatchVendor, PrismaClient } from '../generated/prisma/client.ts';
import type { Matcher, MatchProgramRecord, VendorRecord } from './engine.ts';
import { changedSince, saveProgram, saveVendor, saveVendorBounties, saveVendorCriteria } from './repository.ts';

const programRecord = (row: MatchProgram): MatchProgramRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  website: row.website,
  rewardDetails: row.rewardDetails,
  vendorId: row.vendorId,
  companyName: row.companyName,
  isActive: row.isActive,
});

const vendorRecord = (row: MatchVendor): VendorRecord => ({
  vendorId: row.vendorId,
  name: row.name,
  verified: row.verified,
  criteria: row.criteria,
  bounties: row.bounties,
});

/**
 * The Smart Match read model: programs and vendors in the ai schema, mirrored in memory by the matcher.
 * Its subscribers (subscribers/match-*.ts) apply each event in their transaction, where the event is also
 * claimed. A program keeps its latest save (occurredAt); each stream of a vendor (workspace, criteria,
 * bounties) its highest version, whatever order they arrive in. Other instances of the service catch up
 * from the tables (`sync`), since each event reaches one instance.
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

  const put = (row: MatchVendor | null, event: EventEnvelope, log: FastifyBaseLogger) => {
    if (row) matcher.putVendor(vendorRecord(row));
    else log.info({ eventId: event.id, event: event.name }, 'older vendor version ignored');
  };

  return {
    sync,

    async programSaved(tx: Tx, event: EventEnvelope<'program.saved'>): Promise<void> {
      const { programId, ...program } = event.payload;
      matcher.putProgram(programRecord(await saveProgram(tx, programId, program, new Date(event.occurredAt))));
    },

    async vendorSaved(tx: Tx, event: EventEnvelope<'vendor.saved'>, log: FastifyBaseLogger) {
      put(await saveVendor(tx, event.payload), event, log);
    },

    async leadCriteriaSaved(tx: Tx, event: EventEnvelope<'lead_criteria.saved'>, log: FastifyBaseLogger) {
      put(await saveVendorCriteria(tx, event.payload), event, log);
    },

    async bountiesSaved(tx: Tx, event: EventEnvelope<'bounties.saved'>, log: FastifyBaseLogger) {
      put(await saveVendorBounties(tx, event.payload), event, log);
    },
  };
}

export type MatchReadModel = ReturnType<typeof matchReadModel>;
