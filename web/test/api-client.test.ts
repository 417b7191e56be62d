import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiRequest,
  getQueryFn,
  mutationErrorFromResponse,
  queryErrorFromResponse,
  queryFetch,
} from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import { json } from './utils';

const text = (status: number, body: string, statusText = '') => new Response(body, { status, statusText });

describe('mutation error formatting (spec 7)', () => {
  it('uses the status text for 5xx, whatever the body says', async () => {
    const error = await mutationErrorFromResponse(json(502, { message: 'upstream exploded' }, 'Bad Gateway'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Bad Gateway');
    expect(error.status).toBe(502);
  });

  it("uses a JSON body's message and its emailVerificationSent", async () => {
    const error = await mutationErrorFromResponse(
      json(403, { message: 'Email not verified. Check.', emailVerificationSent: true }),
    );
    expect(error.message).toBe('Email not verified. Check.');
    expect(error.emailVerificationSent).toBe(true);
  });

  it("falls back to 'An error occurred' for a JSON body without a message", async () => {
    const error = await mutationErrorFromResponse(json(400, { error: 'nope' }));
    expect(error.message).toBe('An error occurred');
    expect(error.emailVerificationSent).toBeUndefined();
  });

  it('uses the body text when the body is not JSON', async () => {
    const error = await mutationErrorFromResponse(text(429, 'Slow down'));
    expect(error.message).toBe('Slow down');
  });

  it('gives a network exception its own text', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(apiRequest('POST', '/api/login', {})).rejects.toMatchObject({ message: 'Failed to fetch', status: 0 });
  });
});

describe('query error formatting (spec 8)', () => {
  it("is '{status}: {status text}' for 5xx", async () => {
    const error = await queryErrorFromResponse(text(503, 'maintenance page', 'Service Unavailable'));
    expect(error.message).toBe('503: Service Unavailable');
  });

  it("is '{status}: {body text}' otherwise", async () => {
    const error = await queryErrorFromResponse(json(404, { message: 'Referral not found' }));
    expect(error.message).toBe('404: {"message":"Referral not found"}');
  });
});

describe('requests', () => {
  it('sends JSON with the session cookie and returns the parsed body', async () => {
    const fetchMock = vi.fn().mockResolvedValue(json(201, { message: 'ok', emailVerificationSent: true }));
    vi.stubGlobal('fetch', fetchMock);
    const answer = await apiRequest('POST', '/api/register', { email: 'a@b.co' });
    expect(answer).toEqual({ message: 'ok', emailVerificationSent: true });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/register');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    expect(init.body).toBe('{"email":"a@b.co"}');
  });

  it('throws the formatted mutation error on a failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(json(409, { message: 'An account with this email already exists' })),
    );
    await expect(apiRequest('POST', '/api/register', {})).rejects.toThrow('An account with this email already exists');
  });

  it('answers null for a 401 on the current-user call, and throws for other statuses', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(401, { message: 'Authentication required' })));
    await expect(queryFetch('/api/user', { on401: 'returnNull' })).resolves.toBeNull();
    await expect(queryFetch('/api/user')).rejects.toThrow('401: {"message":"Authentication required"}');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(text(500, 'boom', 'Internal Server Error')));
    await expect(queryFetch('/api/user', { on401: 'returnNull' })).rejects.toThrow('500: Internal Server Error');
  });

  it('the default query function GETs the first element of the key', async () => {
    const fetchMock = vi.fn().mockResolvedValue(json(200, [{ id: 1 }]));
    vi.stubGlobal('fetch', fetchMock);
    await expect(getQueryFn()({ queryKey: ['/api/referrals', 'ignored'] })).resolves.toEqual([{ id: 1 }]);
    expect(fetchMock).toHaveBeenCalledWith('/api/referrals', expect.objectContaining({ credentials: 'include' }));
  });
});

describe('query client defaults (spec 7, 9)', () => {
  it('never retries, never goes stale and does not refetch on focus', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.retry).toBe(false);
    expect(defaults.queries?.staleTime).toBe(Infinity);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.queries?.refetchInterval).toBe(false);
    expect(defaults.mutations?.retry).toBe(false);
  });
});
