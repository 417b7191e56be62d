import { pipeline, type Readable } from 'node:stream';
import {
  ERRORS,
  operationList,
  routePath,
  SERVICE_BODY_LIMITS,
  type ErrorCode,
  type OperationSpec,
  type ServiceName,
} from '@app/contracts';
import {
  IDENTITY_HEADER,
  INTERNAL_AUTH_HEADER,
  REQUEST_ID_HEADER,
  requestTraceContext,
  traceHeaders,
  tracingEnabled,
} from '@app/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptedEncoding, compressible, compressor, varyWithEncoding } from './compression.ts';
import type { GatewayConfig } from './config.ts';
import type { FastRoute } from './fast-path.ts';
import { UpstreamUnavailableError, type SessionResolver } from './sessions.ts';
import { Upstream, UPSTREAM_ERRORS } from './upstream.ts';

declare module 'fastify' {
  interface FastifyRequest {
    identityHeader: string | null;
  }
}

export const SESSION_COOKIE = 'sid';

/** The error answer with its code: the same shape every service gives. */
export const sendError = (reply: FastifyReply, code: ErrorCode, message?: string) =>
  reply.status(ERRORS[code].status).send({ message: message ?? ERRORS[code].message, code });

/** How long the rest of a refused body is read and dropped, so the client can read the answer. */
const DRAIN_MS = 2000;

/**
 * Refusing a body the client may still be sending, with a lingering close (RFC 9112, 9.6): the answer says
 * `connection: close` and goes out, then only the gateway's side of the connection ends; the rest of the
 * body is read and dropped until it is all there (or DRAIN_MS passes), and only then is the connection closed.
 * Node's server closes it whole as soon as the answer is written (`socket.destroySoon`), and a connection
 * closed with the client's bytes unread is reset: the client's next write fails, and it may never read the
 * answer (the 413 that says why).
 */
export function refuseBody(reply: FastifyReply, code: ErrorCode) {
  if (reply.sent) return;
  const raw = reply.request.raw;
  const socket = raw.socket;
  if (!raw.complete && socket) {
    raw.resume();
    reply.header('connection', 'close');
    const close = () => socket.destroy();
    const timer = setTimeout(close, DRAIN_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.destroySoon = () => {
      socket.end();
      if (raw.complete) close();
      else raw.once('end', close);
    };
  }
  return sendError(reply, code);
}

/** Operations that wait on a language model (or on a service that does), which may legitimately be slow. */
export const MODEL_OPERATIONS: ReadonlySet<string> = new Set([
  'searchProducts',
  'smartMatch',
  'getReferralProgram',
  'analyzeProgramDocument',
]);

/** The body limit of an operation at the gateway: never more than its service accepts. */
export function bodyLimitOf(op: OperationSpec, config: GatewayConfig): { limit: number; tooLarge: ErrorCode } {
  if (op.bodyKind === 'upload') return { limit: config.UPLOAD_LIMIT_BYTES, tooLarge: 'DOCUMENT_TOO_LARGE' };
  const serviceLimit = SERVICE_BODY_LIMITS[op.service];
  return {
    limit: serviceLimit ? Math.min(serviceLimit, config.BODY_LIMIT_BYTES) : config.BODY_LIMIT_BYTES,
    tooLarge: 'BODY_TOO_LARGE',
  };
}

/** The service did not answer in time: undici's and reply-from's (Fastify's route), upstream.ts's (the fast path). */
const TIMED_OUT = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'FST_REPLY_FROM_TIMEOUT',
  UPSTREAM_ERRORS.headersTimeout,
  UPSTREAM_ERRORS.bodyTimeout,
]);

const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  // A service's Unix socket (`<NAME>_SOCKET`) with no file: the service is not running.
  'ENOENT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  UPSTREAM_ERRORS.connectTimeout,
  UPSTREAM_ERRORS.closed,
]);

/** What a failed upstream call becomes: a timeout is a 504, a service that is not there a 503. */
export function upstreamFailure(error: Error & { code?: string; cause?: unknown }): ErrorCode {
  const causes: Array<{ code?: string; statusCode?: number }> = [];
  for (let e: unknown = error; e && causes.length < 5; e = (e as { cause?: unknown }).cause) {
    causes.push(e as { code?: string; statusCode?: number });
  }
  const codes = causes.map((c) => c.code);
  if (codes.some((c) => c !== undefined && TIMED_OUT.has(c)) || causes[0]?.statusCode === 504) {
    return 'UPSTREAM_TIMEOUT';
  }
  // Nobody listening, or a connection the service dropped (killed, restarting): it is unavailable.
  if (codes.some((c) => c !== undefined && UNAVAILABLE.has(c))) return 'SERVICE_UNAVAILABLE';
  return 'BAD_GATEWAY';
}

