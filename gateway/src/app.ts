import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import replyFrom from '@fastify/reply-from';
import fastifyStatic from '@fastify/static';
import { ERRORS } from '@app/contracts';
import { codeForStatus, loggerOptions, REQUEST_ID_HEADER, type EventBus } from '@app/kit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { GatewayConfig } from './config.ts';
import { openApiRoutes } from './openapi.ts';
import { proxyRoutes, sendError, upstreams } from './proxy.ts';
import { csrfGuard, securityHeaders } from './security.ts';
import { SessionResolver } from './sessions.ts';

const requestIdPattern = /^[\w.:-]{1,128}$/;

/**
 * The only thing the browser talks to: the built web app, `/api` forwarded to the owning service with
 * the caller's identity, OpenAPI docs, and the protections (headers, CSRF, rate limits, limits).
 */
export async function buildGateway(options: {
  config: GatewayConfig;
  /** Hears `session.ended` and `user.email_verified`, so this gateway's session cache is never stale. */
  bus?: EventBus;
  logger?: FastifyServerOptions['logger'] | false;
}): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger === undefined ? loggerOptions('gateway', config.LOG_LEVEL) : options.logger,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: config.BODY_LIMIT_BYTES,
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    connectionTimeout: config.REQUEST_TIMEOUT_MS,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers[REQUEST_ID_HEADER];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
  });

  const headers = securityHeaders(config);
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(headers);
    reply.header(REQUEST_ID_HEADER, request.id);
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });

  // Bodies are streamed to the services unparsed; each service validates its own input.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 429) return sendError(reply, 'RATE_LIMITED');
    if (status >= 500) {
      request.log.error({ err: error }, 'gateway error');
      return sendError(
        reply,
        status === 504 ? 'UPSTREAM_TIMEOUT' : status === 503 ? 'SERVICE_UNAVAILABLE' : 'BAD_GATEWAY',
      );
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 'BODY_TOO_LARGE');
    return sendError(reply, codeForStatus(status), error.message);
  });

  csrfGuard(app, config);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => ({ statusCode: 429, message: ERRORS.RATE_LIMITED.message, code: 'RATE_LIMITED' }),
  });
  await app.register(replyFrom, {
    undici: {
      connections: 128,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: config.REQUEST_TIMEOUT_MS,
      bodyTimeout: config.REQUEST_TIMEOUT_MS,
    },
  });

  const sessions = new SessionResolver({
    authUrl: config.AUTH_URL,
    internalSecret: config.INTERNAL_SECRET,
    cacheMs: config.SESSION_CACHE_MS,
  });
  await options.bus?.listen('session.ended', async (event) => sessions.evictSession(event.payload.sessionId));
  await options.bus?.listen('user.email_verified', async (event) => sessions.evictUser(event.payload.userId));

  openApiRoutes(app, config.PUBLIC_URL);
  proxyRoutes(app, config, sessions);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const checks = await Promise.all(
      Object.entries(upstreams(config)).map(async ([name, url]) => {
        const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
          (r) => r.ok,
          () => false,
        );
        return [name, ok ? 'ready' : 'unavailable'] as const;
      }),
    );
    const allReady = checks.every(([, state]) => state === 'ready');
    return reply
      .status(allReady ? 200 : 503)
      .send({ status: allReady ? 'ready' : 'degraded', services: Object.fromEntries(checks) });
  });

  const webRoot = config.WEB_DIST;
  if (webRoot && existsSync(join(webRoot, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      setHeaders: (reply, path) => {
        // Vite fingerprints everything under assets/, so it can be cached for good.
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      webRoot &&
      existsSync(join(webRoot, 'index.html'));
    // Client-side routes (/dashboard, /verify-email...) all load the app, which shows its own not-found screen.
    if (isPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return sendError(reply, 'NOT_FOUND');
  });

  return app;
}
