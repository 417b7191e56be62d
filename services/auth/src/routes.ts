import { ACCOUNT_MESSAGES, AUTH_MESSAGES } from '@app/contracts';
import { fail, type HandlersOf } from '@app/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountUseCases } from './accounts.ts';
import type { AuthConfig } from './config.ts';
import { SESSION_COOKIE, type SessionUseCases } from './sessions.ts';
import type { VerificationUseCases } from './verification.ts';

export const EMAIL_CHANGED = 'Your email address has been changed';

/** The session cookie: httpOnly, same-site lax, Secure when the app is served over https (or forced). */
function sessionCookie(config: AuthConfig, maxAgeSeconds: number) {
  const secure = config.COOKIE_SECURE ? config.COOKIE_SECURE === 'true' : config.PUBLIC_URL.startsWith('https:');
  const options = { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;
  return {
    /** The token this browser already has, if any. */
    of: (request: FastifyRequest): string | undefined => request.cookies[SESSION_COOKIE],
    set: (reply: FastifyReply, token: string) =>
      reply.setCookie(SESSION_COOKIE, token, { ...options, maxAge: maxAgeSeconds }),
    clear: (reply: FastifyReply) => reply.clearCookie(SESSION_COOKIE, options),
  };
}

/** The auth service's operations (contracts: `authOperations`): input is parsed; call, set the cookie, reply. */
export function authRoutes(deps: {
  config: AuthConfig;
  accounts: AccountUseCases;
  sessions: SessionUseCases;
  verification: VerificationUseCases;
}): HandlersOf<'auth'> {
  const { accounts, sessions, verification } = deps;
  const cookie = sessionCookie(deps.config, sessions.maxAgeSeconds);
  return {
    register: async ({ body }) => {
      // The same answer (and no cookie) whether or not the address had an account.
      await accounts.register(body);
      return { message: AUTH_MESSAGES.registered, emailVerificationSent: true };
    },
    login: async ({ body, request, reply }) => {
      cookie.set(reply, await accounts.login(body, cookie.of(request)));
      return { message: AUTH_MESSAGES.loggedIn, emailVerificationSent: false };
    },
    logout: async ({ request, reply }) => {
      await sessions.logout(cookie.of(request));
      cookie.clear(reply);
      return { message: AUTH_MESSAGES.loggedOut };
    },
    getUser: ({ identity }) => accounts.currentUser(identity.userId),
    setIntent: ({ identity, body }) => accounts.setIntent(identity.userId, body.intent),
    verifyEmail: async ({ query, request, reply }) => {
      const opened = await verification.open(query, cookie.of(request));
      if (opened.outcome === 'email-changed') return { message: EMAIL_CHANGED, redirectUrl: '/account' };
      cookie.set(reply, opened.sessionToken);
      return { message: AUTH_MESSAGES.verified };
    },
    resendVerification: async ({ body }) => {
      await verification.resend(body.email);
      // The same answer whether or not the email is registered.
      return { message: AUTH_MESSAGES.resendAccepted };
    },
    changePassword: async ({ identity, body }) => {
      await accounts.changePassword(identity, body);
      return { message: ACCOUNT_MESSAGES.passwordChanged };
    },
    changeEmail: async ({ identity, body }) => {
      await accounts.changeEmail(identity, body);
      return { message: ACCOUNT_MESSAGES.emailChangeSent };
    },
    resolveSession: async ({ body }) => (await sessions.resolve(body.token)) ?? fail('SESSION_NOT_FOUND'),
  };
}
