import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Transform } from 'node:stream';
import { ERRORS, type ErrorCode, type ServiceName } from '@app/contracts';
import { IDENTITY_HEADER, INTERNAL_AUTH_HEADER, metrics, REQUEST_ID_HEADER, tracingEnabled } from '@app/kit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { acceptedEncoding, compressible, compressor, varyWithEncoding, type Encoding } from './compression.ts';
import { connectionHeaders } from './http-syntax.ts';
import { sessionToken } from './proxy.ts';
import type { SessionResolver } from './sessions.ts';
import { keptChunk, type Upstream, type UpstreamHandler } from './upstream.ts';

/** A route the fast path may answer: a GET forwarded as is, without rate limit, body or logout. */
export interface FastRoute {
  /** The Fastify route template (`/api/referrals/:id`): the metrics label, as Fastify gives it. */
  url: string;
  service: ServiceName;
  upstream: Upstream;
  timeoutMs: number;
  signedIn: boolean;
}

/** Request headers the gateway never forwards as sent: it sets them itself, or the connection owns them. */
const DROPPED = new Set(['host', 'connection', IDENTITY_HEADER, INTERNAL_AUTH_HEADER, REQUEST_ID_HEADER]);
/** Headers that would change how the request travels: such a request takes Fastify's path, as it always did. */
const REFUSED = new Set(['keep-alive', 'upgrade', 'expect', 'transfer-encoding', 'te', 'proxy-connection']);
/** reply-from's rule, kept: a GET answered 503 is tried again, up to this many times. */
const MAX_RETRIES_ON_503 = 10;

export interface FastPathOptions {
  app: FastifyInstance;
  routes: FastRoute[];
  /** Every GET route of the app (Fastify templates), so a fast route is never taken where Fastify would pick another. */
  getRoutes: readonly string[];
  sessions: SessionResolver;
  /** The API answers' security headers, set on every answer (then the request id and `cache-control: no-store`). */
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
 * cached goes straight to the service over a kept-alive connection (upstream.ts), the answer written to the
 * socket as it comes, with the same headers, identity, request id, metrics and log lines Fastify's route gives.
 * Anything else (another method, a body, an uncached or missing session, tracing on, a URL with escapes in
 * its path, the server closing) returns false and Fastify handles the request as before.
 * Profiles showed Fastify's request/reply objects, hooks and reply-from's stream plumbing costing a third of
 * the gateway's CPU per request (bench/README.md).
 */
export function fastPath(options: FastPathOptions) {
  const { app, routes, sessions } = options;
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
  const shared: Shared = { log, failure: options.failure, head: answerHead(options.headers), labels: new Map() };

  /**
   * The exchange for a request, or null when it is not the fast path's (Fastify's then). `url` and the
   * headers as Node's parser gives them (names in lower case, values as sent). With `lookups`, a request that
   * is the fast path's but for its session not being cached yet gets the session's lookup to wait for
   * (`SessionWait`; then ask again) instead of null: a raw connection (front.ts) need not be handed over to
   * Node's server because its first request came as the session's cache entry aged out.
   */
  function prepare(
    method: string,
    url: string,
    incoming: IncomingHttpHeaders,
    socket: Socket,
    lookups = false,
  ): Exchange | SessionWait | null {
    if (method !== 'GET' || closing || !match || tracingEnabled()) return null;
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    // Escapes and dot segments in the path are left to Fastify's router and reply-from's checks.
    if (path.includes('%') || path.includes('..') || !path.startsWith('/api/')) return null;
    if (query >= 0 && url.includes('%', query) && !options.decodable(url)) return null;
    const route = match(path);
    if (!route) return null;

    if (incoming['transfer-encoding'] !== undefined || (incoming['content-length'] ?? '0') !== '0') return null;
    let identity: string | null = null;
    const token = sessionToken(incoming.cookie);
    if (token) {
      const entry = sessions.cached(token);
      if (!entry) return lookups ? { wait: sessions.resolve(token) } : null;
      identity = entry.header;
    }
    if (route.signedIn && !identity) return null;

    const connectionNamed = incoming.connection ? connectionHeaders(incoming.connection) : null;
    const upstreamHeaders: string[] = [];
    for (const name in incoming) {
      if (REFUSED.has(name)) return null;
      if (DROPPED.has(name) || connectionNamed?.includes(name)) continue;
      const value = incoming[name]!;
      if (typeof value === 'string') upstreamHeaders.push(name, value);
      else for (const one of value) upstreamHeaders.push(name, one);
    }

    const id = options.requestId(incoming[REQUEST_ID_HEADER]);
    upstreamHeaders.push(REQUEST_ID_HEADER, id);
    if (identity) upstreamHeaders.push(IDENTITY_HEADER, identity);
    const requestLog = log.isLevelEnabled?.('info') ? log.child({ reqId: id }) : null;
    requestLog?.info(
      { req: { method: 'GET', url, ip: clientAddress(incoming, socket, options.trustProxy) } },
      'incoming request',
    );
    const encoding = acceptedEncoding(incoming['accept-encoding']);
    return new Exchange(shared, route, url, upstreamHeaders, id, requestLog, encoding);
  }

  return {
    prepare,
    /** A request Node's HTTP server parsed (a connection front.ts handed over): answered here, or false. */
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      const exchange = prepare(req.method!, req.url!, req.headers, req.socket) as Exchange | null;
      if (!exchange) return false;
      exchange.start(res);
      return true;
    },
  };
}

