import { ACCOUNT_MESSAGES, AUTH_MESSAGES, ChangeEmailRequest, ChangePasswordRequest } from '@app/contracts';
import { HttpError, outboxEvent, parse, type OutboxRelay, type sealer } from '@app/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthConfig } from './config.ts';
import type { PrismaClient } from './generated/prisma/client.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { hashToken, newToken } from './tokens.ts';

/** Answers of the email-change link (GET /api/verify-email with a token that carries new_email). */
export const ACCOUNT_LINK_MESSAGES = {
  emailChanged: 'Your email address has been changed',
  emailTakenSince:
    'This email address is now used by another account, so your email was not changed. Please request the change again with another address.',
} as const;

export interface AccountDeps {
  config: AuthConfig;
  prisma: PrismaClient;
  relay: OutboxRelay;
  tokenSealer: ReturnType<typeof sealer>;
}

/** The Account screen's server side: change the password, change the email (verified before it applies). */
export function accountRoutes(app: FastifyInstance, deps: AccountDeps) {
  const { config, prisma, relay, tokenSealer } = deps;
  const user = { preHandler: app.requireUser };

  /** The signed-in user's row, its password checked (403 when wrong: the user is known, so no 401). */
  async function userWithPassword(request: FastifyRequest, password: string) {
    const identity = app.userOf(request);
    const row = await prisma.user.findUnique({ where: { id: identity.userId } });
    if (!row) throw new HttpError(401, AUTH_MESSAGES.notAuthenticated);
    if (!(await verifyPassword(row.passwordHash, password))) throw new HttpError(403, ACCOUNT_MESSAGES.wrongPassword);
    return { identity, row };
  }

  /**
   * New hash, and in the same transaction: every other session of the user ends (each announced with
   * `session.ended`, so gateways evict it at once), the current one stays, and `password.changed`
   * queues the notice.
   */
  app.post('/api/account/password', user, async (request) => {
    const input = parse(ChangePasswordRequest, request.body);
    const { identity, row } = await userWithPassword(request, input.currentPassword);
    const passwordHash = await hashPassword(input.newPassword);
    await prisma.$transaction(async (tx) => {
      await tx.user.update({ where: { id: row.id }, data: { passwordHash } });
      const others = await tx.session.findMany({
        where: { userId: row.id, id: { not: identity.sessionId } },
        select: { id: true },
      });
      await tx.session.deleteMany({ where: { id: { in: others.map((s) => s.id) } } });
      for (const session of others) {
        await tx.outboxEvent.create({ data: outboxEvent('session.ended', { sessionId: session.id }, request.id) });
      }
      await tx.outboxEvent.create({
        data: outboxEvent(
          'password.changed',
          { userId: row.id, email: row.email, firstName: row.firstName },
          request.id,
        ),
      });
    });
    relay.kick();
    return { message: ACCOUNT_MESSAGES.passwordChanged };
  });

  /**
   * Sends a link to the new address; the email changes only when it is opened (GET /api/verify-email).
   * A new request replaces an earlier pending change; ordinary verification links are left alone.
   */
  app.post('/api/account/email', user, async (request) => {
    const input = parse(ChangeEmailRequest, request.body);
    const { row } = await userWithPassword(request, input.password);
    if (input.newEmail === row.email) throw new HttpError(400, ACCOUNT_MESSAGES.sameEmail);
    if (await prisma.user.findUnique({ where: { email: input.newEmail }, select: { id: true } }))
      throw new HttpError(409, ACCOUNT_MESSAGES.emailTaken);
    const token = newToken();
    const expiresAt = new Date(Date.now() + config.VERIFICATION_TTL_HOURS * 3600_000);
    await prisma.$transaction(async (tx) => {
      await tx.emailVerificationToken.deleteMany({ where: { userId: row.id, usedAt: null, newEmail: { not: null } } });
      await tx.emailVerificationToken.create({
        data: { userId: row.id, tokenHash: hashToken(token), expiresAt, newEmail: input.newEmail },
      });
      await tx.outboxEvent.create({
        data: outboxEvent(
          'email_change.requested',
          {
            userId: row.id,
            newEmail: input.newEmail,
            firstName: row.firstName,
            sealedToken: tokenSealer.seal(token),
            expiresAt: expiresAt.toISOString(),
          },
          request.id,
        ),
      });
    });
    relay.kick();
    return { message: ACCOUNT_MESSAGES.emailChangeSent };
  });
}
