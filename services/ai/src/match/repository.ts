import type { EventPayload } from '@app/contracts';
import type { Tx } from '../db.ts';
import type { MatchProgram, MatchVendor, PrismaClient } from '../generated/prisma/client.ts';

type ProgramFields = Omit<MatchProgram, 'id' | 'savedAt' | 'updatedAt'>;

/** Data access of the Smart Match read model: programs and vendors as the events left them. */
export const changedSince = (prisma: PrismaClient, since: Date) =>
  Promise.all([
    prisma.matchProgram.findMany({ where: { updatedAt: { gte: since } } }),
    prisma.matchVendor.findMany({ where: { updatedAt: { gte: since } } }),
  ]);

/** Writes the program as of `savedAt`, unless the row holds a later save; answers the row as it now is. */
export async function saveProgram(tx: Tx, id: string, fields: ProgramFields, savedAt: Date): Promise<MatchProgram> {
  const existing = await tx.matchProgram.findUnique({ where: { id } });
  if (existing && existing.savedAt > savedAt) return existing;
  const data = { ...fields, savedAt };
  return tx.matchProgram.upsert({ where: { id }, create: { id, ...data }, update: data });
}

/*
 * Each stream of a vendor (workspace, criteria, bounties) has its own version column: a conditional upsert
 * writes it only over an older version (or none), in one statement, so concurrent deliveries of any two
 * streams for a new vendor cannot lose one another. Each answers the row when it changed it, else null.
 */

const vendorRow = (tx: Tx, vendorId: string, applied: number) =>
  applied ? tx.matchVendor.findUnique({ where: { vendorId } }) : Promise.resolve(null);

export async function saveVendor(tx: Tx, vendor: EventPayload<'vendor.saved'>): Promise<MatchVendor | null> {
  const { vendorId, version, name, verified } = vendor;
  const applied = await tx.$executeRaw`
    INSERT INTO match_vendors (vendor_id, version, name, verified, updated_at)
    VALUES (${vendorId}, ${version}, ${name}, ${verified}, now())
    ON CONFLICT (vendor_id) DO UPDATE
      SET version = EXCLUDED.version, name = EXCLUDED.name, verified = EXCLUDED.verified, updated_at = now()
      WHERE match_vendors.version IS NULL OR match_vendors.version < EXCLUDED.version`;
  return vendorRow(tx, vendorId, applied);
}

export async function saveVendorCriteria(
  tx: Tx,
  saved: EventPayload<'lead_criteria.saved'>,
): Promise<MatchVendor | null> {
  const { vendorId, version, criteria } = saved;
  const applied = await tx.$executeRaw`
    INSERT INTO match_vendors (vendor_id, criteria, criteria_version, updated_at)
    VALUES (${vendorId}, ${JSON.stringify(criteria)}::jsonb, ${version}, now())
    ON CONFLICT (vendor_id) DO UPDATE
      SET criteria = EXCLUDED.criteria, criteria_version = EXCLUDED.criteria_version, updated_at = now()
      WHERE match_vendors.criteria_version IS NULL OR match_vendors.criteria_version < EXCLUDED.criteria_version`;
  return vendorRow(tx, vendorId, applied);
}

export async function saveVendorBounties(tx: Tx, saved: EventPayload<'bounties.saved'>): Promise<MatchVendor | null> {
  const { vendorId, version, bounties } = saved;
  const applied = await tx.$executeRaw`
    INSERT INTO match_vendors (vendor_id, bounties, bounties_version, updated_at)
    VALUES (${vendorId}, ${JSON.stringify(bounties)}::jsonb, ${version}, now())
    ON CONFLICT (vendor_id) DO UPDATE
      SET bounties = EXCLUDED.bounties, bounties_version = EXCLUDED.bounties_version, updated_at = now()
      WHERE match_vendors.bounties_version IS NULL OR match_vendors.bounties_version < EXCLUDED.bounties_version`;
  return vendorRow(tx, vendorId, applied);
}