/** A request the fast path takes once its session is looked up: ask again when `wait` settles. */
export interface SessionWait {
  wait: Promise<unknown>;
}

/**
 * Where an exchange writes its answer: Node's `ServerResponse`, or a raw connection's answer (front.ts),
 * which has just these members.
 */
export interface Answer {
  readonly statusCode: number;
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  readonly writableFinished: boolean;
  writeHead(status: number, headers: Array<string | number>): unknown;
  write(chunk: Buffer): boolean;
  end(chunk?: Buffer | string): unknown;
  destroy(error?: Error): unknown;
  on(event: 'drain', listener: () => void): unknown;
  once(event: 'close', listener: () => void): unknown;
  /** Whether everything written so far has left for the kernel (no chunk given is still held). */
  flushed?(): boolean;
}

export type FastPath = ReturnType<typeof fastPath>;

/** What every exchange of one gateway shares. */
interface Shared {
  log: FastifyBaseLogger;
  failure: (error: Error) => ErrorCode;
  head: AnswerHead;
  /** The metrics labels per route and status class (1xx-5xx), built on first use. */
  labels: Map<FastRoute, Array<Record<string, string>>>;
}

/**
 * The headers every answer starts with, in the order Fastify's `onRequest` hook sets them (app.ts), as a
 * flat `[name, value, ...]` list for `writeHead`: the security headers, the request id's slot and
 * `cache-control: no-store`. `index` names where each sits, so an upstream header of the same name takes its
 * place, as it does in Fastify's reply.
 */
interface AnswerHead {
  list: Array<string | number>;
  index: Map<string, number>;
  requestIdAt: number;
}

function answerHead(security: Record<string, string>): AnswerHead {
  const list: Array<string | number> = Object.entries(security).flat();
  list.push(REQUEST_ID_HEADER, '', 'cache-control', 'no-store');
  const index = new Map<string, number>();
  for (let i = 0; i < list.length; i += 2) index.set(list[i] as string, i);
  return { list, index, requestIdAt: index.get(REQUEST_ID_HEADER)! + 1 };
}

/**
 * One forwarded request, and the upstream call's handler for it: the answer is written to the client as it
 * comes (status and headers at once, then the body with back-pressure), a 503 is asked again as
 * reply-from would. One object per request, its methods on the prototype: the profile's allocations per
 * request (bench/README.md) were in good part the closures and header objects of this path.
 */
