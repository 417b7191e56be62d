import type { LeadCriteria, Bounties } from '@app/contracts';
import type { Tx } from '../db.ts';
import type { MatchProgram, PrismaClient, VendorProfile } from '../generated/prisma/client.ts';

type ProgramFields = Omit<MatchProgram, 'id' | 'savedAt' | 'updatedAt'>;

/** Data access of the Smart Match read model: programs and vendor profiles as the events left them. */
export const changedSince = (prisma: PrismaClient, since: Date) =>
  Promise.all([
    prisma.matchProgram.findMany({ where: { updatedAt: { gte: since } } }),
    prisma.vendorProfile.findMany({ where: { updatedAt: { gte: since } } }),
  ]);

/** Writes the program as of `savedAt`, unless the row holds a later save; answers the row as it now is. */
export async function saveProgram(tx: Tx, id: string, fields: ProgramFields, savedAt: Date): Promise<MatchProgram> {
  const existing = await tx.matchProgram.findUnique({ where: { id } });
  if (existing && existing.savedAt > savedAt) return existing;
  const data = { ...fields, savedAt };
  return tx.matchProgram.upsert({ where: { id }, create: { id, ...data }, update: data });
}

/** The vendor's lead criteria as of `at`, unless the row holds later ones; answers the row as it now is. */
export async function saveVendorCriteria(
  tx: Tx,
  vendor: { companyKey: string; companyName: string },
  criteria: LeadCriteria,
  at: Date,
): Promise<VendorProfile> {
  const { companyKey, companyName } = vendor;
  const existing = await tx.vendorProfile.findUnique({ where: { companyKey } });
  if (existing?.criteriaAt && existing.criteriaAt > at) return existing;
  return tx.vendorProfile.upsert({
    where: { companyKey },
    create: { companyKey, companyName, criteria, criteriaAt: at },
    update: { companyName, criteria, criteriaAt: at },
  });
}

/** The vendor's bounties as of `at`, unless the row holds later ones; answers the row as it now is. */
export async function saveVendorBounties(
  tx: Tx,
  vendor: { companyKey: string; companyName: string },
  bounties: Bounties,
  at: Date,
): Promise<VendorProfile> {
  const { companyKey, companyName } = vendor;
  const existing = await tx.vendorProfile.findUnique({ where: { companyKey } });
  if (existing?.bountiesAt && existing.bountiesAt > at) return existing;
  return tx.vendorProfile.upsert({
    where: { companyKey },
    create: { companyKey, companyName, bounties, bountiesAt: at },
    update: { companyName, bounties, bountiesAt: at },
  });
}
