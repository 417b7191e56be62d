import { ApiError, DEFAULT_MUTATION_ERROR } from './api-client';

/**
 * The server's own words for a failure, for toasts and error screens. Query errors read
 * '{status}: {body text}' (spec 8): a JSON body's `message` is taken from them. Answers `fallback` when the
 * failure carries no usable text (no message, the generic 'An error occurred', or not an Error at all).
 */
export function errorText(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  let message = error.message.trim();
  const queryFormat = /^\d{3}:\s*([\s\S]*)$/.exec(message);
  if (queryFormat) {
    const body = queryFormat[1]!.trim();
    message = jsonMessage(body) ?? body;
  }
  if (message === '' || message === DEFAULT_MUTATION_ERROR) return fallback;
  return message;
}

/** The `message` of a failure's JSON body, if it had one (query errors keep the body text). */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const queryFormat = /^\d{3}:\s*([\s\S]*)$/.exec(error.message.trim());
  return queryFormat ? jsonMessage(queryFormat[1]!.trim()) : error.message;
}

export const errorStatus = (error: unknown): number | undefined =>
  error instanceof ApiError ? error.status : undefined;

function jsonMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
      return (body as { message: string }).message;
    }
  } catch {
    // not JSON
  }
  return undefined;
}
