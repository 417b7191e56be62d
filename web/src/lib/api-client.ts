/**
 * The one way the web talks to the gateway: same origin, cookie session, JSON. The error formats follow spec
 * sections 7 and 8 so every screen shows server failures the same way.
 */

export class ApiError extends Error {
  readonly status: number;
  /** Set when a failed login/register answer says whether a verification email went out. */
  readonly emailVerificationSent: boolean | undefined;

  constructor(message: string, status: number, emailVerificationSent?: boolean) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.emailVerificationSent = emailVerificationSent;
  }
}

export const DEFAULT_MUTATION_ERROR = 'An error occurred';

/** Mutation failures: 5xx → status text; else the JSON body's message (+ emailVerificationSent); else the body text. */
export async function mutationErrorFromResponse(res: Response): Promise<ApiError> {
  if (res.status >= 500) return new ApiError(res.statusText || DEFAULT_MUTATION_ERROR, res.status);
  const text = await readText(res);
  const body = parseJson(text);
  if (body !== undefined && body !== null && typeof body === 'object') {
    const { message, emailVerificationSent } = body as { message?: unknown; emailVerificationSent?: unknown };
    return new ApiError(
      typeof message === 'string' && message !== '' ? message : DEFAULT_MUTATION_ERROR,
      res.status,
      typeof emailVerificationSent === 'boolean' ? emailVerificationSent : undefined,
    );
  }
  return new ApiError(text || res.statusText || DEFAULT_MUTATION_ERROR, res.status);
}

/** Query failures: '{status}: {status text}' for 5xx, '{status}: {body text}' otherwise. */
export async function queryErrorFromResponse(res: Response): Promise<ApiError> {
  if (res.status >= 500) return new ApiError(`${res.status}: ${res.statusText}`, res.status);
  const text = await readText(res);
  return new ApiError(`${res.status}: ${text || res.statusText}`, res.status);
}

/** A network failure (no response at all) becomes an ApiError carrying the exception's own text. */
export function networkError(error: unknown): ApiError {
  return new ApiError(error instanceof Error ? error.message : String(error), 0);
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A state-changing call (mutation). Resolves to the parsed JSON body, or undefined for an empty one. */
export async function apiRequest<T>(method: Method, url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: 'include',
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw networkError(error);
  }
  if (!res.ok) throw await mutationErrorFromResponse(res);
  const text = await readText(res);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * A read (query). No abort signal is passed on purpose: a query kept by the cache is shared by every screen
 * asking for the same key, and unmounting one of them must not cancel (and so repeat) the request.
 */
export async function queryFetch<T>(url: string, options: { on401?: UnauthorizedBehavior } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'include', headers: { Accept: 'application/json' } });
  } catch (error) {
    throw networkError(error);
  }
  if (options.on401 === 'returnNull' && res.status === 401) return null as T;
  if (!res.ok) throw await queryErrorFromResponse(res);
  return (await res.json()) as T;
}

/** The default query function: the first element of the query key is the URL. */
export function getQueryFn(options: { on401?: UnauthorizedBehavior } = {}) {
  return ({ queryKey }: { queryKey: readonly unknown[] }) => {
    const [url] = queryKey;
    if (typeof url !== 'string') throw new Error('The first element of a query key must be its URL');
    return queryFetch<unknown>(url, options);
  };
}

async function readText(res: Response): Promise<string> {
  try {
    return await res.text();
  } catch {
    return '';
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
