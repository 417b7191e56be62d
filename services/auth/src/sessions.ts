import type { Identity } from '@app/kit';
import type { AuthConfig } from './config.ts';
import type { PrismaClient } from './generated/prisma/client.ts';
import { hashToken, newToken } from './tokens.ts';

export const SESSION_COOKIE = 'sid';

/** A verified user whose address is listed in ADMIN_EMAILS is an administrator. */
export const isAdmin = (config: AuthConfig, user: { email: string; emailVerifiedAt: Date | null }) =>
  user.emailVerifiedAt !== null && config.ADMIN_EMAILS.has(user.email);

export interface ResolvedSession {
  identity: Identity;
  /** When the session ends unless used again (idle) or at the latest (absolute), ISO time. */
  expiresAt: string;
}

export function sessionStore(prisma: PrismaClient, config: AuthConfig) {
  const idleMs = config.SESSION_IDLE_MINUTES * 60_000;
  const maxMs = config.SESSION_MAX_DAYS * 24 * 3600_000;

  return {
    maxAgeSeconds: Math.floor(maxMs / 1000),

    /** Starts a session and returns the cookie token (the only copy of it). */
    async create(userId: string, tx: Pick<PrismaClient, 'session'> = prisma): Promise<string> {
      const token = newToken();
      await tx.session.create({
        data: { userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + maxMs) },
      });
      return token;
    },

    /** The live session for a cookie token, sliding its idle expiry; null if none, idle or expired. */
    async resolve(token: string): Promise<ResolvedSession | null> {
      const session = await prisma.session.findUnique({
        where: { tokenHash: hashToken(token) },
        include: { user: true },
      });
      const now = Date.now();
      if (!session || session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + idleMs <= now) {
        if (session) await prisma.session.delete({ where: { id: session.id } }).catch(() => {});
        return null;
      }
      // Writing last_seen_at on every request would cost a write per call; a minute's precision is plenty.
      if (now - session.lastSeenAt.getTime() > 60_000) {
        await prisma.session.update({ where: { id: session.id }, data: { lastSeenAt: new Date(now) } });
      }
      const { user } = session;
      return {
        identity: {
          userId: user.id,
          sessionId: session.id,
          email: user.email,
          isAdmin: isAdmin(config, user),
          emailVerified: user.emailVerifiedAt !== null,
        },
        expiresAt: new Date(Math.min(session.expiresAt.getTime(), now + idleMs)).toISOString(),
      };
    },
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
