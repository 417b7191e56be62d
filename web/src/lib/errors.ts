import { ApiError, DEFAULT_MUTATION_ERROR } from './http';

/** Texts of failures for screens (kept out of lib/http.ts, which the entry chunk carries). */

export const UNEXPECTED_RESPONSE_MESSAGE = 'The server answered in an unexpected format';

/**
 * Spec 7's text of a failure: for a 5xx its status text (a server error's body is not for users), else the
 * server's message; 'An error occurred' when there is none; a network failure's own text.
 */
export function failureText(error: unknown): string {
  if (!(error instanceof Error)) return '';
  if (error instanceof ApiError && error.status >= 500) return error.statusText?.trim() || DEFAULT_MUTATION_ERROR;
  return error.message.trim();
}

/** The failure's text for a screen, or the screen's own `fallback` when it has nothing more precise. */
export function errorText(error: unknown, fallback: string): string {
  const text = failureText(error);
  return text === '' || text === DEFAULT_MUTATION_ERROR ? fallback : text;
}

/** Spec 8, a failed read as reported: '{status}: {status text}' for 5xx, '{status}: {server text}' otherwise. */
export const failureSummary = (error: ApiError) =>
  `${error.status}: ${error.status >= 500 ? error.statusText : error.message}`;
