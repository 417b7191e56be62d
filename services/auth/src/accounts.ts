import {
  UserIntent,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type LoginRequest,
  type RegisterRequest,
  type User,
} from '@app/contracts';
import { fail, type Identity, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import type { AuthConfig } from './config.ts';
import type { Tx } from './db.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.ts';
import {
  claimSignUpNotice,
  clearLoginFailures,
  countLoginAttempt,
  createUser,
  deleteOtherSessions,
  deletePendingEmailChanges,
  findUserByEmail,
  findUserById,
  isUniqueViolation,
  lockUserWithPassword,
  setPasswordHash,
} from './repository.ts';
import { isAdmin, type SessionUseCases } from './sessions.ts';
import type { VerificationUseCases } from './verification.ts';

/**
 * Accounts: registering, signing in, the user as the app shows it, and the Account screen (password and
 * email changes). Each use case owns its transaction and the events it announces. `browserToken` is the
 * session cookie the request came with: signing in or registering on a browser ends its earlier session.
 */
export function accountUseCases(deps: {
  db: Tx;
  transaction: TransactionRunner<Tx>;
  config: AuthConfig;
  sessions: SessionUseCases;
  verification: VerificationUseCases;
}) {
  const { db, transaction, config, sessions, verification } = deps;

  /**
   * The signed-in user's row, its password checked (the user is known, so a wrong one is no 401). Counted
   * like a login attempt on the account's address: a session alone (a borrowed laptop, a stolen cookie)
   * must not be a way round the lock to guess the password, then change it or the address.
   */
  async function userWithPassword(userId: string, password: string, field: string) {
    const user = (await findUserById(db, userId)) ?? fail('UNAUTHENTICATED');
    const attempt = await countLoginAttempt(db, user.email);
    if (attempt.locked) backoff(attempt.lockedUntil);
    if (!(await verifyPassword(user.passwordHash, password))) {
      if (attempt.lockedUntil) backoff(attempt.lockedUntil);
      // The field that holds it: the screen shows the message next to it (issue 12).
      fail('WRONG_PASSWORD', undefined, { field });
    }
    await clearLoginFailures(db, user.email);
    return user;
  }

  /**
   * Tells the owner of an address that someone tried to register it, or to move another account to it: one
   * notice of either kind per cooldown.
   */
  async function noticeAttempt(
    userId: string,
    event: 'user.sign_up_attempted' | 'email_change.taken_notice_requested',
  ): Promise<void> {
    await transaction(async (tx, emit) => {
      if (!(await claimSignUpNotice(tx, userId, config.RESEND_COOLDOWN_SECONDS))) return;
      const user = (await findUserById(tx, userId)) ?? fail('UNAUTHENTICATED');
      emit(event, { userId: user.id, email: user.email, firstName: user.firstName });
    });
  }

  async function currentUser(userId: string): Promise<z.input<typeof User>> {
    const user = (await findUserById(db, userId)) ?? fail('UNAUTHENTICATED');
    return {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      companyName: user.companyName,
      isAdmin: isAdmin(config, user),
      emailVerified: user.emailVerifiedAt !== null,
      createdAt: user.createdAt.toISOString(),
      intent: UserIntent.safeParse(user.intent).data ?? null,
    };
  }

  return {
    /**
     * Creates the account and queues the verification email; no session (the emailed link signs the user
     * in). An address that already has an account gets the same answer in about the same time (a password
     * is hashed either way), and its owner is told by email instead: sign-up reveals nothing.
     */
    async register(input: z.output<typeof RegisterRequest>): Promise<void> {
      const passwordHash = await hashPassword(input.password);
      const existing = await findUserByEmail(db, input.email);
      if (existing) return noticeAttempt(existing.id, 'user.sign_up_attempted');
      try {
        await transaction(async (tx, emit) => {
          const user = await createUser(tx, {
            email: input.email,
            passwordHash,
            firstName: input.firstName,
            lastName: input.lastName,
            companyName: input.companyName,
          });
          emit('user.registered', {
            userId: user.id,
            email: user.email,
            firstName: user.firstName,
            lastName: user.lastName,
            companyName: user.companyName,
          });
          await verification.requestVerification(tx, emit, user);
        });
      } catch (error) {
        // The unique index on users.email: a concurrent sign-up took the address (stored lower-cased).
        if (!isUniqueViolation(error)) throw error;
        const winner = await findUserByEmail(db, input.email);
        if (winner) await noticeAttempt(winner.id, 'user.sign_up_attempted');
      }
    },

    /**
     * Unknown emails and wrong passwords get the same answer in the same time; answers the cookie token.
     * Every email address (known or not) is locked for a growing delay after repeated failures
     * (`countLoginAttempt`): 429 LOGIN_BACKOFF, whatever the password, until the delay is over.
     */
    async login(input: z.output<typeof LoginRequest>, browserToken: string | undefined): Promise<string> {
      const attempt = await countLoginAttempt(db, input.email);
      if (attempt.locked) backoff(attempt.lockedUntil);
      const user = await findUserByEmail(db, input.email);
      if (!user) await burnPasswordCheck(input.password);
      if (!user || !(await verifyPassword(user.passwordHash, input.password))) {
        // This failure started the lock: say so now rather than at the next attempt.
        if (attempt.lockedUntil) backoff(attempt.lockedUntil);
        // Next to the password (issue 12): the same answer whether or not the address has an account.
        fail('INVALID_CREDENTIALS', undefined, { field: 'password' });
      }
      await clearLoginFailures(db, input.email);
      // The web reads emailVerificationSent to offer a new link.
      if (!user.emailVerifiedAt) fail('LOGIN_EMAIL_NOT_VERIFIED', undefined, { emailVerificationSent: false });
      return transaction(async (tx, emit) => {
        await sessions.endByToken(tx, emit, browserToken);
        return sessions.start(tx, user.id);
      });
    },

    currentUser,

    /** Issue 12: what the user came for (changeable at any time). */
    async setIntent(userId: string, intent: UserIntent): Promise<z.input<typeof User>> {
      const { count } = await db.user.updateMany({ where: { id: userId }, data: { intent } });
      if (!count) fail('UNAUTHENTICATED');
      return currentUser(userId);
    },

    /**
     * New hash, and in the same transaction: pending email changes are cancelled, every other session of
     * the user ends (each announced with `session.ended`, so gateways evict it at once), the current one
     * stays, and `password.changed` queues the notice. Under the user's lock the password must still be the
     * one checked: of two changes made at once with the same current password, the second is refused as a
     * wrong password (it was told its new password was saved, and the other one won).
     */
    async changePassword(identity: Identity, input: z.output<typeof ChangePasswordRequest>): Promise<void> {
      const user = await userWithPassword(identity.userId, input.currentPassword, 'currentPassword');
      const passwordHash = await hashPassword(input.newPassword);
      await transaction(async (tx, emit) => {
        if (!(await lockUserWithPassword(tx, user.id, user.passwordHash)))
          fail('WRONG_PASSWORD', undefined, { field: 'currentPassword' });
        await setPasswordHash(tx, user.id, passwordHash);
        // A change of address asked for before (perhaps by whoever knew the old password) no longer applies.
        await deletePendingEmailChanges(tx, user.id);
        for (const sessionId of await deleteOtherSessions(tx, user.id, identity.sessionId))
          emit('session.ended', { sessionId });
        emit('password.changed', { userId: user.id, email: user.email, firstName: user.firstName });
      });
    },

    /**
     * Checks the password, then sends the confirmation link to the new address. An address that has an
     * account gets the same answer (sign-up reveals nothing, nor does this): no link, and its owner is told
     * by email instead. Opening a link to an address taken since then is refused.
     */
    async changeEmail(identity: Identity, input: z.output<typeof ChangeEmailRequest>): Promise<void> {
      const user = await userWithPassword(identity.userId, input.password, 'password');
      if (input.newEmail === user.email) fail('SAME_EMAIL');
      const holder = await findUserByEmail(db, input.newEmail);
      await verification.requestEmailChange(user, input.newEmail, holder !== null);
      if (holder) await noticeAttempt(holder.id, 'email_change.taken_notice_requested');
    },
  };
}

/** 429 LOGIN_BACKOFF naming the wait in whole minutes. */
function backoff(lockedUntil: Date): never {
  const minutes = Math.max(1, Math.ceil((lockedUntil.getTime() - Date.now()) / 60_000));
  fail('LOGIN_BACKOFF', loginBackoffMessage(minutes));
}

export const loginBackoffMessage = (minutes: number) =>
  `Too many failed attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`;

export type AccountUseCases = ReturnType<typeof accountUseCases>;
