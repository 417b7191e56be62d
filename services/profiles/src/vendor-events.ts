import { companyKey } from '@app/domain';
import type { Emit } from '@app/kit';
import { announcedBounties, announcedCriteria } from './criteria.ts';
import type { Tx } from './db.ts';
import { vendorRecord, type VendorRecord } from './vendor-repository.ts';
import { vendorSnapshot } from './vendor-view.ts';

/**
 * A change to the workspace or its members: the version grows and `vendor.saved` carries the whole state.
 * The company key is rewritten from the name each time (carried-over rows hold an approximation).
 */
export async function announceVendor(tx: Tx, emit: Emit, vendorId: string): Promise<VendorRecord> {
  const { name } = await tx.vendor.findUniqueOrThrow({ where: { id: vendorId }, select: { name: true } });
  await tx.vendor.update({
    where: { id: vendorId },
    data: { version: { increment: 1 }, companyKey: companyKey(name) },
  });
  const record = await vendorRecord(tx, vendorId);
  emit('vendor.saved', vendorSnapshot(record));
  return record;
}

/**
 * A workspace just became verified: its saved criteria and bounties are announced again with their own
 * versions, so consumers that never received them (data carried over from before workspaces, or a consumer
 * that only keeps verified vendors' data) have them. A consumer that already has that version loses nothing.
 */
export async function announceSavedData(tx: Tx, emit: Emit, vendorId: string): Promise<void> {
  const criteriaRow = await tx.leadCriteria.findUnique({ where: { vendorId } });
  const criteria = criteriaRow && announcedCriteria(criteriaRow);
  if (criteriaRow && criteria) emit('lead_criteria.saved', { vendorId, version: criteriaRow.version, criteria });
  const bountiesRow = await tx.bounties.findUnique({ where: { vendorId } });
  const bounties = bountiesRow && announcedBounties(bountiesRow);
  if (bountiesRow && bounties) emit('bounties.saved', { vendorId, version: bountiesRow.version, bounties });
}