/** The Unix socket each service also listens on, when set (`<NAME>_SOCKET`). */
export function upstreamSockets(config: GatewayConfig): Record<ServiceName, string | undefined> {
  return {
    auth: config.AUTH_SOCKET,
    referrals: config.REFERRALS_SOCKET,
    programs: config.PROGRAMS_SOCKET,
    profiles: config.PROFILES_SOCKET,
    ai: config.AI_SOCKET,
    mail: config.MAIL_SOCKET,
  };
}

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

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/** A Host header naming this machine: localhost, 127.0.0.1 or [::1], with any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return ['localhost', '127.0.0.1', '[::1]'].includes(name.toLowerCase());
}

/** The operations this gateway routes: never internal ones, the dev inbox only when enabled. */
const routedOperations = (config: GatewayConfig) =>
  operationList.filter((op) => op.access !== 'internal' && (op.access !== 'dev' || config.DEV_INBOX));

/** The methods the gateway routes for a concrete path (`/api/referrals/7`), for a 405's Allow header. */
export function methodsForPath(config: GatewayConfig): (path: string) => string[] {
  const routes = routedOperations(config).map((op) => ({
    method: op.method,
    pattern: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
  }));
  return (path) => [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))];
}

/** Whether the URL's %-escapes decode (well-formed and valid UTF-8). */
export function decodable(url: string): boolean {
  try {
    decodeURIComponent(url);
    return true;
  } catch {
    return false;
  }
}

/** What the gateway sends with its session lookup: the request id, and the trace context when traced. */
function lookupHeaders(request: FastifyRequest): Record<string, string> {
  const trace = tracingEnabled() ? traceHeaders(requestTraceContext(request)) : {};
  return { [REQUEST_ID_HEADER]: request.id, ...(trace as Record<string, string>) };
}

/**
 * Forwards each operation of the contract (`operations` in @app/contracts) to the service that owns it,
 * with the caller's identity resolved from the session cookie and signed for the service. Bodies pass
 * through as streams, unparsed. Access, rate limits, body limits and logout come from each operation's
 * definition; internal operations are never routed, and paths no operation names answer 404 here.
 */
