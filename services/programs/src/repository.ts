import type { Tx } from './db.ts';
import type { Prisma, PrismaClient, Program as ProgramRow } from './generated/prisma/client.ts';

/** Data access of the programs service: what is stored and how, nothing about HTTP or events. */
export const programsRepository = (prisma: PrismaClient) => ({
  /** Newest first; inactive programs only when asked for. */
  listPrograms: (includeInactive: boolean) =>
    prisma.program.findMany({
      where: includeInactive ? {} : { isActive: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    }),
  recordDocument: (data: Prisma.ProgramDocumentCreateInput) => prisma.programDocument.create({ data }),
});

export type ProgramsRepository = ReturnType<typeof programsRepository>;

export const insertProgram = (tx: Tx, data: Prisma.ProgramCreateInput): Promise<ProgramRow> =>
  tx.program.create({ data });

/** The program changed, or null when there is no such program. */
export async function updateProgramRow(
  tx: Tx,
  id: string,
  data: Prisma.ProgramUpdateInput,
): Promise<ProgramRow | null> {
  const existing = await tx.program.findUnique({ where: { id }, select: { id: true } });
  return existing ? tx.program.update({ where: { id }, data }) : null;
}