class Exchange implements UpstreamHandler {
  private readonly shared: Shared;
  private readonly route: FastRoute;
  private res!: Answer;
  private readonly url: string;
  private readonly headers: string[];
  private readonly id: string;
  private readonly requestLog: FastifyBaseLogger | null;
  private readonly started = performance.now();
  private abort: ((error: Error) => void) | undefined;
  private retries = 0;
  private retryAfter: number | string | null = null;
  /** An answer Node refuses to write (a status out of range): a 502, and the rest of it is dropped. */
  private refused = false;
  /** Body bytes still to come by the upstream's `content-length` (-1: not given, or the answer is compressed). */
  private remaining = -1;
  /** What the client accepts (compression.ts), and the answer's type and whether the service encoded it. */
  private readonly encoding: Encoding | null;
  private contentType: string | undefined;
  private cacheControl: string | undefined;
  private encoded = false;
  /** The answer's compressor, when it is compressed: the body goes through it to the client. */
  private compressing: Transform | null = null;

  constructor(
    shared: Shared,
    route: FastRoute,
    url: string,
    headers: string[],
    id: string,
    requestLog: FastifyBaseLogger | null,
    encoding: Encoding | null,
  ) {
    this.shared = shared;
    this.encoding = encoding;
    this.route = route;
    this.url = url;
    this.headers = headers;
    this.id = id;
    this.requestLog = requestLog;
  }

  /** Forwards the request; the answer goes to `res`. */
  start(res: Answer) {
    this.res = res;
    res.once('close', () => this.closed());
    this.run();
  }

  private run() {
    // The client left while a 503 was being retried: nothing more to ask.
    if (this.res.destroyed) return;
    this.retryAfter = null;
    this.refused = false;
    this.remaining = -1;
    this.contentType = undefined;
    this.cacheControl = undefined;
    this.encoded = false;
    this.route.upstream.dispatch({ path: this.url, headers: this.headers, timeoutMs: this.route.timeoutMs }, this);
  }

  private closed() {
    const res = this.res;
    const seconds = (performance.now() - this.started) / 1000;
    metrics.httpRequests.observe(this.labels(res.statusCode), seconds);
    if (!res.writableFinished) {
      this.abort?.(new Error('the client closed the connection before the answer ended'));
      this.compressing?.destroy();
    }
    this.requestLog?.info(
      { res: { statusCode: res.statusCode }, responseTime: seconds * 1000 },
      res.writableFinished ? 'request completed' : 'request aborted',
    );
  }

  private labels(status: number) {
    const { labels } = this.shared;
    let byClass = labels.get(this.route);
    if (!byClass) labels.set(this.route, (byClass = []));
    const statusClass = Math.floor(status / 100);
    return (byClass[statusClass] ??= {
      service: 'gateway',
      method: 'GET',
      route: this.route.url,
      status_class: `${statusClass}xx`,
    });
  }

