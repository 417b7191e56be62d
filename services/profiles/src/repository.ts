import type { Bounties, LeadCriteria } from '@app/contracts';
import type { Tx } from './db.ts';
import type { LeadCriteria as LeadCriteriaRow } from './generated/prisma/client.ts';

/** Data access of a workspace's lead criteria and bounties: nothing about HTTP or events. */

export const findLeadCriteria = (db: Tx, vendorId: string) => db.leadCriteria.findUnique({ where: { vendorId } });

export const findBounties = (db: Tx, vendorId: string) => db.bounties.findUnique({ where: { vendorId } });

/** Each save replaces the profile and increments its version (the workspace row is locked meanwhile). */
export const saveLeadCriteriaRow = (
  tx: Tx,
  vendorId: string,
  userId: string,
  criteria: LeadCriteria,
): Promise<LeadCriteriaRow> =>
  tx.leadCriteria.upsert({
    where: { vendorId },
    create: { vendorId, updatedBy: userId, ...criteria },
    update: { ...criteria, updatedBy: userId, version: { increment: 1 } },
  });

export const saveBountiesRow = (tx: Tx, vendorId: string, userId: string, bounties: Bounties) =>
  tx.bounties.upsert({
    where: { vendorId },
    create: { vendorId, updatedBy: userId, bounties },
    update: { bounties, updatedBy: userId, version: { increment: 1 } },
  });
