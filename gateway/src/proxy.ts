import { apiOwners, apiRoutes, AUTH_MESSAGES, PROGRAM_MESSAGES, type ServiceName } from '@app/contracts';
import { IDENTITY_HEADER, INTERNAL_AUTH_HEADER, REQUEST_ID_HEADER } from '@app/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from './config.ts';
import { UpstreamUnavailableError, type SessionResolver } from './sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    identityHeader: string | null;
  }
}

export const SESSION_COOKIE = 'sid';
const RATE_LIMITED = new Set([
  '/api/login',
  '/api/register',
  '/api/resend-verification',
  '/api/demo-request',
  '/api/account/password',
  '/api/account/email',
]);
/** Routes that take documents rather than JSON, with their own body limit and message. */
const UPLOADS = new Set(['/api/analyze-referral-program']);
export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a minute and try again.';

export function upstreams(config: GatewayConfig): Record<ServiceName, string> {
  return {
    auth: config.AUTH_URL,
    referrals: config.REFERRALS_URL,
    programs: config.PROGRAMS_URL,
    profiles: config.PROFILES_URL,
    ai: config.AI_URL,
    mail: config.MAIL_URL,
  };
}

/** The session token from the Cookie header (the only cookie the gateway reads). */
export function sessionToken(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const cookie = part.trimStart();
    if (cookie.startsWith(`${SESSION_COOKIE}=`)) return cookie.slice(SESSION_COOKIE.length + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * Forwards each `/api` path to the service that owns it, with the caller's identity resolved from the
 * session cookie and signed for the service. Bodies pass through as streams, unparsed.
 */
export function proxyRoutes(app: FastifyInstance, config: GatewayConfig, sessions: SessionResolver) {
  const targets = upstreams(config);

  app.decorateRequest('identityHeader', null);

  async function resolveIdentity(request: FastifyRequest, reply: FastifyReply) {
    const token = sessionToken(request.headers.cookie);
    if (!token) return;
    try {
      request.identityHeader = (await sessions.resolve(token)).header;
    } catch (error) {
      if (!(error instanceof UpstreamUnavailableError)) throw error;
      request.log.error({ err: error }, 'session lookup failed');
      return reply.status(503).send({ message: 'Service temporarily unavailable. Please try again.' });
    }
  }

  const forward =
    (service: ServiceName, upload = false) =>
    (request: FastifyRequest, reply: FastifyReply) => {
      const length = Number(request.headers['content-length'] ?? 0);
      if (upload ? length > config.UPLOAD_LIMIT_BYTES : length > config.BODY_LIMIT_BYTES) {
        return reply.status(413).send({ message: upload ? PROGRAM_MESSAGES.tooLarge : 'Request body is too large' });
      }
      return reply.from(targets[service] + request.url, {
        rewriteRequestHeaders: (_req, headers) => {
          const out: Record<string, string | string[] | undefined> = { ...headers, [REQUEST_ID_HEADER]: request.id };
          delete out[IDENTITY_HEADER];
          delete out[INTERNAL_AUTH_HEADER];
          if (request.identityHeader) out[IDENTITY_HEADER] = request.identityHeader;
          return out;
        },
        onResponse: (req, res, upstream) => {
          // Logging out here must take effect at once, not when the cache entry ages out.
          if (req.url === '/api/logout') {
            const token = sessionToken(req.headers.cookie);
            if (token) sessions.evictToken(token);
          }
          res.send(upstream.stream);
        },
      });
    };

  const requireUser = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.identityHeader) return reply.status(401).send({ message: AUTH_MESSAGES.notAuthenticated });
  };

  const explicit = new Set<string>();
  for (const route of apiRoutes) {
    const url = route.path.replace(/\{(\w+)\}/g, ':$1');
    explicit.add(`${route.method} ${url}`);
    app.route({
      method: route.method,
      url,
      preHandler: route.auth === 'required' ? [resolveIdentity, requireUser] : [resolveIdentity],
      config: RATE_LIMITED.has(route.path)
        ? { rateLimit: { max: config.RATE_LIMIT_AUTH_MAX, timeWindow: config.RATE_LIMIT_WINDOW_MS } }
        : {},
      handler: forward(route.service, UPLOADS.has(route.path)),
    });
  }

  // Everything else under an owner's prefix goes to that owner, which answers what it knows.
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
  for (const { prefix, service } of apiOwners) {
    for (const url of [prefix, `${prefix}/*`]) {
      const free = methods.filter((method) => !explicit.has(`${method} ${url}`));
      app.route({ method: [...free], url, preHandler: resolveIdentity, handler: forward(service) });
    }
  }

  if (config.DEV_INBOX) {
    for (const url of ['/dev/inbox', '/dev/inbox/*']) app.get(url, forward('mail'));
  }
}
