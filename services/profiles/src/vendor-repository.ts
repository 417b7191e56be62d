import type { VendorRole } from '@app/contracts';
import { hostAndParents } from '@app/domain';
import type { Tx } from './db.ts';
import { Prisma } from './generated/prisma/client.ts';

/** Data access for vendor workspaces, their members, invitations and audit log: no HTTP, no events. */

/** What a workspace is shown and announced with: members (with their user copy), pending invitations. */
export const vendorInclude = {
  members: { include: { user: true }, orderBy: [{ joinedAt: 'asc' }, { userId: 'asc' }] },
  invitations: { where: { acceptedAt: null, revokedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
  leadCriteria: { select: { vendorId: true } },
  bounties: { select: { vendorId: true } },
} satisfies Prisma.VendorInclude;

export type VendorRecord = Prisma.VendorGetPayload<{ include: typeof vendorInclude }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are uuids: anything else names no workspace (and must not reach a ::uuid cast). */
export const isUuid = (id: string) => UUID.test(id);

/** A unique index refused the write: another workspace was verified for the domain meanwhile. */
export const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/**
 * Locks the workspace row for the rest of the transaction, so changes to one workspace (members,
 * verification, version) happen one after the other. False when there is no such workspace.
 */
export async function lockVendor(tx: Tx, vendorId: string): Promise<boolean> {
  if (!isUuid(vendorId)) return false;
  const rows = await tx.$queryRaw<unknown[]>`SELECT id FROM vendors WHERE id = ${vendorId}::uuid FOR UPDATE`;
  return rows.length === 1;
}

export const findVendor = (db: Tx, vendorId: string) =>
  isUuid(vendorId) ? db.vendor.findUnique({ where: { id: vendorId } }) : Promise.resolve(null);

export const findVendorRecord = (db: Tx, vendorId: string): Promise<VendorRecord | null> =>
  isUuid(vendorId) ? db.vendor.findUnique({ where: { id: vendorId }, include: vendorInclude }) : Promise.resolve(null);

export async function vendorRecord(db: Tx, vendorId: string): Promise<VendorRecord> {
  const record = await findVendorRecord(db, vendorId);
  if (!record) throw new Error(`vendor ${vendorId} vanished inside its own transaction`);
  return record;
}

export const roleOf = async (db: Tx, vendorId: string, userId: string): Promise<VendorRole | null> => {
  const member = await db.vendorMember.findUnique({ where: { vendorId_userId: { vendorId, userId } } });
  return (member?.role as VendorRole | undefined) ?? null;
};

/** The ids of the workspaces a user is a member of, oldest membership first. */
export const workspaceIdsOf = async (db: Tx, userId: string): Promise<string[]> =>
  (
    await db.vendorMember.findMany({
      where: { userId },
      orderBy: [{ joinedAt: 'asc' }, { vendorId: 'asc' }],
      select: { vendorId: true },
    })
  ).map((m) => m.vendorId);

/**
 * Locks a user's workspaces, in id order (as every transaction locking several does), before their user copy
 * changes: workspace first, then user, everywhere, so two transactions never wait on each other.
 */
export async function lockWorkspacesOf(tx: Tx, userId: string): Promise<string[]> {
  const ids = (await workspaceIdsOf(tx, userId)).sort();
  for (const id of ids) await lockVendor(tx, id);
  return ids;
}

export const vendorRecordsOf = (db: Tx, userId: string): Promise<VendorRecord[]> =>
  db.vendor.findMany({
    where: { members: { some: { userId } } },
    include: vendorInclude,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });

/**
 * The verified workspace (other than `exceptId`) holding `domain` or a domain it is under: sub.acme.com and
 * app.sub.acme.com are acme.com's once acme.com is verified (a referral to them would route to whoever held
 * them, a stranger's inbox under the verified vendor's name).
 */
export const verifiedHolderOf = (db: Tx, domain: string, exceptId?: string) =>
  domain
    ? db.vendor.findFirst({
        where: { verifiedDomain: { in: hostAndParents(domain) }, ...(exceptId ? { id: { not: exceptId } } : {}) },
      })
    : Promise.resolve(null);

/**
 * A workspace of the domain (or of a domain it is under) whose verification an administrator revoked and has
 * not approved again: while there is one, no workspace of that domain is verified by its domain, only by an
 * administrator (revoking would mean nothing if its members could claim the domain again in a new workspace).
 */
export const revokedHolderOf = (db: Tx, domain: string) =>
  domain
    ? db.vendor.findFirst({ where: { domain: { in: hostAndParents(domain) }, revokedAt: { not: null } } })
    : Promise.resolve(null);

/** Addresses of members whose copy says the address is verified. */
export async function verifiedMemberEmails(db: Tx, vendorId: string): Promise<string[]> {
  const members = await db.vendorMember.findMany({
    where: { vendorId, user: { emailVerified: true } },
    select: { user: { select: { email: true } } },
  });
  return members.map((m) => m.user.email).filter(Boolean);
}

export const addAudit = (tx: Tx, vendorId: string, actor: string, action: string, note = '') =>
  tx.vendorAuditEntry.create({ data: { vendorId, actor, action, note } });

export const auditOf = (db: Tx, vendorId: string) =>
  db.vendorAuditEntry.findMany({ where: { vendorId }, orderBy: { id: 'desc' } });

/** Pending invitations sent to an address, with their workspace's name. */
export const pendingInvitationsFor = (db: Tx, email: string) =>
  db.vendorInvitation.findMany({
    where: { email, acceptedAt: null, revokedAt: null },
    include: { vendor: { select: { name: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });

export const findInvitation = (db: Tx, invitationId: string) =>
  isUuid(invitationId) ? db.vendorInvitation.findUnique({ where: { id: invitationId } }) : Promise.resolve(null);

/** The names of users by id ('' for unknown ones), to show who invited whom. */
export async function userNames(db: Tx, userIds: string[]): Promise<Map<string, string>> {
  const users = await db.user.findMany({ where: { userId: { in: [...new Set(userIds)] } } });
  return new Map(users.map((u) => [u.userId, displayName(u)]));
}

/** A person as members see them: first and last name, else their address. */
export const displayName = (user: { firstName: string; lastName: string; email: string }) =>
  `${user.firstName} ${user.lastName}`.trim() || user.email;

export interface DirectoryFilter {
  status: 'all' | 'verified' | 'unverified';
  search?: string | undefined;
}

export const directory = (db: Tx, filter: DirectoryFilter) =>
  db.vendor.findMany({
    where: {
      ...(filter.status === 'verified' ? { verifiedAt: { not: null } } : {}),
      ...(filter.status === 'unverified' ? { verifiedAt: null } : {}),
      ...(filter.search
        ? {
            OR: [
              { name: { contains: filter.search, mode: 'insensitive' as const } },
              { domain: { contains: filter.search.toLowerCase() } },
            ],
          }
        : {}),
    },
    include: { _count: { select: { members: true } } },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: 500,
  });