  /** The answer's headers: the gateway's, then the upstream's (a name already there takes its place). */
  private head(raw: string[]) {
    const { head } = this.shared;
    const out = head.list.slice();
    out[head.requestIdAt] = this.id;
    const own = out.length;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      const value = raw[i + 1]!;
      // The service's connection to the gateway is not the client's (hop-by-hop): the server frames its own.
      if (name === 'connection' || name === 'keep-alive') continue;
      if (name === 'content-length') this.remaining = Number(value);
      else if (name === 'content-type') this.contentType = value;
      else if (name === 'content-encoding') this.encoded = true;
      else if (name === 'cache-control') this.cacheControl = value;
      let at = head.index.get(name) ?? -1;
      for (let j = own; at < 0 && j < out.length; j += 2) if (out[j] === name) at = j;
      if (at < 0) out.push(name, value);
      else if (name !== 'set-cookie') out[at + 1] = value;
      else {
        // Every Set-Cookie, together where the first one was.
        while (out[at + 2] === name) at += 2;
        out.splice(at + 2, 0, name, value);
      }
    }
    return out;
  }

  private fail(code: ErrorCode) {
    const body = JSON.stringify({ message: ERRORS[code].message, code });
    const out = this.shared.head.list.slice();
    out[this.shared.head.requestIdAt] = this.id;
    out.push('content-type', 'application/json; charset=utf-8', 'content-length', Buffer.byteLength(body));
    this.res.writeHead(ERRORS[code].status, out);
    this.res.end(body);
  }

  onConnect(abort: (error: Error) => void) {
    this.abort = abort;
  }

  onHeaders(status: number, raw: string[], resume: () => void) {
    const res = this.res;
    const out = this.head(raw);
    if (status === 503 && this.retries < MAX_RETRIES_ON_503 && !res.destroyed) {
      let given: string | undefined;
      for (let i = 0; i < out.length; i += 2) if (out[i] === 'retry-after') given = out[i + 1] as string;
      this.retryAfter = given ?? 42 * Math.random() * (this.retries + 1);
      return true;
    }
    const { contentType, encoded, cacheControl, remaining: length } = this;
    const compress = this.encoding && compressible({ status, contentType, encoded, cacheControl, length });
    const encoding = compress ? this.encoding : null;
    if (encoding) compressedHead(out, encoding);
    try {
      res.writeHead(status, out);
    } catch {
      this.refused = true;
      this.fail('BAD_GATEWAY');
      return true;
    }
    if (!encoding) {
      res.on('drain', resume);
      return true;
    }
    // The body through the compressor: back-pressure from the client through it to the service.
    const compressing = compressor(encoding, this.remaining);
    this.compressing = compressing;
    this.remaining = -1;
    compressing.on('drain', resume);
    compressing.on('error', (error) => res.destroy(error));
    compressing.on('data', (chunk: Buffer) => {
      if (!res.write(chunk)) compressing.pause();
    });
    res.on('drain', () => compressing.resume());
    compressing.on('end', () => res.end());
    return true;
  }

  /** A body chunk: a view of the connection's read buffer, kept past this call only by saying so (upstream.ts). */
  onData(chunk: Buffer) {
    if (this.retryAfter !== null || this.refused) return true;
    if (this.compressing) {
      keptChunk(); // the compressor works on it later
      return this.compressing.write(chunk);
    }
    // The body's last bytes (by its content-length) end the answer at once: one write, no back-pressure left.
    let flowing = true;
    if (chunk.length === this.remaining) this.res.end(chunk);
    else {
      if (this.remaining > 0) this.remaining -= chunk.length;
      flowing = this.res.write(chunk);
    }
    // Node's ServerResponse may hold it (no `flushed`); a raw answer says whether its socket took it all.
    if (!this.res.flushed?.()) keptChunk();
    return flowing;
  }

  onComplete() {
    if (this.refused) return;
    if (this.retryAfter === null) {
      if (this.compressing) this.compressing.end();
      else if (!this.res.writableEnded) this.res.end();
      return;
    }
    this.retries++;
    setTimeout(() => this.run(), this.retryAfter as number);
  }

  onError(error: Error) {
    const res = this.res;
    if (res.destroyed || this.refused) return;
    if (res.headersSent) {
      // Never a cut answer passed off as whole: the compressor is not ended, the connection is.
      this.compressing?.destroy();
      return void res.destroy(error);
    }
    const code = this.shared.failure(error);
    this.shared.log.warn({ reqId: this.id, err: error, upstream: this.route.service }, 'upstream call failed');
    this.fail(code);
  }
}

/** An answer's headers made those of its compressed form: no content-length, the encoding, Vary. */
function compressedHead(out: Array<string | number>, encoding: Encoding) {
  for (let i = out.length - 2; i >= 0; i -= 2) if (out[i] === 'content-length') out.splice(i, 2);
  let vary = -1;
  for (let i = 0; i < out.length && vary < 0; i += 2) if (out[i] === 'vary') vary = i;
  if (vary < 0) out.push('vary', varyWithEncoding(undefined));
  else out[vary + 1] = varyWithEncoding(out[vary + 1] as string);
  out.push('content-encoding', encoding);
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

/**
 * The client's address as Fastify's route logs it (app.ts's `trustProxy`): behind the one proxy trusted, the
 * last X-Forwarded-For entry (the one that proxy appended; the earlier ones are the client's own words).
 */
export function clientAddress(
  headers: IncomingHttpHeaders,
  socket: { remoteAddress?: string | undefined },
  trustProxy: boolean,
): string | undefined {
  const forwarded = trustProxy ? headers['x-forwarded-for'] : undefined;
  return typeof forwarded === 'string' ? forwarded.slice(forwarded.lastIndexOf(',') + 1).trim() : socket.remoteAddress;
}
