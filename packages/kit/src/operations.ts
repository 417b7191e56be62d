import {
  operations,
  routePath,
  type Access,
  type BodyOf,
  type OperationIdOf,
  type Operations,
  type OperationSpec,
  type ParamsOf,
  type QueryOf,
  type ResultOf,
  type ServiceName,
} from '@app/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { runInContext } from './context.ts';
import { HttpError } from './errors.ts';
import type { Identity } from './identity.ts';
import { inRequestTrace } from './tracing.ts';
import { parse } from './validation.ts';

type IdentityFor<A extends Access> = A extends 'user' | 'verified' | 'admin' ? Identity : Identity | null;

/** What a handler gets: its input already validated with the contract, and the caller. */
export interface OperationContext<O extends OperationSpec> {
  params: ParamsOf<O>;
  query: QueryOf<O>;
  /** The validated body (`json` operations); `raw` ones parse `rawBody` themselves. */
  body: BodyOf<O>;
  /** The exact bytes of a `raw` operation's body (empty otherwise). */
  rawBody: Buffer;
  identity: IdentityFor<O['access']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<O extends OperationSpec> = (context: OperationContext<O>) => Promise<ResultOf<O>> | ResultOf<O>;

/** One handler for each operation the service owns, by operation id: a missing one does not compile. */
export type HandlersOf<S extends ServiceName> = { [K in OperationIdOf<S>]: Handler<Operations[K]> };

/** Largest body a `raw` operation accepts (signed callbacks carry one email). */
const RAW_BODY_LIMIT = 64 * 1024;

/** The caller may use the operation, else the error that says why (checked before any input is read). */
async function checkAccess(access: Access, identity: Identity | null, request: FastifyRequest): Promise<void> {
  switch (access) {
    case 'user':
      if (!identity) throw new HttpError('UNAUTHENTICATED');
      return;
    case 'verified':
      if (!identity) throw new HttpError('UNAUTHENTICATED');
      if (!identity.emailVerified && !identity.isAdmin) throw new HttpError('EMAIL_NOT_VERIFIED');
      return;
    case 'admin':
      if (!identity) throw new HttpError('UNAUTHENTICATED');
      if (!identity.isAdmin) throw new HttpError('ADMIN_ONLY');
      return;
    case 'internal':
      return request.server.requireInternal(request);
    default:
      return;
  }
}

/**
 * Registers the service's operations from the contract: route, access check, input validation (params,
 * query, body in that order), the success status, and the request context (events emitted while
 * handling keep the request id). Throws at startup when a handler is missing or unknown.
 */
export function registerOperations<S extends ServiceName>(
  app: FastifyInstance,
  service: S,
  handlers: HandlersOf<S>,
): void {
  const own = Object.entries(operations).filter(([, op]) => op.service === service);
  const given = new Set(Object.keys(handlers));
  const missing = own.filter(([id]) => !given.has(id)).map(([id]) => id);
  const unknown = [...given].filter((id) => !own.some(([known]) => known === id));
  if (missing.length || unknown.length) {
    throw new Error(
      `${service}: ${missing.length ? `no handler for ${missing.join(', ')}` : ''}${missing.length && unknown.length ? '; ' : ''}${unknown.length ? `not operations of ${service}: ${unknown.join(', ')}` : ''}`,
    );
  }

  for (const [id, spec] of own) {
    const op = spec as OperationSpec;
    const handler = (handlers as Record<string, Handler<OperationSpec>>)[id]!;
    const kind = op.bodyKind ?? (op.body ? 'json' : undefined);

    const route = (scope: FastifyInstance) =>
      scope.route({
        method: op.method,
        url: routePath(op.path),
        handler: async (request, reply) => {
          const identity = request.identity;
          await checkAccess(op.access, identity, request);
          const context = {
            params: op.params ? parse(op.params, request.params) : undefined,
            query: op.query ? parse(op.query, request.query) : undefined,
            body: kind === 'json' && op.body ? parse(op.body, request.body) : undefined,
            rawBody: kind === 'raw' && Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            identity,
            request,
            reply,
          } as OperationContext<OperationSpec>;
          const result = await inRequestTrace(request, () =>
            runInContext({ requestId: request.id }, () => handler(context)),
          );
          if (reply.sent) return reply;
          reply.status(op.response.status);
          if (op.response.contentType) reply.type(op.response.contentType);
          return result;
        },
      });

    if (kind === 'raw') {
      // The exact bytes (a signature covers them): this route alone reads its body as a buffer.
      void app.register(async (scope) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: RAW_BODY_LIMIT }, (_request, body, done) =>
          done(null, body),
        );
        route(scope);
      });
    } else {
      route(app);
    }
  }
}
