import type { ResolvedSession } from '@app/contracts';
import type { Emit, TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import type { AuthConfig } from './config.ts';
import type { Tx } from './db.ts';
import { createSession, deleteSession, findSession, findSessionWithUser, touchSession } from './repository.ts';
import { hashToken, newToken } from './tokens.ts';

export const SESSION_COOKIE = 'sid';

/** A verified user whose address is listed in ADMIN_EMAILS is an administrator. */
export const isAdmin = (config: AuthConfig, user: { email: string; emailVerifiedAt: Date | null }) =>
  user.emailVerifiedAt !== null && config.ADMIN_EMAILS.has(user.email);

/** Writing last_seen_at on every request would cost a write per call; a minute's precision is plenty. */
const TOUCH_EVERY_MS = 60_000;

/** Server-side sessions: the cookie holds a random token, the database only its hash. */
export function sessionUseCases(deps: { db: Tx; transaction: TransactionRunner<Tx>; config: AuthConfig }) {
  const { db, transaction, config } = deps;
  const idleMs = config.SESSION_IDLE_MINUTES * 60_000;
  const maxMs = config.SESSION_MAX_DAYS * 24 * 3600_000;

  /** Ends the session a cookie token points at, if any, and announces it (gateways evict it at once). */
  async function endByToken(tx: Tx, emit: Emit, token: string | undefined): Promise<void> {
    if (!token) return;
    const session = await findSession(tx, hashToken(token));
    if (!session) return;
    await deleteSession(tx, session.id);
    emit('session.ended', { sessionId: session.id });
  }

  return {
    /** How long the cookie lives: the absolute expiry. */
    maxAgeSeconds: Math.floor(maxMs / 1000),

    /** Starts a session in the caller's transaction and answers the cookie token (the only copy of it). */
    async start(tx: Tx, userId: string): Promise<string> {
      const token = newToken();
      await createSession(tx, { userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + maxMs) });
      return token;
    },

    endByToken,

    /** Logout: the browser's session ends (nothing happens without one). */
    logout: (token: string | undefined) => transaction((tx, emit) => endByToken(tx, emit, token)),

    /** The live session for a cookie token, sliding its idle expiry; null if none, idle or expired. */
    async resolve(token: string): Promise<z.input<typeof ResolvedSession> | null> {
      const session = await findSessionWithUser(db, hashToken(token));
      const now = Date.now();
      if (!session || session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + idleMs <= now) {
        if (session) await deleteSession(db, session.id).catch(() => {});
        return null;
      }
      if (now - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await touchSession(db, session.id, new Date(now));
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

export type SessionUseCases = ReturnType<typeof sessionUseCases>;
