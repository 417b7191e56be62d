import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import replyFrom from '@fastify/reply-from';
import fastifyStatic from '@fastify/static';
import { ERRORS, type ErrorCode } from '@app/contracts';
import {
  codeForStatus,
  httpMetrics,
  loggerOptions,
  REQUEST_ID_HEADER,
  traceRequests,
  type Counter,
  type EventBus,
} from '@app/kit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { GatewayConfig } from './config.ts';
import { openApiRoutes } from './openapi.ts';
import { BodyRefusedError, countedBody } from './body.ts';
import { fastPath, type FastPath } from './fast-path.ts';
import { rawFront, type RawFront } from './front.ts';
import {
  decodable,
  methodsForPath,
  proxyRoutes,
  refuseBody,
  sendError,
  upstreamFailure,
  upstreamPoolOptions,
} from './proxy.ts';
import { memoryCounter, rateLimitStore } from './rate-limits.ts';
import { csrfGuard, securityHeaders } from './security.ts';
import { SessionResolver } from './sessions.ts';
import { healthRoutes } from './status.ts';

const requestIdPattern = /^[\w.:-]{1,128}$/;

/** proxy-addr's trust function: the socket's peer (hop 0) is the proxy; what it was told is not trusted. */
const trustOnlyPeer = (_address: string, hop: number) => hop === 0;

/** The caller's x-request-id when it is a sane one, else a fresh one. */
const requestId = (given: string | string[] | undefined) =>
  typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();

/** Paths a misconfigured scraper could try on the public port: a JSON 404, never the web app's page. */
const OPERATIONAL_PATHS = new Set(['/metrics']);

