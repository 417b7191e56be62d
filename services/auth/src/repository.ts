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

/**
 * Locks the user's row until the transaction ends: the links of one user are opened one after the other, so
 * a link read after the lock is still one that applies (a concurrent email change withdraws the others).
 */
export async function lockUser(db: Tx, id: string): Promise<void> {
  await db.$queryRaw`SELECT id FROM users WHERE id = ${id}::uuid FOR UPDATE`;
}

/**
 * Locks the user's row until the transaction ends (`lockUser`) and answers whether its password is still
 * `passwordHash`, the one checked before the transaction: a password change committed meanwhile means the
 * caller's check no longer holds.
 */
export async function lockUserWithPassword(db: Tx, id: string, passwordHash: string): Promise<boolean> {
  const [row] = await db.$queryRaw<Array<{ password_hash: string }>>`
    SELECT password_hash FROM users WHERE id = ${id}::uuid FOR UPDATE`;
  return row?.password_hash === passwordHash;
}

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

// Failed logins (per email address, known or not)

/** Consecutive failures from which an address is locked, and the longest lock. */
export const LOGIN_BACKOFF = { after: 5, maxMinutes: 15 } as const;

/** The streak: a failure more than a day after the previous one starts again at 1. */
const STREAK = Prisma.raw(
  `(CASE WHEN login_failures.updated_at < now() - interval '1 day' THEN 1 ELSE login_failures.failures + 1 END)`,
);

/**
 * Counts a login attempt as a failure BEFORE its password is checked, in one statement (the row lock makes
 * parallel attempts take turns): from the `after`th consecutive failure the address is locked for 1, 2, 4 ...
 * up to `maxMinutes` minutes. A locked address is not counted: answers `{ lockedUntil }` with nothing
 * changed. A success then clears the streak (`clearLoginFailures`), so only failures remain counted, and no
 * more than `after` attempts can pass before the lock, however many run at once.
 */
export async function countLoginAttempt(
  db: Tx,
  email: string,
): Promise<{ locked: false; lockedUntil: Date | null } | { locked: true; lockedUntil: Date }> {
  const { after, maxMinutes } = LOGIN_BACKOFF;
  const counted = await db.$queryRaw<Array<{ locked_until: Date | null }>>`
    INSERT INTO login_failures (email, failures, locked_until, updated_at)
    VALUES (${email}, 1, CASE WHEN 1 >= ${after} THEN now() + interval '1 minute' END, now())
    ON CONFLICT (email) DO UPDATE SET
      failures = ${STREAK},
      locked_until = CASE WHEN ${STREAK} >= ${after}
        THEN now() + make_interval(mins => least(${maxMinutes}, power(2, ${STREAK} - ${after}))::int)
        END,
      updated_at = now()
    WHERE login_failures.locked_until IS NULL OR login_failures.locked_until <= now()
    RETURNING locked_until`;
  const [row] = counted;
  if (row) return { locked: false, lockedUntil: row.locked_until };
  const lock = await db.loginFailure.findUnique({ where: { email }, select: { lockedUntil: true } });
  // Cleared by a success in between: count again.
  if (!lock?.lockedUntil) return countLoginAttempt(db, email);
  return { locked: true, lockedUntil: lock.lockedUntil };
}

/** A successful login ends the streak; streaks idle for a day are dropped on the way. */
export async function clearLoginFailures(db: Tx, email: string): Promise<void> {
  await db.loginFailure.deleteMany({ where: { email } });
  await db.$executeRaw`DELETE FROM login_failures WHERE updated_at < now() - interval '1 day'
    AND (locked_until IS NULL OR locked_until < now())`;
}

/**
 * Marks that the owner of an address is being told of an attempt on it (a sign-up, or another account's email
 * change to it), at most once per cooldown (a conditional update: of concurrent attempts one wins); false when
 * a notice went out within it.
 */
export async function claimSignUpNotice(db: Tx, userId: string, cooldownSeconds: number): Promise<boolean> {
  const claimed = await db.$executeRaw`
    UPDATE users SET sign_up_notice_at = now()
    WHERE id = ${userId}::uuid
      AND (sign_up_notice_at IS NULL OR sign_up_notice_at <= now() - make_interval(secs => ${cooldownSeconds}))`;
  return claimed === 1;
}

/** Pending email-change links (a password change cancels them). */
export const deletePendingEmailChanges = (db: Tx, userId: string) =>
  db.emailVerificationToken.deleteMany({ where: { userId, usedAt: null, newEmail: { not: null } } });