export function proxyRoutes(app: FastifyInstance, config: GatewayConfig, sessions: SessionResolver): FastRoute[] {
  const targets = upstreams(config);
  const sockets = upstreamSockets(config);
  // The fast path's connections (upstream.ts), one keep-alive pool per service address (the same limits as
  // reply-from's), over the service's Unix socket when it has one.
  const pools = new Map<string, Upstream>();
  const poolFor = (service: ServiceName) => {
    const origin = new URL(targets[service]).origin;
    const socketPath = sockets[service];
    const key = socketPath ? `${origin} ${socketPath}` : origin;
    let pool = pools.get(key);
    if (!pool) {
      const { connections, keepAliveTimeout, connectTimeout } = upstreamPoolOptions(config);
      pool = new Upstream({
        origin,
        socketPath,
        connections,
        connectTimeoutMs: connectTimeout,
        keepAliveMs: keepAliveTimeout,
      });
      pools.set(key, pool);
    }
    return pool;
  };
  app.addHook('onClose', async () => {
    await Promise.all([...pools.values()].map((pool) => pool.close()));
  });
  const fastRoutes: FastRoute[] = [];
  app.decorateRequest('identityHeader', null);

  async function resolveIdentity(request: FastifyRequest, reply: FastifyReply) {
    const token = sessionToken(request.headers.cookie);
    if (!token) return;
    try {
      request.identityHeader = (await sessions.resolve(token, lookupHeaders(request))).header;
    } catch (error) {
      if (!(error instanceof UpstreamUnavailableError)) throw error;
      request.log.error({ err: error }, 'session lookup failed');
      return sendError(reply, 'SERVICE_UNAVAILABLE');
    }
  }

  // The development inbox shows every verification link: only to this machine, by its socket (not a
  // forwarded address) and its Host (so another site cannot reach it through a victim's browser).
  const devOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLoopback(request.socket.remoteAddress) || !isLoopbackHost(request.headers.host)) {
      return sendError(reply, 'NOT_FOUND');
    }
  };

  const requireUser = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.identityHeader) return sendError(reply, 'UNAUTHENTICATED');
  };

  const forward = (op: OperationSpec & { id: string }) => {
    const target = targets[op.service];
    const timeout = MODEL_OPERATIONS.has(op.id) ? config.UPSTREAM_MODEL_TIMEOUT_MS : config.UPSTREAM_TIMEOUT_MS;
    return (request: FastifyRequest, reply: FastifyReply) => {
      if (request.bodyRefusal) return refuseBody(reply, request.bodyRefusal);
      // reply-from decodes the URL and would throw (a 502): a bad %-escape or invalid UTF-8 is the caller's fault.
      if (!decodable(request.url)) return sendError(reply, 'VALIDATION_FAILED', 'Malformed URL encoding');
      return reply.from(target + request.url, {
        timeout,
        onError: (_reply, { error }) => {
          const code = request.bodyRefusal ?? upstreamFailure(error);
          if (code === request.bodyRefusal) return void refuseBody(reply, code);
          request.log.warn({ err: error, upstream: op.service }, 'upstream call failed');
          void sendError(reply, code);
        },
        rewriteRequestHeaders: (_req, headers) => {
          const out: Record<string, string | string[] | undefined> = { ...headers, [REQUEST_ID_HEADER]: request.id };
          if (tracingEnabled()) Object.assign(out, traceHeaders(requestTraceContext(request)));
          delete out[IDENTITY_HEADER];
          delete out[INTERNAL_AUTH_HEADER];
          if (request.identityHeader) out[IDENTITY_HEADER] = request.identityHeader;
          return out;
        },
        // The service's connection to the gateway is not the client's (hop-by-hop): Node frames its own.
        rewriteHeaders: (headers) => {
          const { connection: _connection, 'keep-alive': _keepAlive, ...forwarded } = headers;
          return forwarded;
        },
        onResponse: (req, _res, upstream) => {
          // Logging out here must take effect at once, not when the cache entry ages out.
          if (op.endsSession) {
            const token = sessionToken(req.headers.cookie);
            if (token) sessions.evictToken(token);
          }
          reply.send(compressedAnswer(request, reply, upstream.stream as Readable));
        },
      });
    };
  };

  const rateLimits = {
    credentials: { max: config.RATE_LIMIT_AUTH_MAX, timeWindow: config.RATE_LIMIT_WINDOW_MS },
  } as const;

  for (const op of routedOperations(config)) {
    const signedIn = op.access === 'user' || op.access === 'verified' || op.access === 'admin';
    const url = routePath(op.path);
    app.route({
      method: op.method,
      url,
      preHandler: op.access === 'dev' ? [devOnly] : signedIn ? [resolveIdentity, requireUser] : [resolveIdentity],
      config: { body: bodyLimitOf(op, config), ...(op.rateLimit ? { rateLimit: rateLimits[op.rateLimit] } : {}) },
      handler: forward(op),
    });
    if (op.method === 'GET' && op.access !== 'dev' && !op.rateLimit && !op.endsSession) {
      const timeoutMs = MODEL_OPERATIONS.has(op.id) ? config.UPSTREAM_MODEL_TIMEOUT_MS : config.UPSTREAM_TIMEOUT_MS;
      fastRoutes.push({ url, service: op.service, upstream: poolFor(op.service), timeoutMs, signedIn });
    }
  }
  return fastRoutes;
}

/**
 * The service's answer as the client is sent it: compressed when the client accepts it and it is worth it
 * (compression.ts, as on the fast path), the headers made to match; else the stream as it is.
 */
function compressedAnswer(request: FastifyRequest, reply: FastifyReply, body: Readable): Readable {
  const encoding = request.method === 'HEAD' ? null : acceptedEncoding(request.headers['accept-encoding']);
  if (!encoding) return body;
  const header = (name: string) => {
    const value = reply.getHeader(name);
    return value === undefined ? undefined : String(value);
  };
  const given = header('content-length');
  const length = given === undefined ? -1 : Number(given);
  const compress = compressible({
    status: reply.statusCode,
    contentType: header('content-type'),
    encoded: reply.hasHeader('content-encoding'),
    cacheControl: header('cache-control'),
    length,
  });
  if (!compress) return body;
  reply.removeHeader('content-length');
  reply.header('vary', varyWithEncoding(header('vary')));
  reply.header('content-encoding', encoding);
  // A service failing mid-body fails the compressor too: the client sees the connection end, never a short body.
  return pipeline(body, compressor(encoding, length), () => {});
}

/** Connections to the services: kept alive, one request at a time each; each route sets its own timeouts. */
export const upstreamPoolOptions = (config: GatewayConfig) => ({
  connections: 128,
  pipelining: 1,
  keepAliveTimeout: 30_000,
  // Each route sets its own (UPSTREAM_TIMEOUT_MS or UPSTREAM_MODEL_TIMEOUT_MS); these are the ceiling.
  headersTimeout: config.UPSTREAM_MODEL_TIMEOUT_MS,
  bodyTimeout: config.UPSTREAM_MODEL_TIMEOUT_MS,
  connectTimeout: Math.min(config.UPSTREAM_TIMEOUT_MS, 5000),
});
