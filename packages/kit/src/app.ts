import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { ERRORS, operationList, routePath, type ErrorCode, type ServiceName } from '@app/contracts';
import { codeForStatus, HttpError, isConnectionWaitTimeout } from './errors.ts';
import {
  IDENTITY_HEADER,
  INTERNAL_AUTH_HEADER,
  internalAuthToken,
  identitySigner,
  safeEqual,
  type Identity,
} from './identity.ts';
import { loggerOptions } from './logger.ts';
import { httpMetrics } from './metrics.ts';
import { traceRequests } from './tracing.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user the gateway vouched for, or null. */
    identity: Identity | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless the request comes from another service of ours. */
    requireInternal: (request: FastifyRequest) => Promise<void>;
  }
}

export const REQUEST_ID_HEADER = 'x-request-id';

export interface ServiceAppOptions {
  name: string;
  /** The service whose contract operations this app serves: any other route is refused at registration. */
  service?: ServiceName;
  internalSecret: string;
  /** Checks /readyz runs, by name (database reachable, NATS connected...): each throws when not ready. */
  readiness?: Record<string, () => Promise<void>>;
  /** Shown by /readyz (and the gateway's /status): APP_VERSION. */
  version?: string;
  logger?: FastifyServerOptions['logger'] | false;
  bodyLimit?: number;
}

/** Runs named readiness checks at once, each within 2 s: which are ready, which are not (and why, in the log). */
export async function runChecks(
  checks: Record<string, () => Promise<void>>,
  log: { warn: (fields: object, message: string) => void },
): Promise<{ ready: boolean; checks: Record<string, 'ready' | 'unavailable'> }> {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000);
          }),
        ]);
        return [name, 'ready'] as const;
      } catch (error) {
        log.warn({ err: error, check: name }, 'not ready');
        return [name, 'unavailable'] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: results.every(([, state]) => state === 'ready'), checks: Object.fromEntries(results) };
}

const requestIdPattern = /^[\w.:-]{1,128}$/;

/** Routes every process has besides its operations: health for probes. */
export const OPERATIONAL_ROUTES = ['/healthz', '/readyz'];

const FASTIFY_ERRORS: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'EMPTY_BODY',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

/**
 * The Fastify app every service starts from: request ids carried from the gateway, the one error shape
 * `{ message }` (4xx messages shown as they are, 5xx generic), identity verification, health routes.
 */
export function createServiceApp(options: ServiceAppOptions): FastifyInstance {
  const app = Fastify({
    logger: options.logger === undefined ? loggerOptions(options.name) : options.logger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers[REQUEST_ID_HEADER];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false } },
    // The router's refusals (a path parameter over maxParamLength, a malformed URL) in the one shape, as
    // the gateway answers them: Fastify's own body repeats the whole address as its message.
    frameworkErrors: (error, _request, reply) => {
      const code: ErrorCode = error.statusCode === 414 ? 'URI_TOO_LONG' : codeForStatus(error.statusCode ?? 400);
      void (reply as FastifyReply).status(ERRORS[code].status).send({ message: ERRORS[code].message, code });
    },
  });

  // JSON in, JSON out: other bodies get a 415 rather than a half-understood string.
  app.removeContentTypeParser('text/plain');

  const signer = identitySigner(options.internalSecret);
  const internalToken = internalAuthToken(options.internalSecret);

  httpMetrics(app, options.name);
  app.decorateRequest('identity', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    const header = request.headers[IDENTITY_HEADER];
    request.identity = signer.verify(typeof header === 'string' ? header : undefined);
  });

  traceRequests(app, options.name);

  app.decorate('requireInternal', async (request: FastifyRequest) => {
    const given = request.headers[INTERNAL_AUTH_HEADER];
    if (typeof given !== 'string' || !safeEqual(given, internalToken)) throw new HttpError('INTERNAL_ONLY');
  });

  if (options.service) {
    // Every route of a service is an operation of its contract: a route without one is a startup error.
    const service = options.service;
    const allowed = new Set(
      operationList.filter((op) => op.service === service).map((op) => `${op.method} ${routePath(op.path)}`),
    );
    for (const path of OPERATIONAL_ROUTES) allowed.add(`GET ${path}`);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        if (!allowed.has(`${method} ${route.url}`)) {
          throw new Error(`${method} ${route.url} is not an operation of the ${service} service's contract`);
        }
      }
    });
  }

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.statusCode).send({ message: error.message, code: error.code, ...error.extra });
    }
    // A multipart body the parser cannot read (no boundary, cut short) is the caller's fault, not ours.
    if (!error.statusCode && /^Multipart: |unexpected end of multipart data/i.test(error.message)) {
      return reply.status(400).send({ message: 'The uploaded form could not be read', code: 'VALIDATION_FAILED' });
    }
    if (isConnectionWaitTimeout(error)) {
      request.log.warn({ err: error }, 'no database connection free in time');
      const code = 'SERVICE_UNAVAILABLE';
      return reply.status(503).header('retry-after', '1').send({ message: ERRORS[code].message, code });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ message: 'Internal server error', code: 'INTERNAL_ERROR' });
    }
    // Fastify's own 4xx: malformed JSON, body too large, unsupported media type...
    const known =
      (error.code && FASTIFY_ERRORS[error.code]) || (error.name === 'SyntaxError' ? 'MALFORMED_BODY' : null);
    const code = known ?? codeForStatus(status);
    return reply.status(status).send({ message: known ? ERRORS[known].message : error.message, code });
  });

  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: 'Not found', code: 'NOT_FOUND' }));

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const { ready, checks } = await runChecks(options.readiness ?? {}, app.log);
    const version = options.version ?? 'dev';
    if (ready) return { status: 'ready', version, checks };
    return reply
      .status(503)
      .send({ message: 'Not ready', code: 'SERVICE_UNAVAILABLE', status: 'not ready', version, checks });
  });

  return app;
}
