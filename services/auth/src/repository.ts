import type { Tx } from './db.ts';
import { Prisma } from './generated/prisma/client.ts';

/**
 * Data access of the auth service: users, sessions and verification links as stored (tokens only as
 * their hashes), nothing about HTTP or events. Every function takes the client to run on: a transaction,
 * or the Prisma client for a single statement.
 */

/** A write refused by a unique index (an email address taken by a concurrent request). */
export const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

// Users

export const findUserById = (db: Tx, id: string) => db.user.findUnique({ where: { id } });

export const findUserByEmail = (db: Tx, email: string) => db.user.findUnique({ where: { email } });

export const createUser = (
  db: Tx,
  data: { email: string; passwordHash: string; firstName: string; lastName: string; companyName: string },
) => db.user.create({ data });

export const setPasswordHash = (db: Tx, id: string, passwordHash: string) =>
  db.user.update({ where: { id }, data: { passwordHash } });

export const markEmailVerified = (db: Tx, id: string) =>
  db.user.update({ where: { id }, data: { emailVerifiedAt: new Date() } });

export const moveEmail = (db: Tx, id: string, email: string, emailVerifiedAt: Date) =>
  db.user.update({ where: { id }, data: { email, emailVerifiedAt } });

// Sessions

export const createSession = (db: Tx, data: { userId: string; tokenHash: string; expiresAt: Date }) =>
  db.session.create({ data });

export const findSession = (db: Tx, tokenHash: string) => db.session.findUnique({ where: { tokenHash } });

export const findSessionWithUser = (db: Tx, tokenHash: string) =>
  db.session.findUnique({ where: { tokenHash }, include: { user: true } });

export const touchSession = (db: Tx, id: string, lastSeenAt: Date) =>
  db.session.update({ where: { id }, data: { lastSeenAt } });

export const deleteSession = (db: Tx, id: string) => db.session.delete({ where: { id } });

/** Ends every session of the user but one; answers the ids of the ended ones. */
export async function deleteOtherSessions(db: Tx, userId: string, keepSessionId: string): Promise<string[]> {
  const others = await db.session.findMany({
    where: { userId, id: { not: keepSessionId } },
    select: { id: true },
  });
  const ids = others.map((session) => session.id);
  await db.session.deleteMany({ where: { id: { in: ids } } });
  return ids;
}

// Verification links (new_email null: verify the account's address; set: confirm an email change)

/** Replaces the user's pending links of one kind (verification or email change) with a new one. */
export async function replacePendingLink(
  db: Tx,
  link: { userId: string; tokenHash: string; expiresAt: Date; newEmail: string | null },
) {
  const kind = link.newEmail === null ? { newEmail: null } : { newEmail: { not: null } };
  await db.emailVerificationToken.deleteMany({ where: { userId: link.userId, usedAt: null, ...kind } });
  await db.emailVerificationToken.create({ data: link });
}

/** When the user's latest verification link (not an email-change one) was issued. */
export async function latestVerificationAt(db: Tx, userId: string): Promise<Date | null> {
  const latest = await db.emailVerificationToken.findFirst({
    where: { userId, newEmail: null },
    orderBy: { createdAt: 'desc' },
    select: { createdAt: true },
  });
  return latest?.createdAt ?? null;
}

export const findLinkWithUser = (db: Tx, tokenHash: string) =>
  db.emailVerificationToken.findUnique({ where: { tokenHash }, include: { user: true } });

/** Marks a link used; false when it already was. Conditional: of two concurrent uses, exactly one wins. */
export async function useLink(db: Tx, id: string): Promise<boolean> {
  const used = await db.emailVerificationToken.updateMany({
    where: { id, usedAt: null },
    data: { usedAt: new Date() },
  });
  return used.count === 1;
}

/** Every unused link of the user (verification and email change alike). */
export const deletePendingLinks = (db: Tx, userId: string) =>
  db.emailVerificationToken.deleteMany({ where: { userId, usedAt: null } });
