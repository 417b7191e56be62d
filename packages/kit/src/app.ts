import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { HttpError, unauthorized, forbidden } from './errors.ts';
import {
  IDENTITY_HEADER,
  INTERNAL_AUTH_HEADER,
  internalAuthToken,
  identitySigner,
  safeEqual,
  type Identity,
} from './identity.ts';
import { loggerOptions } from './logger.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user the gateway vouched for, or null. */
    identity: Identity | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a valid identity. */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /** preHandler: 401 unless the request comes from another service of ours. */
    requireInternal: (request: FastifyRequest) => Promise<void>;
    /** The identity or a 401, for handlers. */
    userOf: (request: FastifyRequest) => Identity;
  }
}

export const REQUEST_ID_HEADER = 'x-request-id';

export interface ServiceAppOptions {
  name: string;
  internalSecret: string;
  /** Checks /readyz runs (database reachable, bus connected...). */
  readiness?: Array<() => Promise<void>>;
  logger?: FastifyServerOptions['logger'] | false;
  bodyLimit?: number;
}

const requestIdPattern = /^[\w.:-]{1,128}$/;

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
  });

  // JSON in, JSON out: other bodies get a 415 rather than a half-understood string.
  app.removeContentTypeParser('text/plain');

  const signer = identitySigner(options.internalSecret);
  const internalToken = internalAuthToken(options.internalSecret);

  app.decorateRequest('identity', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    const header = request.headers[IDENTITY_HEADER];
    request.identity = signer.verify(typeof header === 'string' ? header : undefined);
  });

  app.decorate('requireUser', async (request: FastifyRequest) => {
    if (!request.identity) throw unauthorized();
  });
  app.decorate('requireInternal', async (request: FastifyRequest) => {
    const given = request.headers[INTERNAL_AUTH_HEADER];
    if (typeof given !== 'string' || !safeEqual(given, internalToken)) throw forbidden('Internal route');
  });
  app.decorate('userOf', (request: FastifyRequest) => {
    if (!request.identity) throw unauthorized();
    return request.identity;
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message, ...error.extra });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ message: 'Internal server error' });
    }
    // Fastify's own 4xx: malformed JSON, body too large, unsupported media type...
    const messages: Record<string, string> = {
      FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
      FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
      FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
      FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
    };
    const message =
      (error.code && messages[error.code]) ?? (error.name === 'SyntaxError' ? 'Malformed JSON body' : error.message);
    return reply.status(status).send({ message });
  });

  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: 'Not found' }));

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await Promise.all((options.readiness ?? []).map((check) => check()));
      return { status: 'ready' };
    } catch (error) {
      app.log.warn({ err: error }, 'not ready');
      return reply.status(503).send({ message: 'Not ready' });
    }
  });

  return app;
}
