import { pathFor, type OperationSpec, type ResponseOf } from '@app/contracts';
import type { z } from 'zod';
import { UNEXPECTED_RESPONSE_MESSAGE } from './errors';
import { ApiError, request, type ApiErrorCode } from './http';

/**
 * The one way the web calls the server: an operation of the contract (`operations` of @app/contracts),
 * its path filled from `params`, `query` as the query string, `body` as JSON, and the answer parsed with the
 * operation's response schema. A failure, or an answer that does not match the contract, is an ApiError.
 *
 *   call(operations.getReferral, { params: { id } })
 */

export { errorText } from './errors';
export { ApiError, type ApiErrorCode } from './http';

export const isApiError = (error: unknown, code?: ApiErrorCode): error is ApiError =>
  error instanceof ApiError && (code === undefined || error.code === code);

/**
 * Retries of a workspace's data (leads, what it owes, webhooks) that answered NOT_A_MEMBER or
 * VENDOR_NOT_FOUND: the services serving them learn a workspace and its members from `vendor.saved`, a
 * moment after it is created or an invitation is accepted. Three more tries a second apart; any other
 * failure is shown at once (no retries, spec 7/9).
 */
export const membershipRetry = {
  retry: (failures: number, error: unknown) =>
    failures < 3 && (isApiError(error, 'NOT_A_MEMBER') || isApiError(error, 'VENDOR_NOT_FOUND')),
  retryDelay: 1000,
} as const;

type ParamsInput<O extends OperationSpec> = O['params'] extends z.ZodType
  ? { params: Record<keyof z.input<O['params']>, string | number> }
  : { params?: undefined };
type QueryInput<O extends OperationSpec> = O['query'] extends z.ZodType
  ? { query?: z.input<O['query']> }
  : { query?: undefined };
type BodyInput<O extends OperationSpec> = O['body'] extends z.ZodType
  ? O['bodyKind'] extends 'upload'
    ? { body?: undefined }
    : { body: z.input<O['body']> }
  : { body?: undefined };

export type CallInput<O extends OperationSpec> = ParamsInput<O> & QueryInput<O> & BodyInput<O>;

/** The operation's URL: its path with the parameters filled in, and the query values that are set. */
export function urlFor(op: OperationSpec, input: { params?: object; query?: object } = {}): string {
  const path = pathFor(op.path, input.params as Record<string, string | number> | undefined);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {}) as Array<[string, unknown]>) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  return search.size > 0 ? `${path}?${search.toString()}` : path;
}

/** The answer read with the operation's response schema; one that does not match is an ApiError. */
export function parseAnswer<O extends OperationSpec>(op: O, data: unknown, status = op.response.status): ResponseOf<O> {
  const schema = op.response.schema;
  if (!schema) return data as ResponseOf<O>;
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError({ status, code: 'UNEXPECTED_RESPONSE', message: UNEXPECTED_RESPONSE_MESSAGE });
  }
  return parsed.data as ResponseOf<O>;
}

export async function call<O extends OperationSpec>(
  op: O,
  ...[input]: object extends CallInput<O> ? [CallInput<O>?] : [CallInput<O>]
): Promise<ResponseOf<O>> {
  const given = (input ?? {}) as { params?: object; query?: object; body?: unknown };
  const answer = await request(op.method, urlFor(op, given), given.body);
  return parseAnswer(op, answer.data, answer.status);
}
