import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { ERRORS, type ErrorCode, type ServiceName } from '@app/contracts';
import { IDENTITY_HEADER, INTERNAL_AUTH_HEADER, metrics, REQUEST_ID_HEADER, tracingEnabled } from '@app/kit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Dispatcher } from 'undici';
import { sessionToken } from './proxy.ts';
import type { SessionResolver } from './sessions.ts';

/** A route the fast path may answer: a GET forwarded as is, without rate limit, body or logout. */
export interface FastRoute {
  /** The Fastify route template (`/api/referrals/:id`): the metrics label, as Fastify gives it. */
  url: string;
  service: ServiceName;
  pool: Dispatcher;
  timeoutMs: number;
  signedIn: boolean;
}

/** Request headers the gateway never forwards as sent: it sets them itself, or undici owns them. */
const DROPPED = new Set(['host', 'connection', IDENTITY_HEADER, INTERNAL_AUTH_HEADER, REQUEST_ID_HEADER]);
/** Headers undici refuses on a request: such a request takes Fastify's path, which answers as it always did. */
const REFUSED = new Set(['keep-alive', 'upgrade', 'expect', 'transfer-encoding', 'te', 'proxy-connection']);
/** reply-from's rule, kept: a GET answered 503 is tried again, up to this many times. */
const MAX_RETRIES_ON_503 = 10;

export interface FastPathOptions {
  app: FastifyInstance;
  routes: FastRoute[];
  /** Every GET route of the app (Fastify templates), so a fast route is never taken where Fastify would pick another. */
  getRoutes: readonly string[];
  sessions: SessionResolver;
  /** Security headers and `cache-control: no-store`, set on every answer of an `/api/` route. */
  headers: Record<string, string>;
  requestId: (given: string | string[] | undefined) => string;
  trustProxy: boolean;
  /** Whether the URL's %-escapes decode. */
  decodable: (url: string) => boolean;
  /** What a failed upstream call answers (504, 503, 502). */
  failure: (error: Error) => ErrorCode;
}

/**
 * The hot path of the gateway, in front of Fastify: a GET on a forwarded route whose session is already
 * cached goes straight to the service over undici's `dispatch`, the answer written to the socket as it
 * comes, with the same headers, identity, request id, metrics and log lines Fastify's route gives it.
 * Anything else (another method, a body, an uncached or missing session, tracing on, a URL with escapes in
 * its path, the server closing) returns false and Fastify handles the request as before.
 * Profiles showed Fastify's request/reply objects, hooks and reply-from's stream plumbing costing a third of
 * the gateway's CPU per request (bench/README.md).
 */