/** What Node's http parser refuses (address or headers over its limits, malformed requests), as JSON. */
function clientError(error: Error & { code?: string }, socket: Duplex) {
  if (!socket.writable) return void socket.destroy();
  const code: ErrorCode =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'HEADERS_TOO_LARGE'
      : error.code === 'HPE_URI_TOO_LONG' // not raised by llhttp today; kept should it ever be
        ? 'URI_TOO_LONG'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'BODY_TIMEOUT'
          : 'VALIDATION_FAILED';
  const body = JSON.stringify({ message: code === 'VALIDATION_FAILED' ? 'Bad request' : ERRORS[code].message, code });
  socket.end(
    `HTTP/1.1 ${ERRORS[code].status} ${STATUS_CODES[ERRORS[code].status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The only thing the browser talks to: the built web app, `/api` forwarded to the owning service with
 * the caller's identity, OpenAPI docs, and the protections (headers, CSRF, rate limits, limits).
 */
export async function buildGateway(options: {
  config: GatewayConfig;
  /** Hears `session.ended` and `user.email_verified`, so this gateway's session cache is never stale. */
  bus?: EventBus;
  logger?: FastifyServerOptions['logger'] | false;
  /**
   * Where rate-limit counts live: NATS KV shared by every replica (the gateway's own process), else this
   * process's memory (`npm start`, one gateway).
   */
  rateLimits?: Counter;
}): Promise<FastifyInstance> {
  const { config } = options;
  const fast: { path?: FastPath; front?: RawFront } = {};
  const app = Fastify({
    logger: options.logger === undefined ? loggerOptions('gateway', config.LOG_LEVEL) : options.logger,
    // One proxy in front, our peer: the client is the address it appended, the LAST X-Forwarded-For entry.
    // `true` would take the first, which the client writes itself: a new address per attempt, a new rate
    // limit. (Fastify's hop count, `1`, trusts nothing at all.)
    trustProxy: config.TRUST_PROXY ? trustOnlyPeer : false,
    bodyLimit: config.BODY_LIMIT_BYTES,
    // Client-facing timeouts outlast every upstream one (config checks it): a hung service gets a JSON 504.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    connectionTimeout: config.REQUEST_TIMEOUT_MS,
    // Node's http parser refusals (address or headers too long, bad requests) answer JSON too.
    clientErrorHandler: clientError,
    // The router's refusals (a path parameter over maxParamLength, a malformed URL) in the one shape.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode ?? 400;
      return sendError(reply, status === 414 ? 'URI_TOO_LONG' : codeForStatus(status));
    },
    requestIdHeader: false,
    genReqId: (req) => requestId(req.headers[REQUEST_ID_HEADER]),
    return503OnClosing: true,
    // The fast path (fast-path.ts) answers what it can before Fastify sees the request; the rest is Fastify's.
    serverFactory: (handler, opts) => {
      const server = createServer((req, res) => {
        if (!fast.path?.handle(req, res)) handler(req, res);
      });
      // What Fastify sets on the server it would have made.
      server.keepAliveTimeout = opts.keepAliveTimeout as number;
      server.requestTimeout = opts.requestTimeout as number;
      server.setTimeout(opts.connectionTimeout as number);
      // Connections read by hand until a request is not the fast path's (front.ts).
      if (config.RAW_CONNECTIONS) {
        fast.front = rawFront(server, {
          take: (url, headers, socket) => fast.path?.prepare('GET', url, headers, socket, true) ?? null,
          keepAliveTimeoutMs: opts.keepAliveTimeout as number,
          timeoutMs: opts.connectionTimeout as number,
        });
      }
      return server;
    },
  });
  app.addHook('preClose', async () => fast.front?.close());

  // Every GET route, for the fast path's matcher (registered from here on, plugins' routes included).
  const getRoutes: string[] = [];
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().includes('GET')) getRoutes.push(route.url);
  });

  httpMetrics(app, 'gateway');
  // A SERVER span per request (child of the browser's traceparent, if any) when tracing is on.
  traceRequests(app, 'gateway');

  const headers = securityHeaders(config);
  app.addHook('onRequest', async (request, reply) => {
    const api = request.url.startsWith('/api/');
    reply.headers(api ? headers.api : headers.page);
    reply.header(REQUEST_ID_HEADER, request.id);
    if (api) reply.header('cache-control', 'no-store');
  });

  // Bodies are streamed to the services unparsed (each service validates its own input), counted on the
  // way: over the route's limit, or not all there in time, the gateway answers and the upstream call aborts.
  app.decorateRequest('bodyRefusal', null);
  app.decorateRequest('bodyDone', null);
  app.addHook('onResponse', async (request) => request.bodyDone?.());
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => {
    const body = request.routeOptions.config.body ?? { limit: config.BODY_LIMIT_BYTES, tooLarge: 'BODY_TOO_LARGE' };
    // Announced too large: refused at once, before anything else runs.
    if (Number(request.headers['content-length'] ?? 0) > body.limit) return done(new BodyRefusedError(body.tooLarge));
    const counted = countedBody(request, payload, { ...body, timeoutMs: config.BODY_TIMEOUT_MS }, (code) => {
      // Refused before the upstream call started, or while it runs: the forward's error path answers then.
      request.log.info({ refused: code }, 'request body refused');
    });
    done(null, counted);
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof BodyRefusedError) return refuseBody(reply, error.code);
    const status = error.statusCode ?? 500;
    if (status === 429) return sendError(reply, 'RATE_LIMITED');
    if (status >= 500) {
      request.log.error({ err: error }, 'gateway error');
      return sendError(
        reply,
        status === 504 ? 'UPSTREAM_TIMEOUT' : status === 503 ? 'SERVICE_UNAVAILABLE' : 'BAD_GATEWAY',
      );
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuseBody(reply, 'BODY_TOO_LARGE');
    if (status === 404) return sendError(reply, 'NOT_FOUND');
    if (status === 405) return sendError(reply, 'METHOD_NOT_ALLOWED');
    if (status === 414) return sendError(reply, 'URI_TOO_LONG');
    return sendError(reply, codeForStatus(status), error.message);
  });

  csrfGuard(app, config);
  await app.register(rateLimit, {
    global: false,
    store: rateLimitStore(options.rateLimits ?? memoryCounter(), app.log),
    errorResponseBuilder: () => ({ statusCode: 429, message: ERRORS.RATE_LIMITED.message, code: 'RATE_LIMITED' }),
  });
  await app.register(replyFrom, {
    // Its per-request lines carry the upstream URL with its query string (tokens): Fastify's own suffice.
    disableRequestLogging: true,
    undici: upstreamPoolOptions(config),
  });

  const sessions = new SessionResolver({
    authUrl: config.AUTH_URL,
    internalSecret: config.INTERNAL_SECRET,
    cacheMs: config.SESSION_CACHE_MS,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
  });
  await options.bus?.listen('session.ended', async (event) => sessions.evictSession(event.payload.sessionId));
  await options.bus?.listen('user.email_verified', async (event) => sessions.evictUser(event.payload.userId));

  openApiRoutes(app, config.PUBLIC_URL, headers.page);
  const fastRoutes = proxyRoutes(app, config, sessions);
  fast.path = fastPath({
    app,
    routes: fastRoutes,
    getRoutes,
    sessions,
    headers: headers.api,
    requestId,
    trustProxy: config.TRUST_PROXY,
    decodable,
    failure: upstreamFailure,
  });

  healthRoutes(app, config, sessions, options.bus);

  const webRoot = config.WEB_DIST;
  if (webRoot && existsSync(join(webRoot, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The build writes x.js.br and x.js.gz beside x.js (web/precompress.ts): sent to browsers that accept
      // them, with Vary: Accept-Encoding; the file as it is to the others.
      preCompressed: true,
      setHeaders: (reply, path) => {
        // Vite fingerprints everything under assets/, so it can be cached for good.
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }

  const routedMethods = methodsForPath(config);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0]!;
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      !path.startsWith('/dev/') &&
      // Operational paths a scraper or probe may try here are never the app: metrics are on METRICS_PORT.
      !OPERATIONAL_PATHS.has(path) &&
      // A path naming a file (/assets/x.js, /favicon.ico) that is not there is a 404, not the app.
      !/\.[^/]*$/.test(path) &&
      webRoot &&
      existsSync(join(webRoot, 'index.html'));
    // Client-side routes (/dashboard, /verify-email...) all load the app, which shows its own not-found screen.
    if (isPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    // A known path with another method is a 405, with the methods it takes.
    const allowed = routedMethods(path);
    if (allowed.length > 0) return sendError(reply.header('allow', allowed.join(', ')), 'METHOD_NOT_ALLOWED');
    return sendError(reply, 'NOT_FOUND');
  });

  return app;
}
