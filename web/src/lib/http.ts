import type { ErrorCode } from '@app/contracts';

/**
 * The transport under the API client: same origin, cookie session, JSON, and every failure as an ApiError.
 * No zod and no contract here (type imports only): the session read in the entry chunk uses it before any
 * screen chunk has loaded. Calls go through `call` (lib/api-client.ts), which adds the contract.
 */

/**
 * Failures only the browser sees: no answer at all, an answer that is not what the contract says, a failed
 * answer without a code of ours.
 */
export type ClientErrorCode = 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE' | 'UNKNOWN_ERROR';
export type ApiErrorCode = ErrorCode | ClientErrorCode;

export const DEFAULT_MUTATION_ERROR = 'An error occurred';

export interface ApiErrorInit {
  /** 0 when there was no answer. */
  status: number;
  statusText?: string;
  code: ApiErrorCode;
  /** The server's words (its JSON `message`, else its body text, else the status text). */
  message: string;
  /** The refused input, as a dotted path (validation failures). */
  field?: string;
  /** Set when a failed login/register answer says whether a verification email went out (spec 7). */
  emailVerificationSent?: boolean;
  /** Reasons behind a refusal, each a sentence (e.g. the ICP criteria a referral fails). */
  details?: string[];
}

/** A failed call. Screens branch on `code`, never on the wording of `message`. */
export class ApiError extends Error {
  declare readonly status: number;
  /** The answer's status text (none without an answer). */
  declare readonly statusText: string | undefined;
  declare readonly code: ApiErrorCode;
  declare readonly field: string | undefined;
  declare readonly emailVerificationSent: boolean | undefined;
  declare readonly details: string[] | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    Object.assign(this, init);
  }
}

/** A body that is not JSON is shown as it is (spec 7), unless it is a web page; at most 500 characters. */
const bodyText = (text: string) => (/^\s*</.test(text) ? '' : text.slice(0, 500));

/**
 * A failed answer as an ApiError: the contract's `{ message, code, field?, details? }` of every service (a refused
 * login adds emailVerificationSent, spec 7), or whatever came (a proxy's error page: UNKNOWN_ERROR).
 */
export function errorFromAnswer(status: number, statusText: string, text: string): ApiError {
  const body = parseJson(text);
  const answer: Partial<ApiErrorInit> =
    body !== null && typeof body === 'object' ? body : { message: bodyText(text) || statusText };
  return new ApiError({
    ...answer,
    status,
    statusText,
    code: answer.code || 'UNKNOWN_ERROR',
    message: answer.message || DEFAULT_MUTATION_ERROR,
  });
}

/** No answer at all: the exception's own text (spec 7). */
export function networkError(error: unknown): ApiError {
  return new ApiError({
    status: 0,
    code: 'NETWORK_ERROR',
    message: error instanceof Error ? error.message : String(error),
  });
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a successful call answered: its JSON (a string when it was not JSON, undefined when empty). */
export interface Answer {
  status: number;
  data: unknown;
}

/**
 * One request. No abort signal on purpose: a query kept by the cache is shared by every screen asking for
 * the same key, and unmounting one of them must not cancel (and so repeat) the request.
 */
export async function request(method: HttpMethod, url: string, body?: unknown): Promise<Answer> {
  let res: Response;
  const json = body !== undefined;
  try {
    res = await fetch(url, {
      method,
      credentials: 'include',
      headers: json
        ? { Accept: 'application/json', 'Content-Type': 'application/json' }
        : { Accept: 'application/json' },
      body: json ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw networkError(error);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) throw errorFromAnswer(res.status, res.statusText, text);
  return { status: res.status, data: answerData(text) };
}

/** The default query function (spec 7): the first element of the query key is the URL, read with GET. */
export const getQueryFn =
  () =>
  async ({ queryKey }: { queryKey: readonly unknown[] }) =>
    (await request('GET', String(queryKey[0]))).data;

export function answerData(text: string): unknown {
  const parsed = parseJson(text);
  return parsed === undefined && text !== '' ? text : parsed;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
