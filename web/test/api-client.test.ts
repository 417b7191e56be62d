import { operations } from '@app/contracts';
import { describe, expect, it, vi } from 'vitest';
import { getUser } from '@/features/auth/api/get-user';
import { ApiError, call, errorText, urlFor } from '@/lib/api-client';
import { failureSummary } from '@/lib/errors';
import { errorFromAnswer, getQueryFn } from '@/lib/http';
import { createQueryClient } from '@/lib/query-client';
import { json } from './utils';

const text = (status: number, body: string, statusText = '') => new Response(body, { status, statusText });

describe('failures (spec 7)', () => {
  it("shows a 5xx's status text, whatever the body says", () => {
    const error = errorFromAnswer(502, 'Bad Gateway', JSON.stringify({ message: 'upstream exploded' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(errorText(error, 'fallback')).toBe('Bad Gateway');
    expect(error.status).toBe(502);
    expect(error.code).toBe('UNKNOWN_ERROR');
  });

  it("carries the body's code, message and field (and emailVerificationSent)", () => {
    const error = errorFromAnswer(
      403,
      'Forbidden',
      JSON.stringify({
        message: 'Email not verified. Check.',
        code: 'LOGIN_EMAIL_NOT_VERIFIED',
        emailVerificationSent: true,
      }),
    );
    expect(error.message).toBe('Email not verified. Check.');
    expect(error.code).toBe('LOGIN_EMAIL_NOT_VERIFIED');
    expect(error.emailVerificationSent).toBe(true);
    const invalid = errorFromAnswer(
      400,
      '',
      JSON.stringify({ message: 'Invalid email', code: 'VALIDATION_FAILED', field: 'email' }),
    );
    expect(invalid.field).toBe('email');
    expect(errorText(invalid, 'fallback')).toBe('Invalid email');
  });

  it("falls back to 'An error occurred' for a JSON body without a message", () => {
    const error = errorFromAnswer(400, '', JSON.stringify({ error: 'nope' }));
    expect(error.message).toBe('An error occurred');
    expect(error.emailVerificationSent).toBeUndefined();
    expect(errorText(error, 'Failed to do it')).toBe('Failed to do it');
  });

  it('uses the body text when the body is not JSON (but not a web page); no code of ours is UNKNOWN_ERROR', () => {
    expect(errorFromAnswer(429, '', 'Slow down')).toMatchObject({ message: 'Slow down', code: 'UNKNOWN_ERROR' });
    expect(errorFromAnswer(404, 'Not Found', '<html>nginx</html>').message).toBe('Not Found');
  });

  it('gives a network exception its own text', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(call(operations.login, { body: { email: 'a@b.co', password: 'x' } })).rejects.toMatchObject({
      message: 'Failed to fetch',
      status: 0,
      code: 'NETWORK_ERROR',
    });
  });
});

describe('failed reads as reported (spec 8)', () => {
  it("is '{status}: {status text}' for 5xx", () => {
    expect(failureSummary(errorFromAnswer(503, 'Service Unavailable', 'maintenance page'))).toBe(
      '503: Service Unavailable',
    );
  });

  it("is '{status}: {server text}' otherwise", () => {
    const error = errorFromAnswer(
      404,
      '',
      JSON.stringify({ message: 'Referral not found', code: 'REFERRAL_NOT_FOUND' }),
    );
    expect(failureSummary(error)).toBe('404: Referral not found');
  });
});

describe('calls', () => {
  it('sends JSON with the session cookie and returns the answer parsed with the contract', async () => {
    const fetchMock = vi.fn().mockResolvedValue(json(201, { message: 'ok', emailVerificationSent: true }));
    vi.stubGlobal('fetch', fetchMock);
    const body = { firstName: 'A', lastName: 'B', companyName: 'C', email: 'a@b.co', password: 'x' };
    const answer = await call(operations.register, { body });
    expect(answer).toEqual({ message: 'ok', emailVerificationSent: true });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/register');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    expect(init.body).toBe(JSON.stringify(body));
  });

  it('fills the path and the query from the operation', async () => {
    expect(urlFor(operations.getReferral, { params: { id: 7 } })).toBe('/api/referrals/7');
    expect(urlFor(operations.getEmailDraft, { params: { id: '7' }, query: { checkOnly: 'true' } })).toBe(
      '/api/referrals/7/email-draft?checkOnly=true',
    );
    expect(urlFor(operations.listReferrals, { query: { search: undefined, days: '30', page: 2 } })).toBe(
      '/api/referrals?days=30&page=2',
    );
  });

  it('throws the failure as an ApiError with its code', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(
          json(409, { message: 'This intro email has already been sent', code: 'EMAIL_ALREADY_SENT' }),
        ),
    );
    const body = { subject: 'Hi', body: 'Hello', recipients: { to: ['a@b.co'], cc: [], bcc: [] } };
    await expect(call(operations.sendEmail, { params: { id: '7' }, body })).rejects.toMatchObject({
      message: 'This intro email has already been sent',
      code: 'EMAIL_ALREADY_SENT',
      status: 409,
    });
  });

  it('refuses an answer that does not match the contract, as an error a screen can show', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(200, { message: 42 })));
    await expect(call(operations.logout)).rejects.toMatchObject({
      code: 'UNEXPECTED_RESPONSE',
      message: 'The server answered in an unexpected format',
    });
  });

  it('answers null for a 401 on the current-user call, and throws for other statuses', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(json(401, { message: 'Authentication required', code: 'UNAUTHENTICATED' })),
    );
    await expect(getUser()).resolves.toBeNull();
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(text(401, '', 'Unauthorized')));
    await expect(getUser()).resolves.toBeNull();
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(text(500, 'boom', 'Internal Server Error')));
    const failure = await getUser().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failureSummary(failure as ApiError)).toBe('500: Internal Server Error');
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
