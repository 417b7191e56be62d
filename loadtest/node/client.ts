/** A minimal API client for the seeding command: JSON in and out, one session cookie per client. */
export interface ApiAnswer {
  status: number;
  json: unknown;
  text: string;
}

export class ApiError extends Error {}

export class ApiClient {
  private cookies = new Map<string, string>();
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  async request(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const [name, value] = [pair.slice(0, index).trim(), pair.slice(index + 1).trim()];
      if (value && !/max-age=0/i.test(line)) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text
    }
    return { status: response.status, json, text };
  }

  /** The request, which must answer `expected`; anything else stops the seeding with what was said. */
  async expect(expected: number, method: string, path: string, body?: unknown): Promise<unknown> {
    const answer = await this.request(method, path, body);
    if (answer.status === expected) return answer.json;
    const hint =
      answer.status === 429
        ? ' (rate limited: raise RATE_LIMIT_AUTH_MAX on the gateway for a load test, see loadtest/README.md)'
        : '';
    throw new ApiError(
      `${method} ${path} answered ${answer.status}, expected ${expected}${hint}: ${answer.text.slice(0, 300)}`,
    );
  }
}

/** Runs `work` over `items` with at most `concurrency` at a time. */
export async function inPool<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}
