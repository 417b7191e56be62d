import type { ChangeEmailRequest, ChangePasswordRequest, LoginRequest, RegisterRequest, User } from '@app/contracts';
import { fail, type Identity, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import type { AuthConfig } from './config.ts';
import type { Tx } from './db.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.ts';
import {
  createUser,
  deleteOtherSessions,
  findUserByEmail,
  findUserById,
  isUniqueViolation,
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

  /** The signed-in user's row, its password checked (the user is known, so a wrong one is no 401). */
  async function userWithPassword(userId: string, password: string) {
    const user = (await findUserById(db, userId)) ?? fail('UNAUTHENTICATED');
    if (!(await verifyPassword(user.passwordHash, password))) fail('WRONG_PASSWORD');
    return user;
  }

  return {
    /** Creates the account, queues the verification email and starts a session; answers its cookie token. */
    async register(input: z.output<typeof RegisterRequest>, browserToken: string | undefined): Promise<string> {
      const passwordHash = await hashPassword(input.password);
      try {
        return await transaction(async (tx, emit) => {
          await sessions.endByToken(tx, emit, browserToken);
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
          return sessions.start(tx, user.id);
        });
      } catch (error) {
        // The unique index on users.email: the address is taken, whatever its case (stored lower-cased).
        if (isUniqueViolation(error)) fail('EMAIL_TAKEN');
        throw error;
      }
    },

    /** Unknown emails and wrong passwords get the same answer in the same time; answers the cookie token. */
    async login(input: z.output<typeof LoginRequest>, browserToken: string | undefined): Promise<string> {
      const user = await findUserByEmail(db, input.email);
      if (!user) {
        await burnPasswordCheck(input.password);
        fail('INVALID_CREDENTIALS');
      }
      if (!(await verifyPassword(user.passwordHash, input.password))) fail('INVALID_CREDENTIALS');
      // The web reads emailVerificationSent to offer a new link.
      if (!user.emailVerifiedAt) fail('LOGIN_EMAIL_NOT_VERIFIED', undefined, { emailVerificationSent: false });
      return transaction(async (tx, emit) => {
        await sessions.endByToken(tx, emit, browserToken);
        return sessions.start(tx, user.id);
      });
    },

    async currentUser(userId: string): Promise<z.input<typeof User>> {
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
      };
    },

    /**
     * New hash, and in the same transaction: every other session of the user ends (each announced with
     * `session.ended`, so gateways evict it at once), the current one stays, and `password.changed`
     * queues the notice.
     */
    async changePassword(identity: Identity, input: z.output<typeof ChangePasswordRequest>): Promise<void> {
      const user = await userWithPassword(identity.userId, input.currentPassword);
      const passwordHash = await hashPassword(input.newPassword);
      await transaction(async (tx, emit) => {
        await setPasswordHash(tx, user.id, passwordHash);
        for (const sessionId of await deleteOtherSessions(tx, user.id, identity.sessionId))
          emit('session.ended', { sessionId });
        emit('password.changed', { userId: user.id, email: user.email, firstName: user.firstName });
      });
    },

    /** Checks the password and the new address, then sends the confirmation link to it. */
    async changeEmail(identity: Identity, input: z.output<typeof ChangeEmailRequest>): Promise<void> {
      const user = await userWithPassword(identity.userId, input.password);
      if (input.newEmail === user.email) fail('SAME_EMAIL');
      if (await findUserByEmail(db, input.newEmail)) fail('EMAIL_TAKEN');
      await verification.requestEmailChange(user, input.newEmail);
    },
  };
}

export type AccountUseCases = ReturnType<typeof accountUseCases>;
