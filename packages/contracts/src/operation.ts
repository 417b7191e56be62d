import type { z } from 'zod';
import type { ErrorCode } from './errors.ts';

export type ServiceName = 'auth' | 'referrals' | 'programs' | 'profiles' | 'ai' | 'mail';
export const SERVICE_NAMES: readonly ServiceName[] = ['auth', 'referrals', 'programs', 'profiles', 'ai', 'mail'];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation. The gateway answers 401 for `user`, `verified` and `admin` without a session;
 * the service checks all of them again (a request reaching it directly proves nothing).
 * - `public`: anyone; the caller's identity is attached when they have a session.
 * - `user`: signed in, verified or not.
 * - `verified`: signed in with a verified email (administrators are always verified).
 * - `admin`: an administrator.
 * - `internal`: another service of ours (derived credential); the gateway never routes it.
 * - `dev`: the developer inbox of `npm start`; routed only when it is on.
 */
export type Access = 'public' | 'user' | 'verified' | 'admin' | 'internal' | 'dev';

/** Rate-limit classes; their budgets are gateway configuration. */
export type RateLimitClass = 'credentials';

/**
 * How the request body is read:
 * - `json` (default when `body` is given): parsed and validated with `body` before the handler runs.
 * - `upload`: multipart with one document; larger body limit at the gateway; the handler reads the file.
 * - `raw`: the exact bytes, for signature checks; the handler parses them with `body` itself.
 */
export type BodyKind = 'json' | 'upload' | 'raw';

export interface OperationSpec {
  method: HttpMethod;
  /** As the caller uses it, with `{param}` placeholders (OpenAPI style). */
  path: string;
  service: ServiceName;
  summary: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyKind?: BodyKind;
  response: { status: number; description: string; schema?: z.ZodType; contentType?: string };
  /** The operation's own error codes; the ones every operation of its kind can give are added by `errorsOf`. */
  errors?: readonly ErrorCode[];
  rateLimit?: RateLimitClass;
  /** The gateway forgets the caller's cached session once the service answered (logout). */
  endsSession?: boolean;
}

/** One definition per operation: route, owner, access, limits, schemas and errors, used by every side. */
export const defineOperation = <const S extends OperationSpec>(spec: S): S => spec;

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type In<T> = T extends z.ZodType ? z.input<T> : undefined;

export type ParamsOf<O extends OperationSpec> = Out<O['params']>;
export type QueryOf<O extends OperationSpec> = Out<O['query']>;
export type BodyOf<O extends OperationSpec> = Out<O['body']>;
/** What a caller sends (before defaults and transforms). */
export type RequestBodyOf<O extends OperationSpec> = In<O['body']>;
/** What the handler returns: the schema's input (the schema's output is what a client reads). */
export type ResultOf<O extends OperationSpec> = O['response']['schema'] extends z.ZodType
  ? z.input<O['response']['schema']>
  : O['response']['contentType'] extends string
    ? string
    : unknown;
export type ResponseOf<O extends OperationSpec> = Out<O['response']['schema']>;

/** `/api/referrals/{id}` -> `/api/referrals/:id` (Fastify's and find-my-way's form). */
export const routePath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** `/api/referrals/{id}` filled with values: `/api/referrals/7`. */
export function pathFor(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Every error code an operation can answer: its own, plus what its access, input and limits imply. */
export function errorsOf(op: OperationSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  const kind = op.bodyKind ?? (op.body ? 'json' : undefined);
  if (op.params || op.query || op.body || kind) codes.add('VALIDATION_FAILED');
  if (kind === 'json' || kind === 'raw') codes.add('MALFORMED_BODY');
  if (kind) codes.add('BODY_TOO_LARGE');
  if (kind) codes.add('BODY_TIMEOUT');
  if (op.access === 'user' || op.access === 'verified' || op.access === 'admin') codes.add('UNAUTHENTICATED');
  if (op.access === 'verified') codes.add('EMAIL_NOT_VERIFIED');
  if (op.access === 'admin') codes.add('ADMIN_ONLY');
  if (op.access === 'internal') codes.add('INTERNAL_ONLY');
  if (op.rateLimit) codes.add('RATE_LIMITED');
  for (const code of op.errors ?? []) codes.add(code);
  if (op.access !== 'internal') {
    codes.add('CROSS_SITE_REQUEST');
    codes.add('SERVICE_UNAVAILABLE');
    codes.add('UPSTREAM_TIMEOUT');
  }
  codes.add('INTERNAL_ERROR');
  return [...codes];
}

/** Whether the gateway forwards the operation from the browser (internal ones stay between services). */
export const isPublicOperation = (op: OperationSpec) => op.access !== 'internal';

/**
 * Services whose JSON bodies are smaller than the gateway's BODY_LIMIT_BYTES: the gateway refuses a larger
 * body itself (413), rather than start forwarding what the service will cut off.
 */
export const SERVICE_BODY_LIMITS: Partial<Record<ServiceName, number>> = {
  // Search texts and match requests are short and enrichment callbacks carry one email.
  ai: 64 * 1024,
};
