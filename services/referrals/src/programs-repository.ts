import type { EventPayload } from '@app/contracts';
import { companyKey } from '@app/domain';
import type { Tx } from './db.ts';
import type { PrismaClient } from './generated/prisma/client.ts';
import { productKey } from './projects.ts';

/** Data access of referral programs (copied from `program.saved`) and of what projects know of theirs. */

/**
 * Stores a program as the programs service saved it; an event older than the stored row (a late
 * redelivery) changes nothing.
 */
export async function storeProgram(tx: Tx, program: EventPayload<'program.saved'>, savedAt: Date): Promise<void> {
  const { programId, name, rewardDetails, companyName, isActive } = program;
  const existing = await tx.program.findUnique({ where: { id: programId }, select: { savedAt: true } });
  if (existing && existing.savedAt > savedAt) return;
  const data = {
    name,
    nameKey: productKey(name),
    rewardDetails,
    companyName,
    companyKey: companyKey(companyName) || null,
    isActive,
    savedAt,
  };
  await tx.program.upsert({ where: { id: programId }, create: { id: programId, ...data }, update: data });
}

export function programsRepository(prisma: PrismaClient) {
  return {
    findProject: (projectId: string) => prisma.project.findUnique({ where: { id: projectId } }),

    /**
     * The vendor's active program for a product: one of its company (companyKey) first, else one named
     * like the product; the most recently saved wins. An inactive program never counts.
     */
    async activeProgram(product: { productName: string; companyName: string }) {
      const key = companyKey(product.companyName);
      const candidates = await prisma.program.findMany({
        where: {
          isActive: true,
          OR: [...(key ? [{ companyKey: key }] : []), { nameKey: productKey(product.productName) }],
        },
        orderBy: [{ savedAt: 'desc' }, { id: 'asc' }],
        take: 20,
      });
      return candidates.find((c) => key && c.companyKey === key) ?? candidates[0] ?? null;
    },

    /** A program found for the project (kept), or null: nobody knew one at this time (not asked again soon). */
    async rememberProgram(projectId: string, referralProgram: string | null): Promise<void> {
      await prisma.project.update({
        where: { id: projectId },
        data: { ...(referralProgram ? { referralProgram } : {}), programCheckedAt: new Date() },
      });
    },
  };
}

export type ProgramsRepository = ReturnType<typeof programsRepository>;