export function fastPath(options: FastPathOptions) {
  const { app, routes, sessions, headers: answerHeaders } = options;
  // pino's (Fastify's logger); a disabled logger (`logger: false`) has no such method and logs nothing.
  const log = app.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Built once every route is registered; until then (never in practice: the app is ready before it listens)
  // Fastify answers everything.
  let match: ((path: string) => FastRoute | undefined) | undefined;
  app.addHook('onReady', async () => {
    match = routeMatcher(routes, options.getRoutes);
  });

  return function handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || closing || !match || tracingEnabled()) return false;
    const url = req.url!;
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    // Escapes and dot segments in the path are left to Fastify's router and reply-from's checks.
    if (path.includes('%') || path.includes('..') || !path.startsWith('/api/')) return false;
    if (query >= 0 && url.includes('%', query) && !options.decodable(url)) return false;
    const route = match(path);
    if (!route) return false;

    const incoming = req.headers;
    if (incoming['transfer-encoding'] !== undefined || (incoming['content-length'] ?? '0') !== '0') return false;
    let identity: string | null = null;
    const token = sessionToken(incoming.cookie);
    if (token) {
      const entry = sessions.cached(token);
      if (!entry) return false;
      identity = entry.header;
    }
    if (route.signedIn && !identity) return false;

    const connectionNamed = incoming.connection ? connectionHeaders(incoming.connection) : null;
    const upstreamHeaders: string[] = [];
    for (const name in incoming) {
      if (REFUSED.has(name)) return false;
      if (DROPPED.has(name) || connectionNamed?.includes(name)) continue;
      const value = incoming[name]!;
      if (typeof value === 'string') upstreamHeaders.push(name, value);
      else for (const one of value) upstreamHeaders.push(name, one);
    }

    const started = performance.now();
    const id = options.requestId(incoming[REQUEST_ID_HEADER]);
    upstreamHeaders.push(REQUEST_ID_HEADER, id);
    if (identity) upstreamHeaders.push(IDENTITY_HEADER, identity);
    const requestLog = log.isLevelEnabled?.('info') ? log.child({ reqId: id }) : null;
    requestLog?.info({ req: { method: 'GET', url, ip: clientAddress(req, options.trustProxy) } }, 'incoming request');

    res.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      metrics.httpRequests.observe(
        { service: 'gateway', method: 'GET', route: route.url, status_class: `${Math.floor(res.statusCode / 100)}xx` },
        seconds,
      );
      if (!res.writableFinished) abort?.(new Error('the client closed the connection before the answer ended'));
      requestLog?.info(
        { res: { statusCode: res.statusCode }, responseTime: seconds * 1000 },
        res.writableFinished ? 'request completed' : 'request aborted',
      );
    });

    const fail = (code: ErrorCode) => {
      const body = JSON.stringify({ message: ERRORS[code].message, code });
      res.writeHead(ERRORS[code].status, {
        ...answerHeaders,
        [REQUEST_ID_HEADER]: id,
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    };

    let abort: ((error: Error) => void) | undefined;
    let retries = 0;
    const run = () => {
      // The client left while a 503 was being retried: nothing more to ask.
      if (res.destroyed) return;
      let retryAfter: number | string | null = null;
      // An answer Node refuses to write (a status out of range): a 502, and the rest of it is dropped.
      let refused = false;
      route.pool.dispatch(
        {
          method: 'GET',
          path: url,
          headers: upstreamHeaders,
          headersTimeout: route.timeoutMs,
          bodyTimeout: route.timeoutMs,
        },
        {
          onConnect(abortRequest: (error: Error) => void) {
            abort = abortRequest;
          },
          onHeaders(status: number, raw: Buffer[], resume: () => void) {
            const out: Record<string, string | string[] | number> = { ...answerHeaders, [REQUEST_ID_HEADER]: id };
            for (let i = 0; i < raw.length; i += 2) {
              const name = raw[i]!.toString('latin1').toLowerCase();
              const value = raw[i + 1]!.toString('latin1');
              if (name === 'set-cookie') out[name] = [...((out[name] as string[] | undefined) ?? []), value];
              else out[name] = value;
            }
            if (status === 503 && retries < MAX_RETRIES_ON_503 && !res.destroyed) {
              retryAfter = (out['retry-after'] as string | undefined) ?? 42 * Math.random() * (retries + 1);
              return true;
            }
            try {
              res.writeHead(status, out);
            } catch {
              refused = true;
              fail('BAD_GATEWAY');
              return true;
            }
            res.on('drain', resume);
            return true;
          },
          onData(chunk: Buffer) {
            return retryAfter !== null || refused || res.write(chunk);
          },
          onComplete() {
            if (refused) return;
            if (retryAfter === null) return void res.end();
            retries++;
            setTimeout(run, retryAfter as number);
          },
          onError(error: Error) {
            if (res.destroyed || refused) return;
            if (res.headersSent) return void res.destroy(error);
            const code = options.failure(error);
            log.warn({ reqId: id, err: error, upstream: route.service }, 'upstream call failed');
            fail(code);
          },
        } as unknown as Dispatcher.DispatchHandler,
      );
    };
    run();
    return true;
  };
}

const PARAM = /^:\w+$/;
const segmentsOf = (url: string) => url.split('/');
/** A segment any value may fill in Fastify's router: a parameter, a wildcard, a regular expression. */
const open = (segment: string) => /[:*(]/.test(segment);

/**
 * Which fast route a concrete path names, with Fastify's answer: a route whose template could also match
 * another GET route of the app (a static `/api/x/export` beside `/api/x/:id`, a wildcard) is left to
 * Fastify's router altogether. Parameters match 1 to 100 characters other than `/` (find-my-way's
 * `maxParamLength`); a longer one is Fastify's 414.
 */
export function routeMatcher(routes: FastRoute[], getRoutes: readonly string[]) {
  const overlaps = (a: string, b: string) => {
    const [x, y] = [segmentsOf(a), segmentsOf(b)];
    if (b.includes('*')) return a.startsWith(b.slice(0, b.indexOf('*')).replace(/[^/]*$/, ''));
    return x.length === y.length && x.every((segment, i) => segment === y[i] || open(segment) || open(y[i]!));
  };
  const exact = new Map<string, FastRoute>();
  const patterns: Array<{ pattern: RegExp; route: FastRoute }> = [];
  for (const route of routes) {
    const segments = segmentsOf(route.url);
    if (segments.some((segment) => open(segment) && !PARAM.test(segment))) continue;
    if (getRoutes.some((other) => other !== route.url && overlaps(route.url, other))) continue;
    if (!segments.some(open)) {
      exact.set(route.url, route);
      continue;
    }
    const source = segments
      .map((segment) => (PARAM.test(segment) ? '[^/]{1,100}' : segment.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')))
      .join('/');
    patterns.push({ pattern: new RegExp(`^${source}$`), route });
  }
  return (path: string): FastRoute | undefined => {
    const found = exact.get(path);
    if (found) return found;
    for (const { pattern, route } of patterns) if (pattern.test(path)) return route;
    return undefined;
  };
}

/** The header names a Connection header lists (RFC 9110 7.6.1): hop-by-hop, never forwarded. */
export function connectionHeaders(value: string): string[] {
  return value
    .toLowerCase()
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

function clientAddress(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  return typeof forwarded === 'string' ? forwarded.split(',', 1)[0]!.trim() : req.socket.remoteAddress;
}
