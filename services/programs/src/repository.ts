import type { EventPayload } from '@app/contracts';
import type { Tx } from './db.ts';
import type { Prisma, PrismaClient, Program as ProgramRow, Vendor } from './generated/prisma/client.ts';

/** A vendor as this service knows it, with its members' user ids. */
export type KnownVendor = Vendor & { memberIds: string[] };

type Reader = PrismaClient | Tx;

/** Data access of the programs service: what is stored and how, nothing about HTTP or events. */
export const programsRepository = (prisma: PrismaClient) => ({
  /**
   * Newest first. `all` for administrators; otherwise the active programs and every program of the given
   * vendors (their members' own, inactive ones included).
   */
  listPrograms: (scope: { all: true } | { vendorIds: string[] }) =>
    prisma.program.findMany({
      where:
        'all' in scope
          ? {}
          : { OR: [{ isActive: true }, ...(scope.vendorIds.length ? [{ vendorId: { in: scope.vendorIds } }] : [])] },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    }),

  /** Vendor names by id, for the answers. */
  async vendorNames(ids: Array<string | null>): Promise<Map<string, string>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (!wanted.length) return new Map();
    const rows = await prisma.vendor.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } });
    return new Map(rows.map((row) => [row.id, row.name]));
  },

  /** The vendors a user is a member of. */
  vendorsOf: (userId: string) =>
    prisma.vendor.findMany({ where: { members: { some: { userId } } }, orderBy: { id: 'asc' } }),

  vendorExists: async (id: string) => (await prisma.vendor.count({ where: { id } })) > 0,

  recordDocument: (data: Prisma.ProgramDocumentCreateInput) => prisma.programDocument.create({ data }),
});

export type ProgramsRepository = ReturnType<typeof programsRepository>;

export const findProgram = (tx: Tx, id: string) => tx.program.findUnique({ where: { id } });

/** A vendor with its members, or null when no `vendor.saved` for it arrived. */
export async function findVendor(db: Reader, id: string): Promise<KnownVendor | null> {
  const vendor = await db.vendor.findUnique({ where: { id }, include: { members: { select: { userId: true } } } });
  if (!vendor) return null;
  const { members, ...rest } = vendor;
  return { ...rest, memberIds: members.map((member) => member.userId) };
}

export const insertProgram = (tx: Tx, data: Prisma.ProgramCreateInput): Promise<ProgramRow> =>
  tx.program.create({ data });

export const updateProgramRow = (tx: Tx, id: string, data: Prisma.ProgramUpdateInput): Promise<ProgramRow> =>
  tx.program.update({ where: { id }, data });

/**
 * Keeps a vendor as of its latest `vendor.saved`: a version no newer than the stored one changes nothing
 * (a late or repeated delivery). Answers whether it was applied.
 */
export async function saveVendor(tx: Tx, vendor: EventPayload<'vendor.saved'>): Promise<boolean> {
  const { vendorId: id, version, name, domain, verified, members } = vendor;
  // Locks the row (or the id's slot) so two deliveries of different versions apply in version order.
  const applied = await tx.$executeRaw`
    INSERT INTO vendors (id, version, name, domain, verified, updated_at)
    VALUES (${id}, ${version}, ${name}, ${domain}, ${verified}, now())
    ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, name = EXCLUDED.name, domain = EXCLUDED.domain,
      verified = EXCLUDED.verified, updated_at = now()
    WHERE vendors.version < EXCLUDED.version`;
  if (applied === 0) return false;
  await tx.vendorMember.deleteMany({ where: { vendorId: id } });
  const unique = new Map(members.map((member) => [member.userId, member.role]));
  if (unique.size)
    await tx.vendorMember.createMany({
      data: [...unique].map(([userId, role]) => ({ vendorId: id, userId, role })),
    });
  return true;
}
