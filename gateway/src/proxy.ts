import { ERRORS, operationList, routePath, type ErrorCode, type OperationSpec, type ServiceName } from '@app/contracts';
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

/** The error answer with its code: the same shape every service gives. */
export const sendError = (reply: FastifyReply, code: ErrorCode, message?: string) =>
  reply.status(ERRORS[code].status).send({ message: message ?? ERRORS[code].message, code });

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
    if (!cookie.startsWith(`${SESSION_COOKIE}=`)) continue;
    // Ours are base64url; anything else (odd bytes, a megabyte) names no session and never reaches auth.
    const token = cookie.slice(SESSION_COOKIE.length + 1).trim();
    return /^[\w-]{1,200}$/.test(token) ? token : undefined;
  }
  return undefined;
}

/** Whether the URL's %-escapes decode (well-formed and valid UTF-8). */
function decodable(url: string): boolean {
  try {
    decodeURIComponent(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * Forwards each operation of the contract (`operations` in @app/contracts) to the service that owns it,
 * with the caller's identity resolved from the session cookie and signed for the service. Bodies pass
 * through as streams, unparsed. Access, rate limits, body limits and logout come from each operation's
 * definition; internal operations are never routed, and paths no operation names answer 404 here.
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
      return sendError(reply, 'SERVICE_UNAVAILABLE');
    }
  }

  const requireUser = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.identityHeader) return sendError(reply, 'UNAUTHENTICATED');
  };

  const forward = (op: OperationSpec) => {
    const upload = op.bodyKind === 'upload';
    const limit = upload ? config.UPLOAD_LIMIT_BYTES : config.BODY_LIMIT_BYTES;
    const target = targets[op.service];
    return (request: FastifyRequest, reply: FastifyReply) => {
      if (Number(request.headers['content-length'] ?? 0) > limit) {
        return sendError(reply, upload ? 'DOCUMENT_TOO_LARGE' : 'BODY_TOO_LARGE');
      }
      // reply-from decodes the URL and would throw (a 502): a bad %-escape or invalid UTF-8 is the caller's fault.
      if (!decodable(request.url)) return sendError(reply, 'VALIDATION_FAILED', 'Malformed URL encoding');
      return reply.from(target + request.url, {
        rewriteRequestHeaders: (_req, headers) => {
          const out: Record<string, string | string[] | undefined> = { ...headers, [REQUEST_ID_HEADER]: request.id };
          delete out[IDENTITY_HEADER];
          delete out[INTERNAL_AUTH_HEADER];
          if (request.identityHeader) out[IDENTITY_HEADER] = request.identityHeader;
          return out;
        },
        onResponse: (req, res, upstream) => {
          // Logging out here must take effect at once, not when the cache entry ages out.
          if (op.endsSession) {
            const token = sessionToken(req.headers.cookie);
            if (token) sessions.evictToken(token);
          }
          res.send(upstream.stream);
        },
      });
    };
  };

  const rateLimits = {
    credentials: { max: config.RATE_LIMIT_AUTH_MAX, timeWindow: config.RATE_LIMIT_WINDOW_MS },
  } as const;

  for (const op of operationList) {
    if (op.access === 'internal' || (op.access === 'dev' && !config.DEV_INBOX)) continue;
    const signedIn = op.access === 'user' || op.access === 'verified' || op.access === 'admin';
    app.route({
      method: op.method,
      url: routePath(op.path),
      preHandler: signedIn ? [resolveIdentity, requireUser] : [resolveIdentity],
      config: op.rateLimit ? { rateLimit: rateLimits[op.rateLimit] } : {},
      handler: forward(op),
    });
  }
}
