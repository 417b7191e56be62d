import { ERRORS, type ErrorCode } from '@app/contracts';

/**
 * An error whose message is safe to show to the user, with its stable code (contracts' `ERRORS`): the
 * status comes from the code. Anything that is not an HttpError becomes a generic 500.
 */
export class HttpError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly extra: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, extra?: Record<string, unknown>) {
    super(message ?? ERRORS[code].message);
    this.code = code;
    this.statusCode = ERRORS[code].status;
    this.extra = extra;
  }
}

/** Throws the error answer for `code` (its default message unless a more precise one is given). */
export function fail(code: ErrorCode, message?: string, extra?: Record<string, unknown>): never {
  throw new HttpError(code, message, extra);
}

/** The code for an HTTP status that no code of ours names more precisely (Fastify's own errors). */
export function codeForStatus(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = {
    400: 'VALIDATION_FAILED',
    401: 'UNAUTHENTICATED',
    403: 'CROSS_SITE_REQUEST',
    404: 'NOT_FOUND',
    405: 'METHOD_NOT_ALLOWED',
    413: 'BODY_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    429: 'RATE_LIMITED',
    502: 'BAD_GATEWAY',
    503: 'SERVICE_UNAVAILABLE',
    504: 'UPSTREAM_TIMEOUT',
  };
  return byStatus[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_FAILED');
}

/**
 * Whether an error says no database connection was free in time: Prisma's interactive transaction waited
 * its `maxWait` (2 s by default) for one (P2028), or a pg pool its `connectionTimeoutMillis`. Past the
 * pipeline's ceiling that is load, not a bug: the request answers 503 SERVICE_UNAVAILABLE (retryable).
 */
export function isConnectionWaitTimeout(error: { code?: unknown; message?: unknown }): boolean {
  const message = typeof error.message === 'string' ? error.message : '';
  return (
    (error.code === 'P2028' && message.includes('Unable to start a transaction in the given time')) ||
    message === 'timeout exceeded when trying to connect'
  );
}
