import {
  AUTH_MESSAGES,
  LoginRequest,
  RegisterRequest,
  ResendVerificationRequest,
  VerifyEmailQuery,
  type AuthResponse,
  type User,
  type VerifyEmailResponse,
} from '@app/contracts';
import { HttpError, outboxEvent, parse, sealer, type OutboxRelay } from '@app/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_LINK_MESSAGES, accountRoutes } from './account.ts';
import type { AuthConfig } from './config.ts';
import { Prisma, type PrismaClient } from './generated/prisma/client.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.ts';
import { isAdmin, SESSION_COOKIE, type SessionStore } from './sessions.ts';
import { hashToken, newToken } from './tokens.ts';

type Tx = Prisma.TransactionClient;

export interface AuthDeps {
  config: AuthConfig;
  prisma: PrismaClient;
  sessions: SessionStore;
  relay: OutboxRelay;
}

export function authRoutes(app: FastifyInstance, deps: AuthDeps) {
  const { config, prisma, sessions, relay } = deps;
  const secure = config.COOKIE_SECURE ? config.COOKIE_SECURE === 'true' : config.PUBLIC_URL.startsWith('https:');
  const tokenSealer = sealer(config.INTERNAL_SECRET, 'email-verification');
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;

  const setSessionCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: sessions.maxAgeSeconds });

  /**
   * Replaces the user's pending verification tokens with a new one and queues the email. A pending
   * email-change link (new_email set) is another link to another address and stays valid.
   */
  async function requestVerification(
    tx: Tx,
    user: { id: string; email: string; firstName: string },
    requestId: string,
  ) {
    const token = newToken();
    const expiresAt = new Date(Date.now() + config.VERIFICATION_TTL_HOURS * 3600_000);
    await tx.emailVerificationToken.deleteMany({ where: { userId: user.id, usedAt: null, newEmail: null } });
    await tx.emailVerificationToken.create({ data: { userId: user.id, tokenHash: hashToken(token), expiresAt } });
    await tx.outboxEvent.create({
      data: outboxEvent(
        'email_verification.requested',
        {
          userId: user.id,
          email: user.email,
          firstName: user.firstName,
          sealedToken: tokenSealer.seal(token),
          expiresAt: expiresAt.toISOString(),
        },
        requestId,
      ),
    });
  }

  /** Ends the session the request's cookie points at, if any (logout, or a new login on this browser). */
  async function endCurrentSession(tx: Tx, request: FastifyRequest) {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const session = await tx.session.findUnique({ where: { tokenHash: hashToken(token) } });
    if (!session) return;
    await tx.session.delete({ where: { id: session.id } });
    await tx.outboxEvent.create({ data: outboxEvent('session.ended', { sessionId: session.id }, request.id) });
  }

  app.post('/api/register', async (request, reply) => {
    const input = parse(RegisterRequest, request.body);
    const passwordHash = await hashPassword(input.password);
    let token: string;
    try {
      token = await prisma.$transaction(async (tx) => {
        await endCurrentSession(tx, request);
        const user = await tx.user.create({
          data: {
            email: input.email,
            passwordHash,
            firstName: input.firstName,
            lastName: input.lastName,
            companyName: input.companyName,
          },
        });
        await tx.outboxEvent.create({
          data: outboxEvent(
            'user.registered',
            {
              userId: user.id,
              email: user.email,
              firstName: user.firstName,
              lastName: user.lastName,
              companyName: user.companyName,
            },
            request.id,
          ),
        });
        await requestVerification(tx, user, request.id);
        return sessions.create(user.id, tx);
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new HttpError(409, AUTH_MESSAGES.emailTaken);
      }
      throw error;
    }
    relay.kick();
    setSessionCookie(reply, token);
    const body: AuthResponse = { message: AUTH_MESSAGES.registered, emailVerificationSent: true };
    return reply.status(201).send(body);
  });

  app.post('/api/login', async (request, reply) => {
    const input = parse(LoginRequest, request.body);
    const user = await prisma.user.findUnique({ where: { email: input.email } });
    if (!user) {
      await burnPasswordCheck(input.password);
      throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
    }
    if (!(await verifyPassword(user.passwordHash, input.password))) {
      throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
    }
    if (!user.emailVerifiedAt) {
      throw new HttpError(403, AUTH_MESSAGES.emailNotVerified, { emailVerificationSent: false });
    }
    const token = await prisma.$transaction(async (tx) => {
      await endCurrentSession(tx, request);
      return sessions.create(user.id, tx);
    });
    relay.kick();
    setSessionCookie(reply, token);
    const body: AuthResponse = { message: AUTH_MESSAGES.loggedIn, emailVerificationSent: false };
    return body;
  });

  app.post('/api/logout', async (request, reply) => {
    await prisma.$transaction((tx) => endCurrentSession(tx, request));
    relay.kick();
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    return { message: AUTH_MESSAGES.loggedOut };
  });

  app.get('/api/user', { preHandler: app.requireUser }, async (request) => {
    const identity = app.userOf(request);
    const user = await prisma.user.findUnique({ where: { id: identity.userId } });
    if (!user) throw new HttpError(401, AUTH_MESSAGES.notAuthenticated);
    const body: User = {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      companyName: user.companyName,
      isAdmin: isAdmin(config, user),
      emailVerified: user.emailVerifiedAt !== null,
      createdAt: user.createdAt.toISOString(),
    };
    return body;
  });

  app.get('/api/verify-email', async (request) => {
    const { token, userId } = parse(VerifyEmailQuery, request.query);
    let outcome: 'failed' | 'verified' | 'email-changed';
    try {
      outcome = await prisma.$transaction(async (tx) => {
        const record = await tx.emailVerificationToken.findUnique({
          where: { tokenHash: hashToken(token) },
          include: { user: true },
        });
        if (!record || record.userId !== userId || record.usedAt || record.expiresAt.getTime() <= Date.now())
          return 'failed';
        // Conditional update: of two concurrent uses of one link, exactly one wins.
        const used = await tx.emailVerificationToken.updateMany({
          where: { id: record.id, usedAt: null },
          data: { usedAt: new Date() },
        });
        if (used.count !== 1) return 'failed';
        if (record.newEmail !== null) {
          // An email change: the address moves only now, once the link sent to it was opened.
          // Another account may have taken it since the request: refused (the transaction rolls back).
          const holder = await tx.user.findUnique({ where: { email: record.newEmail }, select: { id: true } });
          if (holder && holder.id !== record.userId) throw new HttpError(400, ACCOUNT_LINK_MESSAGES.emailTakenSince);
          await tx.user.update({
            where: { id: record.userId },
            data: { email: record.newEmail, emailVerifiedAt: record.user.emailVerifiedAt ?? new Date() },
          });
          // Links sent to the old address (verification or an earlier change) no longer apply.
          await tx.emailVerificationToken.deleteMany({ where: { userId: record.userId, usedAt: null } });
          if (!record.user.emailVerifiedAt) {
            await tx.outboxEvent.create({
              data: outboxEvent('user.email_verified', { userId: record.userId, email: record.newEmail }, request.id),
            });
          }
          return 'email-changed';
        }
        if (!record.user.emailVerifiedAt) {
          await tx.user.update({ where: { id: record.userId }, data: { emailVerifiedAt: new Date() } });
          await tx.outboxEvent.create({
            data: outboxEvent('user.email_verified', { userId: record.userId, email: record.user.email }, request.id),
          });
        }
        return 'verified';
      });
    } catch (error) {
      // The unique index on users.email settles a race with a registration taking the address.
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
        throw new HttpError(400, ACCOUNT_LINK_MESSAGES.emailTakenSince);
      throw error;
    }
    if (outcome === 'failed') throw new HttpError(400, AUTH_MESSAGES.verifyFailed);
    relay.kick();
    const body: VerifyEmailResponse =
      outcome === 'email-changed'
        ? { message: ACCOUNT_LINK_MESSAGES.emailChanged, redirectUrl: '/account' }
        : { message: AUTH_MESSAGES.verified };
    return body;
  });

  app.post('/api/resend-verification', async (request) => {
    const { email } = parse(ResendVerificationRequest, request.body);
    const sent = await prisma.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { email } });
      if (!user || user.emailVerifiedAt) return false;
      const latest = await tx.emailVerificationToken.findFirst({
        where: { userId: user.id, newEmail: null },
        orderBy: { createdAt: 'desc' },
      });
      if (latest && Date.now() - latest.createdAt.getTime() < config.RESEND_COOLDOWN_SECONDS * 1000) return false;
      await requestVerification(tx, user, request.id);
      return true;
    });
    if (sent) relay.kick();
    // The same answer whether or not the email is registered.
    return { message: AUTH_MESSAGES.resendAccepted };
  });

  accountRoutes(app, { config, prisma, relay, tokenSealer });

  /** Session lookup for the gateway only. */
  app.post('/internal/sessions/resolve', { preHandler: app.requireInternal }, async (request, reply) => {
    const body = request.body as { token?: unknown } | undefined;
    if (typeof body?.token !== 'string' || body.token.length > 200) throw new HttpError(400, 'token is required');
    const session = await sessions.resolve(body.token);
    if (!session) return reply.status(404).send({ message: 'No session' });
    return session;
  });
}
