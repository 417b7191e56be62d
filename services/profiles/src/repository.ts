import type { Bounties, LeadCriteria } from '@app/contracts';
import type { Tx } from './db.ts';
import type { LeadCriteria as LeadCriteriaRow, PrismaClient } from './generated/prisma/client.ts';

/** Data access of the profiles service: what is stored and how, nothing about HTTP or events. */
export const profilesRepository = (prisma: PrismaClient) => ({
  findLeadCriteria: (userId: string) => prisma.leadCriteria.findUnique({ where: { userId } }),
  findBounties: (userId: string) => prisma.bounties.findUnique({ where: { userId } }),
});

export const saveLeadCriteriaRow = (tx: Tx, userId: string, criteria: LeadCriteria): Promise<LeadCriteriaRow> =>
  tx.leadCriteria.upsert({ where: { userId }, create: { userId, ...criteria }, update: criteria });

export const saveBountiesRow = (tx: Tx, userId: string, bounties: Bounties) =>
  tx.bounties.upsert({ where: { userId }, create: { userId, bounties }, update: { bounties } });

/** The company name the events carry: from `user.registered`, '' while that has not arrived. */
export async function companyNameOf(tx: Tx, userId: string): Promise<string> {
  const user = await tx.user.findUnique({ where: { userId }, select: { companyName: true } });
  return user?.companyName ?? '';
}
