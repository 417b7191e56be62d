import { createHash } from 'node:crypto';
import { ACCOUNT_MESSAGES, AUTH_MESSAGES, ERRORS, type ErrorCode, type EventEnvelope } from '@app/contracts';
import { identitySigner, sealer, type EventBus } from '@app/kit';
import { eventually, freshDatabase, TEST_SECRET, testBus } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../src/config.ts';
import { createAuthService, type AuthService } from '../src/service.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let service: AuthService;
let bus: EventBus;
let sql: pg.Pool;
const published: EventEnvelope[] = [];
const signer = identitySigner(TEST_SECRET);
const tokens = sealer(TEST_SECRET, 'email-verification');

const app = () => service.app;
const json = { 'content-type': 'application/json' };
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const register = (overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  app().inject({
    method: 'POST',
    url: '/api/register',
    headers: { ...json, ...headers },
    payload: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Analytical Ltd',
      email: `ada-${Math.random().toString(36).slice(2)}@example.com`,
      password: 'correct horse',
      ...overrides,
    },
  });

const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  app().inject({ method: 'POST', url: '/api/login', headers: { ...json, ...headers }, payload: { email, password } });

const sessionCookie = (response: { cookies: Array<{ name: string; value: string }> }) =>
  response.cookies.find((c) => c.name === 'sid')?.value;

/** An error answer: its status, its code (a code of that status) and, when given, its exact message. */
function expectError(
  response: { statusCode: number; body: string; json(): { message: string; code: ErrorCode } },
  status: number,
  code: ErrorCode,
  message?: string | RegExp,
) {
  expect(response.statusCode, response.body).toBe(status);
  expect(ERRORS[code].status, code).toBe(status);
  const body = response.json();
  expect(body.code).toBe(code);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
}

async function counts() {
  const { rows } = await sql.query<{ users: string; sessions: string; tokens: string; outbox: string }>(
    `SELECT (SELECT count(*) FROM auth.users) users, (SELECT count(*) FROM auth.sessions) sessions,
            (SELECT count(*) FROM auth.email_verification_tokens) tokens, (SELECT count(*) FROM auth.outbox_events) outbox`,
  );
  return rows[0];
}

/** The raw verification token the mail service would put in the link, from the relayed event. */
async function verificationFor(email: string) {
  const event = await eventually(
    () =>
      published.findLast(
        (e) => e.name === 'email_verification.requested' && (e.payload as { email: string }).email === email,
      ),
    5000,
    `verification event for ${email}`,
  );
  const payload = event.payload as { userId: string; sealedToken: string };
  return { userId: payload.userId, token: tokens.open(payload.sealedToken) };
}

/** Registers and opens the emailed link, which verifies and signs in: answers the session token (cookie). */
async function signUp(overrides: Record<string, unknown> = {}) {
  const email = String(overrides.email ?? `ada-${Math.random().toString(36).slice(2)}@example.com`);
  expect((await register({ ...overrides, email })).statusCode).toBe(201);
  const { token, userId } = await verificationFor(email.toLowerCase());
  const verified = await app().inject({ method: 'GET', url: `/api/verify-email?token=${token}&userId=${userId}` });
  expect(verified.statusCode, verified.body).toBe(200);
  return sessionCookie(verified)!;
}

/** The identity the gateway would sign for a user (whatever their session). */
const identityOf = (userId: string, email: string, emailVerified: boolean) =>
  signer.sign({ userId, sessionId: crypto.randomUUID(), email, isAdmin: false, emailVerified }, 60);

async function resolve(token: string) {
  return app().inject({
    method: 'POST',
    url: '/internal/sessions/resolve',
    headers: { ...json, 'x-internal-auth': (await import('@app/kit')).internalAuthToken(TEST_SECRET) },
    payload: { token },
  });
}

beforeAll(async () => {
  db = await freshDatabase();
  bus = await testBus(db.url);
  for (const name of [
    'user.registered',
    'email_verification.requested',
    'user.email_verified',
    'session.ended',
    'password.changed',
    'email_change.requested',
    'user.sign_up_attempted',
    'email_change.notice_requested',
    'email_change.taken_notice_requested',
    'user.email_changed',
  ] as const) {
    await bus.subscribe({
      event: name,
      subscriber: `test-${name}`,
      handle: async (event) => void published.push(event),
    });
  }
  const config = readAuthConfig({
    DATABASE_URL: db.url,
    INTERNAL_SECRET: TEST_SECRET,
    ADMIN_EMAILS: 'Boss@Example.com',
    PUBLIC_URL: 'http://localhost:3000',
    RESEND_COOLDOWN_SECONDS: '0',
  });
  service = await createAuthService({ config, bus, logger: false });
  await service.app.ready();
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});

afterAll(async () => {
  await bus?.close();
  await service?.close();
  await sql?.end();
  await db?.drop();
});

beforeEach(() => {
  published.length = 0;
});

describe('POST /api/register', () => {
  it('creates the account and queues the verification email, without a session; the link signs in', async () => {
    const response = await register({ email: 'New.User@Example.com' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.registered, emailVerificationSent: true });
    expect(response.headers['set-cookie']).toBeUndefined();

    const { rows: users } = await sql.query('SELECT email, password_hash FROM auth.users WHERE email = $1', [
      'new.user@example.com',
    ]);
    expect(users).toHaveLength(1);
    expect(users[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const { rows: sessions } = await sql.query(
      'SELECT 1 FROM auth.sessions s JOIN auth.users u ON u.id = s.user_id WHERE u.email = $1',
      ['new.user@example.com'],
    );
    expect(sessions).toHaveLength(0);

    const { token, userId } = await verificationFor('new.user@example.com');
    expect(token.length).toBeGreaterThanOrEqual(22); // >= 128 bits in base64url
    const { rows: stored } = await sql.query(
      'SELECT token_hash FROM auth.email_verification_tokens WHERE user_id = $1',
      [userId],
    );
    expect(stored).toEqual([{ token_hash: sha256(token) }]);
    // The raw token is in no table: only sealed in the event, hashed in the token table.
    const { rows: outbox } = await sql.query(
      "SELECT payload::text AS p FROM auth.outbox_events WHERE name = 'email_verification.requested'",
    );
    expect(outbox.some((row: { p: string }) => row.p.includes(token))).toBe(false);
    // Each subscriber is delivered on its own: user.registered may come after the verification event.
    await eventually(() => published.some((e) => e.name === 'user.registered'), 5000, 'user.registered');

    // Opening the emailed link verifies the address and starts a session (the cookie of this answer).
    const verified = await app().inject({ method: 'GET', url: `/api/verify-email?token=${token}&userId=${userId}` });
    expect(verified.statusCode).toBe(200);
    const cookie = verified.cookies.find((c) => c.name === 'sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie!.value.length).toBeGreaterThanOrEqual(43);
    expect((await resolve(cookie!.value)).json().identity).toMatchObject({
      userId,
      email: 'new.user@example.com',
      emailVerified: true,
    });
  });

  it('answers an address that has an account exactly as a new one, and emails its owner instead', async () => {
    await signUp({ email: 'twice@example.com', firstName: 'Grace' });
    published.length = 0;
    const before = await counts();
    const strip = (response: Awaited<ReturnType<typeof register>>) => {
      const headers: Record<string, unknown> = { ...response.headers };
      delete headers.date;
      delete headers['x-request-id'];
      return { status: response.statusCode, headers, body: response.body };
    };
    const started = performance.now();
    const taken = await register({ email: 'TWICE@example.com', password: 'another one' });
    const takenMs = performance.now() - started;
    const fresh = await register({ email: 'brand-new@example.com', password: 'another one' });
    const freshMs = performance.now() - takenMs - started;
    // Byte for byte the same answer: status, headers (no cookie in either) and body.
    expect(strip(taken)).toEqual(strip(fresh));
    expect(taken.statusCode).toBe(201);
    expect(taken.headers['set-cookie']).toBeUndefined();
    // Both hash a password: the taken address is not answered much faster.
    expect(takenMs).toBeGreaterThan(freshMs / 3);

    // Nothing changed for the existing account: no user, no link, no session; its owner is told.
    const after = await counts();
    expect(Number(after!.users)).toBe(Number(before!.users) + 1); // brand-new only
    const notice = await eventually(
      () => published.find((e) => e.name === 'user.sign_up_attempted'),
      5000,
      'user.sign_up_attempted',
    );
    expect(notice.payload).toMatchObject({ email: 'twice@example.com', firstName: 'Grace' });
    expect(
      published.filter(
        (e) =>
          e.name === 'email_verification.requested' && (e.payload as { email: string }).email === 'twice@example.com',
      ),
    ).toHaveLength(0);
    // The password of the existing account did not change.
    expect((await login('twice@example.com', 'correct horse')).statusCode).toBe(200);
  });

  it('answers concurrent sign-ups of one address alike: one account, its owner told', async () => {
    const email = `race-${Math.random().toString(36).slice(2)}@example.com`;
    const answers = await Promise.all(Array.from({ length: 4 }, () => register({ email })));
    expect(answers.map((a) => [a.statusCode, a.body])).toEqual(
      answers.map(() => [201, JSON.stringify({ message: AUTH_MESSAGES.registered, emailVerificationSent: true })]),
    );
    const { rows } = await sql.query('SELECT count(*)::int AS n FROM auth.users WHERE email = $1', [email]);
    expect(rows[0].n).toBe(1);
    const { rows: outbox } = await sql.query(
      "SELECT count(*)::int AS n FROM auth.outbox_events WHERE name = 'user.sign_up_attempted' AND payload->>'email' = $1",
      [email],
    );
    // Three attempts found the address taken (0 s cooldown here): one notice each at most.
    expect(outbox[0].n).toBeGreaterThanOrEqual(1);
    expect(outbox[0].n).toBeLessThanOrEqual(3);
  });

  it.each<[string, string | Record<string, unknown>, number, ErrorCode, string]>([
    ['malformed JSON', '{"firstName":', 400, 'MALFORMED_BODY', 'Malformed JSON body'],
    ['a wrong type', { firstName: 42 }, 400, 'VALIDATION_FAILED', 'First name is required'],
    ['a missing field', { lastName: undefined }, 400, 'VALIDATION_FAILED', 'Last name is required'],
    ['a blank company', { companyName: '   ' }, 400, 'VALIDATION_FAILED', 'Company name is required'],
    ['an unknown field', { isAdmin: true }, 400, 'VALIDATION_FAILED', 'Unrecognized key: "isAdmin"'],
    ['an invalid email', { email: 'not an email' }, 400, 'VALIDATION_FAILED', 'Please enter a valid email address'],
    ['an overlong name', { firstName: 'x'.repeat(101) }, 400, 'VALIDATION_FAILED', 'Must be at most 100 characters'],
    [
      'an overlong password',
      { password: 'x'.repeat(1001) },
      400,
      'VALIDATION_FAILED',
      'Password must be at most 1000 characters',
    ],
    [
      'an oversized body',
      { firstName: 'x'.repeat(1024 * 1024 + 10) },
      413,
      'BODY_TOO_LARGE',
      'Request body is too large',
    ],
  ])('answers %s with a clear 4xx and changes nothing', async (_case, input, status, code, message) => {
    const before = await counts();
    const payload =
      typeof input === 'string'
        ? input
        : JSON.stringify({
            firstName: 'A',
            lastName: 'B',
            companyName: 'C',
            email: 'bad-input@example.com',
            password: 'pw',
            ...input,
          });
    const response = await app().inject({ method: 'POST', url: '/api/register', headers: json, payload });
    expectError(response, status, code);
    expect(response.json().message).toContain(message);
    expect(await counts()).toEqual(before);
  });

  it('refuses a body that is not JSON', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type');
  });
});

describe('POST /api/login', () => {
  it('answers unknown emails and wrong passwords identically', async () => {
    const email = 'known@example.com';
    await register({ email, password: 'right' });
    const unknown = await login('nobody@example.com', 'whatever');
    const wrong = await login(email, 'wrong');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(unknown.json()).toEqual({
      message: AUTH_MESSAGES.invalidCredentials,
      code: 'INVALID_CREDENTIALS',
      field: 'password',
    });
  });

  it("refuses an unverified account with a message containing 'Email not verified'", async () => {
    await register({ email: 'unverified@example.com', password: 'pw' });
    const response = await login('unverified@example.com', 'pw');
    expectError(response, 403, 'LOGIN_EMAIL_NOT_VERIFIED');
    expect(response.json().message).toContain('Email not verified');
    expect(response.json().emailVerificationSent).toBe(false);
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('starts a new session after verification and ends the one the browser had', async () => {
    const oldToken = await signUp({ email: 'verified@example.com', password: 'pw' });
    const { userId } = await verificationFor('verified@example.com');

    const response = await login('VERIFIED@example.com', 'pw', { cookie: `sid=${oldToken}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.loggedIn, emailVerificationSent: false });
    const newToken = sessionCookie(response)!;
    expect(newToken).not.toBe(oldToken);
    expectError(await resolve(oldToken), 404, 'SESSION_NOT_FOUND', 'No session');
    expect((await resolve(newToken)).json().identity).toMatchObject({
      userId,
      email: 'verified@example.com',
      emailVerified: true,
      isAdmin: false,
    });
    await eventually(() => published.some((e) => e.name === 'session.ended'), 5000, 'session.ended');
  });

  it('validates input', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/login',
      headers: json,
      payload: { email: 'a@b.co' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Password is required', code: 'VALIDATION_FAILED', field: 'password' });
  });
});

describe('sessions', () => {
  it('logout deletes the session, clears the cookie and announces it', async () => {
    const token = await signUp();
    expect((await resolve(token)).statusCode).toBe(200);
    const response = await app().inject({ method: 'POST', url: '/api/logout', headers: { cookie: `sid=${token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'sid')?.value).toBe('');
    expectError(await resolve(token), 404, 'SESSION_NOT_FOUND');
    const { rows } = await sql.query('SELECT 1 FROM auth.sessions WHERE token_hash = $1', [sha256(token)]);
    expect(rows).toHaveLength(0);
    await eventually(() => published.some((e) => e.name === 'session.ended'), 5000, 'session.ended');
  });

  it('expires after the idle timeout and at the absolute expiry', async () => {
    const idle = await signUp();
    await sql.query("UPDATE auth.sessions SET last_seen_at = now() - interval '8 days' WHERE token_hash = $1", [
      sha256(idle),
    ]);
    expectError(await resolve(idle), 404, 'SESSION_NOT_FOUND');

    const old = await signUp();
    await sql.query("UPDATE auth.sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [
      sha256(old),
    ]);
    expectError(await resolve(old), 404, 'SESSION_NOT_FOUND');
  });

  it('slides the idle expiry when the session is used', async () => {
    const token = await signUp();
    await sql.query("UPDATE auth.sessions SET last_seen_at = now() - interval '2 days' WHERE token_hash = $1", [
      sha256(token),
    ]);
    expect((await resolve(token)).statusCode).toBe(200);
    const { rows } = await sql.query(
      "SELECT last_seen_at > now() - interval '1 minute' AS fresh FROM auth.sessions WHERE token_hash = $1",
      [sha256(token)],
    );
    expect(rows[0].fresh).toBe(true);
  });

  it('keeps the session resolver to internal callers', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/internal/sessions/resolve',
      headers: json,
      payload: { token: 'x' },
    });
    expectError(response, 403, 'INTERNAL_ONLY');
  });
});

describe('GET /api/user', () => {
  it('answers 401 without an identity and with a forged one', async () => {
    expectError(await app().inject({ method: 'GET', url: '/api/user' }), 401, 'UNAUTHENTICATED');
    const forged = identitySigner('another-secret-that-is-long-enough-000000').sign(
      { userId: crypto.randomUUID(), sessionId: 's', email: 'x@y.z', isAdmin: true, emailVerified: true },
      60,
    );
    const response = await app().inject({ method: 'GET', url: '/api/user', headers: { 'x-identity': forged } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
  });

  it('reads the user the gateway vouches for; administrators come from ADMIN_EMAILS once verified', async () => {
    await register({ email: 'boss@example.com', password: 'pw' });
    const { token: link, userId } = await verificationFor('boss@example.com');
    const user = await app().inject({
      method: 'GET',
      url: '/api/user',
      headers: { 'x-identity': identityOf(userId, 'boss@example.com', false) },
    });
    expect(user.json()).toMatchObject({
      email: 'boss@example.com',
      isAdmin: false,
      emailVerified: false,
      firstName: 'Ada',
    });
    expect(Date.parse(user.json().createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const opened = await app().inject({ method: 'GET', url: `/api/verify-email?token=${link}&userId=${userId}` });
    const after = (await resolve(sessionCookie(opened)!)).json().identity;
    expect(after).toMatchObject({ isAdmin: true, emailVerified: true });
    const verified = await app().inject({
      method: 'GET',
      url: '/api/user',
      headers: { 'x-identity': signer.sign(after, 60) },
    });
    expect(verified.json()).toMatchObject({ isAdmin: true, emailVerified: true });
  });
});

describe('PUT /api/user/intent (issue 12)', () => {
  it('records what the user came for, read back with the user; anything else is a 400 naming the field', async () => {
    await register({ email: 'intent@example.com' });
    const { userId } = await verificationFor('intent@example.com');
    const headers = { 'x-identity': identityOf(userId, 'intent@example.com', false) };
    const before = await app().inject({ method: 'GET', url: '/api/user', headers });
    expect(before.json().intent).toBeNull();

    const set = await app().inject({ method: 'PUT', url: '/api/user/intent', headers, payload: { intent: 'vendor' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ email: 'intent@example.com', intent: 'vendor' });
    const after = await app().inject({ method: 'GET', url: '/api/user', headers });
    expect(after.json().intent).toBe('vendor');

    const bad = await app().inject({ method: 'PUT', url: '/api/user/intent', headers, payload: { intent: 'admin' } });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.json().field).toBe('intent');
    expect((await app().inject({ method: 'GET', url: '/api/user', headers })).json().intent).toBe('vendor');
    expectError(
      await app().inject({ method: 'PUT', url: '/api/user/intent', payload: { intent: 'refer' } }),
      401,
      'UNAUTHENTICATED',
    );
  });
});

describe('GET /api/verify-email', () => {
  it('verifies once; the same link then fails', async () => {
    await register({ email: 'link@example.com' });
    const { token, userId } = await verificationFor('link@example.com');
    const first = await app().inject({ method: 'GET', url: `/api/verify-email?token=${token}&userId=${userId}` });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: AUTH_MESSAGES.verified });
    const again = await app().inject({ method: 'GET', url: `/api/verify-email?token=${token}&userId=${userId}` });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: AUTH_MESSAGES.verifyFailed, code: 'VERIFICATION_LINK_INVALID' });
    await eventually(() => published.some((e) => e.name === 'user.email_verified'), 5000, 'user.email_verified');
  });

  it('refuses a token for another user, an expired token and missing parameters', async () => {
    await register({ email: 'exp@example.com' });
    const { token, userId } = await verificationFor('exp@example.com');
    const other = await app().inject({
      method: 'GET',
      url: `/api/verify-email?token=${token}&userId=${crypto.randomUUID()}`,
    });
    expectError(other, 400, 'VERIFICATION_LINK_INVALID', AUTH_MESSAGES.verifyFailed);
    await sql.query(
      "UPDATE auth.email_verification_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [userId],
    );
    const expired = await app().inject({ method: 'GET', url: `/api/verify-email?token=${token}&userId=${userId}` });
    expectError(expired, 400, 'VERIFICATION_LINK_INVALID', AUTH_MESSAGES.verifyFailed);
    const { rows } = await sql.query('SELECT email_verified_at FROM auth.users WHERE id = $1', [userId]);
    expect(rows[0].email_verified_at).toBeNull();

    const missing = await app().inject({ method: 'GET', url: '/api/verify-email?token=abc' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      message: 'Invalid verification link. Missing token or user ID.',
      code: 'VALIDATION_FAILED',
      field: 'userId',
    });
  });
});

describe('POST /api/resend-verification', () => {
  it('answers the same for unknown, unverified and verified emails, and mails only the unverified', async () => {
    await register({ email: 'resend@example.com' });
    await verificationFor('resend@example.com');
    published.length = 0;
    const since = new Date();
    const answers = [];
    for (const email of ['resend@example.com', 'stranger@example.com', 'verified@example.com']) {
      const response = await app().inject({
        method: 'POST',
        url: '/api/resend-verification',
        headers: json,
        payload: { email },
      });
      answers.push([response.statusCode, response.json()]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual([200, { message: AUTH_MESSAGES.resendAccepted }]);
    await verificationFor('resend@example.com');
    // Queued in the same transaction as the answer: the outbox already holds every email these asked for.
    const { rows: queued } = await sql.query(
      "SELECT payload->>'email' AS email FROM auth.outbox_events WHERE name = 'email_verification.requested' AND occurred_at >= $1",
      [since],
    );
    expect(queued).toEqual([{ email: 'resend@example.com' }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(published.filter((e) => e.name === 'email_verification.requested')).toHaveLength(1);
  });

  it('replaces the previous link', async () => {
    await register({ email: 'replace@example.com' });
    const first = await verificationFor('replace@example.com');
    published.length = 0;
    await app().inject({
      method: 'POST',
      url: '/api/resend-verification',
      headers: json,
      payload: { email: 'replace@example.com' },
    });
    const second = await verificationFor('replace@example.com');
    expect(second.token).not.toBe(first.token);
    const old = await app().inject({
      method: 'GET',
      url: `/api/verify-email?token=${first.token}&userId=${first.userId}`,
    });
    expectError(old, 400, 'VERIFICATION_LINK_INVALID');
    const current = await app().inject({
      method: 'GET',
      url: `/api/verify-email?token=${second.token}&userId=${second.userId}`,
    });
    expect(current.statusCode).toBe(200);
  });

  it('validates the email', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/resend-verification',
      headers: json,
      payload: { email: 'nope' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Please enter a valid email address',
      code: 'VALIDATION_FAILED',
      field: 'email',
    });
  });
});

describe('bad input on every endpoint', () => {
  const endpoints = [
    { url: '/api/login', valid: { email: 'someone@example.com', password: 'pw' } },
    { url: '/api/resend-verification', valid: { email: 'someone@example.com' } },
    {
      url: '/api/register',
      valid: { firstName: 'A', lastName: 'B', companyName: 'C', email: 'someone@example.com', password: 'pw' },
    },
  ];
  const cases: Array<[string, (valid: Record<string, unknown>) => string, number, ErrorCode, RegExp]> = [
    ['malformed JSON', () => '{"email": "a@b.co",', 400, 'MALFORMED_BODY', /^Malformed JSON body$/],
    ['a JSON array', () => '[]', 400, 'VALIDATION_FAILED', /./],
    ['a wrong type', (v) => JSON.stringify({ ...v, email: ['a@b.co'] }), 400, 'VALIDATION_FAILED', /valid email/],
    ['a missing field', (v) => JSON.stringify({ ...v, email: undefined }), 400, 'VALIDATION_FAILED', /valid email/],
    [
      'an unknown field',
      (v) => JSON.stringify({ ...v, role: 'admin' }),
      400,
      'VALIDATION_FAILED',
      /Unrecognized key: "role"/,
    ],
    [
      'an overlong string',
      (v) => JSON.stringify({ ...v, email: `${'a'.repeat(300)}@example.com` }),
      400,
      'VALIDATION_FAILED',
      /at most 254/,
    ],
    [
      'an oversized body',
      (v) => JSON.stringify({ ...v, pad: 'x'.repeat(1024 * 1024) }),
      413,
      'BODY_TOO_LARGE',
      /too large/,
    ],
    ['an empty body', () => '', 400, 'EMPTY_BODY', /empty/i],
  ];

  for (const endpoint of endpoints) {
    it.each(cases)(
      `${endpoint.url}: %s gets a clear 4xx and changes nothing`,
      async (_name, body, status, code, message) => {
        const before = await counts();
        const response = await app().inject({
          method: 'POST',
          url: endpoint.url,
          headers: json,
          payload: body(endpoint.valid),
        });
        expectError(response, status, code, message);
        expect(await counts()).toEqual(before);
      },
    );
  }

  it('/api/verify-email: overlong and unknown parameters are refused', async () => {
    const long = await app().inject({ method: 'GET', url: `/api/verify-email?token=${'x'.repeat(500)}&userId=u` });
    expectError(long, 400, 'VALIDATION_FAILED', 'Invalid verification link.');
    const extra = await app().inject({ method: 'GET', url: '/api/verify-email?token=t&userId=u&admin=1' });
    expectError(extra, 400, 'VALIDATION_FAILED', /Unrecognized key: "admin"/);
  });

  it('/api/logout and /api/user take no input and ignore a garbage cookie', async () => {
    const logout = await app().inject({ method: 'POST', url: '/api/logout', headers: { cookie: 'sid=%%%garbage' } });
    expect(logout.statusCode).toBe(200);
    const user = await app().inject({ method: 'GET', url: '/api/user', headers: { 'x-identity': 'not.valid' } });
    expectError(user, 401, 'UNAUTHENTICATED');
  });
});

describe('account', () => {
  /** A verified user with `sessions` live sessions (the first is "this browser"), and a signed identity per session. */
  async function verifiedUser(sessionCount = 1, password = 'old password') {
    const email = `acct-${Math.random().toString(36).slice(2)}@example.com`;
    const first = await signUp({ email, password });
    const { userId } = await verificationFor(email);
    const cookies = [first];
    for (let i = 1; i < sessionCount; i++) cookies.push(sessionCookie(await login(email, password))!);
    const headersFor = async (cookie: string) => ({
      ...json,
      'x-identity': signer.sign((await resolve(cookie)).json().identity, 60),
    });
    return { email, userId, password, cookies, headers: await headersFor(first) };
  }

  const post = (url: string, headers: Record<string, string>, payload: unknown) =>
    app().inject({ method: 'POST', url, headers, payload: JSON.stringify(payload) });
  const passwordHash = async (userId: string) =>
    (await sql.query('SELECT password_hash FROM auth.users WHERE id = $1', [userId])).rows[0].password_hash as string;
  const emailOf = async (userId: string) =>
    (await sql.query('SELECT email, email_verified_at FROM auth.users WHERE id = $1', [userId])).rows[0] as {
      email: string;
      email_verified_at: Date | null;
    };

  async function changeLink(newEmail: string) {
    const event = await eventually(
      () =>
        published.findLast(
          (e) => e.name === 'email_change.requested' && (e.payload as { newEmail: string }).newEmail === newEmail,
        ),
      5000,
      `email change event for ${newEmail}`,
    );
    const payload = event.payload as { userId: string; sealedToken: string };
    return { userId: payload.userId, token: tokens.open(payload.sealedToken) };
  }
  const open = (link: { token: string; userId: string }) =>
    app().inject({ method: 'GET', url: `/api/verify-email?token=${link.token}&userId=${link.userId}` });

  describe('POST /api/account/password', () => {
    it('needs a user', async () => {
      const response = await post('/api/account/password', json, {
        currentPassword: 'a',
        newPassword: 'b',
        confirmPassword: 'b',
      });
      expectError(response, 401, 'UNAUTHENTICATED');
    });

    it('refuses a wrong current password (403) and a mismatched confirmation (400), changing nothing', async () => {
      const user = await verifiedUser(2);
      const hash = await passwordHash(user.userId);
      const before = await counts();
      const wrong = await post('/api/account/password', user.headers, {
        currentPassword: 'nope',
        newPassword: 'new password',
        confirmPassword: 'new password',
      });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual({
        message: ACCOUNT_MESSAGES.wrongPassword,
        code: 'WRONG_PASSWORD',
        field: 'currentPassword',
      });
      const mismatch = await post('/api/account/password', user.headers, {
        currentPassword: user.password,
        newPassword: 'new password',
        confirmPassword: 'other',
      });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.json()).toEqual({
        message: 'Passwords do not match',
        code: 'VALIDATION_FAILED',
        field: 'confirmPassword',
      });
      const missing = await post('/api/account/password', user.headers, { newPassword: 'x', confirmPassword: 'x' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({
        message: 'Current password is required',
        code: 'VALIDATION_FAILED',
        field: 'currentPassword',
      });
      expect(await passwordHash(user.userId)).toBe(hash);
      expect(await counts()).toEqual(before);
      for (const cookie of user.cookies) expect((await resolve(cookie)).statusCode).toBe(200);
    });

    it('changes the password, ends the other sessions (announced), keeps this one and queues the notice', async () => {
      const user = await verifiedUser(3);
      const { rows: others } = await sql.query('SELECT id FROM auth.sessions WHERE token_hash = ANY($1)', [
        user.cookies.slice(1).map(sha256),
      ]);
      expect(others).toHaveLength(2);
      published.length = 0;
      const response = await post('/api/account/password', user.headers, {
        currentPassword: user.password,
        newPassword: 'new password',
        confirmPassword: 'new password',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: ACCOUNT_MESSAGES.passwordChanged });
      expect(await passwordHash(user.userId)).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);

      expect((await resolve(user.cookies[0]!)).statusCode).toBe(200);
      expectError(await resolve(user.cookies[1]!), 404, 'SESSION_NOT_FOUND');
      expectError(await resolve(user.cookies[2]!), 404, 'SESSION_NOT_FOUND');
      // Each event name has its own subscriber (its own queue): wait for all of them.
      const ended = () =>
        published.filter((e) => e.name === 'session.ended').map((e) => (e.payload as { sessionId: string }).sessionId);
      await eventually(() => published.some((e) => e.name === 'password.changed'), 5000, 'password.changed');
      await eventually(() => ended().length >= others.length, 5000, 'session.ended for every other session');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(ended().sort()).toEqual(others.map((r: { id: string }) => r.id).sort());
      expect(published.find((e) => e.name === 'password.changed')!.payload).toEqual({
        userId: user.userId,
        email: user.email,
        firstName: 'Ada',
      });

      expectError(await login(user.email, user.password), 401, 'INVALID_CREDENTIALS');
      expect((await login(user.email, 'new password')).statusCode).toBe(200);
    });

    it('changes it once when several changes are sent at once with the same current password', async () => {
      const user = await verifiedUser();
      published.length = 0;
      const wanted = ['first new password', 'second new password', 'third new password'];
      const answers = await Promise.all(
        wanted.map((newPassword) =>
          post('/api/account/password', user.headers, {
            currentPassword: user.password,
            newPassword,
            confirmPassword: newPassword,
          }),
        ),
      );
      // One wins; the others are told the current password is no longer right (next to its field).
      const won = answers.flatMap((answer, i) => (answer.statusCode === 200 ? [wanted[i]!] : []));
      expect(won).toHaveLength(1);
      for (const answer of answers.filter((a) => a.statusCode !== 200))
        expect(answer.json()).toEqual({
          message: ACCOUNT_MESSAGES.wrongPassword,
          code: 'WRONG_PASSWORD',
          field: 'currentPassword',
        });
      // The password that works is the one its caller was told was saved, and one notice went out.
      expect((await login(user.email, won[0]!)).statusCode).toBe(200);
      for (const lost of wanted.filter((p) => p !== won[0]))
        expectError(await login(user.email, lost), 401, 'INVALID_CREDENTIALS');
      await eventually(() => published.some((e) => e.name === 'password.changed'), 5000, 'password.changed');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(published.filter((e) => e.name === 'password.changed')).toHaveLength(1);
    });
  });

  describe('POST /api/account/email', () => {
    it('needs a user, the right password and another address', async () => {
      expectError(
        await post('/api/account/email', json, { newEmail: 'x@example.com', password: 'pw' }),
        401,
        'UNAUTHENTICATED',
      );
      const user = await verifiedUser();
      const before = await counts();
      const wrong = await post('/api/account/email', user.headers, { newEmail: 'fresh@example.com', password: 'nope' });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual({
        message: ACCOUNT_MESSAGES.wrongPassword,
        code: 'WRONG_PASSWORD',
        field: 'password',
      });
      const same = await post('/api/account/email', user.headers, {
        newEmail: user.email.toUpperCase(),
        password: user.password,
      });
      expect(same.statusCode).toBe(400);
      expect(same.json()).toEqual({ message: ACCOUNT_MESSAGES.sameEmail, code: 'SAME_EMAIL' });
      const invalid = await post('/api/account/email', user.headers, {
        newEmail: 'not an email',
        password: user.password,
      });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json()).toEqual({
        message: 'Please enter a valid email address',
        code: 'VALIDATION_FAILED',
        field: 'newEmail',
      });
      expect(await counts()).toEqual(before);
    });

    it('answers a change to an address that has an account as to a free one: no link, its owner told', async () => {
      const user = await verifiedUser();
      const holder = await verifiedUser();
      const strip = (response: Awaited<ReturnType<typeof post>>) => {
        const headers: Record<string, unknown> = { ...response.headers };
        delete headers.date;
        delete headers['x-request-id'];
        return { status: response.statusCode, headers, body: response.body };
      };
      const free = `free-${Math.random().toString(36).slice(2)}@example.com`;
      const freeAnswer = await post('/api/account/email', user.headers, { newEmail: free, password: user.password });
      const pending = await changeLink(free);
      published.length = 0;

      const takenAnswer = await post('/api/account/email', user.headers, {
        newEmail: holder.email.toUpperCase(),
        password: user.password,
      });
      // Byte for byte the answer a free address gets: whether an address has an account is not told.
      expect(strip(takenAnswer)).toEqual(strip(freeAnswer));
      expect(takenAnswer.json()).toEqual({ message: ACCOUNT_MESSAGES.emailChangeSent });

      // What the requester can see is what a free address does: the earlier pending change is cancelled and
      // the current address is told of the request.
      expectError(await open(pending), 400, 'VERIFICATION_LINK_INVALID');
      const notice = await eventually(
        () => published.find((e) => e.name === 'email_change.notice_requested'),
        5000,
        'email_change.notice_requested',
      );
      expect(notice.payload).toMatchObject({ userId: user.userId, email: user.email, newEmail: holder.email });
      // The address's owner is told instead; no link to the address exists, nothing changed for either account.
      const told = await eventually(
        () => published.find((e) => e.name === 'email_change.taken_notice_requested'),
        5000,
        'email_change.taken_notice_requested',
      );
      expect(told.payload).toEqual({ userId: holder.userId, email: holder.email, firstName: 'Ada' });
      expect(published.filter((e) => e.name === 'email_change.requested')).toHaveLength(0);
      const { rows: links } = await sql.query(
        'SELECT count(*)::int AS n FROM auth.email_verification_tokens WHERE user_id = $1 AND used_at IS NULL',
        [user.userId],
      );
      expect(links[0].n).toBe(0);
      expect((await emailOf(user.userId)).email).toBe(user.email);
      expect((await emailOf(holder.userId)).email).toBe(holder.email);
      expect((await login(holder.email, holder.password)).statusCode).toBe(200);
      expect((await login(user.email, user.password)).statusCode).toBe(200);
    });

    it("answers two users asking for each other's address at once, every time", async () => {
      const [a, b] = [await verifiedUser(), await verifiedUser()];
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all([
          post('/api/account/email', a.headers, { newEmail: b.email, password: a.password }),
          post('/api/account/email', b.headers, { newEmail: a.email, password: b.password }),
        ]);
        expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      }
      expect((await emailOf(a.userId)).email).toBe(a.email);
      expect((await emailOf(b.userId)).email).toBe(b.email);
    });

    it('changes the email only when the link sent to the new address is opened, once', async () => {
      const user = await verifiedUser();
      const newEmail = `moved-${Math.random().toString(36).slice(2)}@example.com`;
      const response = await post('/api/account/email', user.headers, {
        newEmail: newEmail.toUpperCase(),
        password: user.password,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: ACCOUNT_MESSAGES.emailChangeSent });
      const link = await changeLink(newEmail);
      expect(link.userId).toBe(user.userId);
      const { rows } = await sql.query(
        'SELECT new_email, token_hash FROM auth.email_verification_tokens WHERE user_id = $1 AND used_at IS NULL',
        [user.userId],
      );
      expect(rows).toEqual([{ new_email: newEmail, token_hash: sha256(link.token) }]);

      // Until the link is opened, the old address is the account's.
      expect((await emailOf(user.userId)).email).toBe(user.email);
      expect((await login(user.email, user.password)).statusCode).toBe(200);
      expectError(await login(newEmail, user.password), 401, 'INVALID_CREDENTIALS');

      const opened = await open(link);
      expect(opened.statusCode).toBe(200);
      expect(opened.json()).toEqual({ message: 'Your email address has been changed', redirectUrl: '/account' });
      const after = await emailOf(user.userId);
      expect(after.email).toBe(newEmail);
      expect(after.email_verified_at).not.toBeNull();
      expect((await login(newEmail, user.password)).statusCode).toBe(200);
      expectError(await login(user.email, user.password), 401, 'INVALID_CREDENTIALS');
      expect((await resolve(user.cookies[0]!)).json().identity.email).toBe(newEmail);
      // Copies of the address follow the move, also for an account verified before (profiles, gateway cache).
      await eventually(
        () =>
          published.some(
            (e) =>
              e.name === 'user.email_verified' &&
              (e.payload as { userId: string; email: string }).userId === user.userId &&
              (e.payload as { email: string }).email === newEmail,
          ),
        5000,
        'user.email_verified with the new address',
      );

      const again = await open(link);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ message: AUTH_MESSAGES.verifyFailed, code: 'VERIFICATION_LINK_INVALID' });
    });

    it('keeps a pending change when a verification link is resent, and vice versa', async () => {
      // An unverified user (a session from before sessions waited for verification) asks for a change, then
      // for a new verification link.
      const email = `pending-${Math.random().toString(36).slice(2)}@example.com`;
      await register({ email, password: 'pw' });
      const first = await verificationFor(email);
      const headers = { ...json, 'x-identity': identityOf(first.userId, email, false) };
      const newEmail = `pending-new-${Math.random().toString(36).slice(2)}@example.com`;
      expect((await post('/api/account/email', headers, { newEmail, password: 'pw' })).statusCode).toBe(200);
      const change = await changeLink(newEmail);
      // The change request left the ordinary verification link alone.
      const { rows: pending } = await sql.query(
        'SELECT token_hash FROM auth.email_verification_tokens WHERE user_id = $1 AND new_email IS NULL AND used_at IS NULL',
        [first.userId],
      );
      expect(pending).toEqual([{ token_hash: sha256(first.token) }]);
      published.length = 0;
      expect((await post('/api/resend-verification', json, { email })).statusCode).toBe(200);
      const second = await verificationFor(email);
      expect(second.token).not.toBe(first.token);
      // The resend replaced the old verification link, not the change link.
      expectError(await open(first), 400, 'VERIFICATION_LINK_INVALID');
      const opened = await open(change);
      expect(opened.statusCode).toBe(200);
      expect(opened.json().message).toBe('Your email address has been changed');
      // Opening the change link proved the new address: the account is verified at it.
      const after = await emailOf(first.userId);
      expect(after).toMatchObject({ email: newEmail });
      expect(after.email_verified_at).not.toBeNull();
      await eventually(
        () =>
          published.some(
            (e) => e.name === 'user.email_verified' && (e.payload as { email: string }).email === newEmail,
          ),
        5000,
        'user.email_verified',
      );
      expect((await login(newEmail, 'pw')).statusCode).toBe(200);
    });

    it('a new request replaces the previous change link', async () => {
      const user = await verifiedUser();
      const a = `first-${Math.random().toString(36).slice(2)}@example.com`;
      const b = `second-${Math.random().toString(36).slice(2)}@example.com`;
      await post('/api/account/email', user.headers, { newEmail: a, password: user.password });
      const linkA = await changeLink(a);
      await post('/api/account/email', user.headers, { newEmail: b, password: user.password });
      const linkB = await changeLink(b);
      expectError(await open(linkA), 400, 'VERIFICATION_LINK_INVALID');
      expect((await open(linkB)).statusCode).toBe(200);
      expect((await emailOf(user.userId)).email).toBe(b);
    });

    it('refuses the link when another account took the address meanwhile', async () => {
      const user = await verifiedUser();
      const contested = `contested-${Math.random().toString(36).slice(2)}@example.com`;
      await post('/api/account/email', user.headers, { newEmail: contested, password: user.password });
      const link = await changeLink(contested);
      expect((await register({ email: contested })).statusCode).toBe(201);
      const opened = await open(link);
      expect(opened.statusCode).toBe(400);
      expect(opened.json()).toEqual({
        message:
          'This email address is now used by another account, so your email was not changed. Please request the change again with another address.',
        code: 'EMAIL_CHANGE_TAKEN',
      });
      expect((await emailOf(user.userId)).email).toBe(user.email);
    });

    it('is cancelled by a password change; the old address is told of the request and of the change', async () => {
      const user = await verifiedUser(2);
      const stolen = `attacker-${Math.random().toString(36).slice(2)}@example.com`;
      expect(
        (await post('/api/account/email', user.headers, { newEmail: stolen, password: user.password })).statusCode,
      ).toBe(200);
      const link = await changeLink(stolen);
      const notice = await eventually(
        () =>
          published.find(
            (e) =>
              e.name === 'email_change.notice_requested' && (e.payload as { userId: string }).userId === user.userId,
          ),
        5000,
        'email_change.notice_requested',
      );
      // To the CURRENT address, naming the new one.
      expect(notice.payload).toEqual({ userId: user.userId, email: user.email, newEmail: stolen, firstName: 'Ada' });

      const changed = await post('/api/account/password', user.headers, {
        currentPassword: user.password,
        newPassword: 'new password',
        confirmPassword: 'new password',
      });
      expect(changed.statusCode).toBe(200);
      const { rows } = await sql.query(
        'SELECT count(*)::int AS n FROM auth.email_verification_tokens WHERE user_id = $1 AND new_email IS NOT NULL',
        [user.userId],
      );
      expect(rows[0].n).toBe(0);
      expectError(await open(link), 400, 'VERIFICATION_LINK_INVALID');
      expect((await emailOf(user.userId)).email).toBe(user.email);
      // ...and, as before, the other session ended.
      expectError(await resolve(user.cookies[1]!), 404, 'SESSION_NOT_FOUND');

      // A change the owner confirms is announced with both addresses (the old one is told).
      const moved = `moved-${Math.random().toString(36).slice(2)}@example.com`;
      await post('/api/account/email', user.headers, { newEmail: moved, password: 'new password' });
      expect((await open(await changeLink(moved))).statusCode).toBe(200);
      const done = await eventually(
        () =>
          published.find(
            (e) => e.name === 'user.email_changed' && (e.payload as { userId: string }).userId === user.userId,
          ),
        5000,
        'user.email_changed',
      );
      expect(done.payload).toEqual({ userId: user.userId, oldEmail: user.email, newEmail: moved, firstName: 'Ada' });
      expect(
        published.filter(
          (e) => e.name === 'user.email_changed' && (e.payload as { userId: string }).userId === user.userId,
        ),
      ).toHaveLength(1);
    });
  });
});

describe('per-address login backoff (issue 11)', () => {
  const lockOf = async (email: string) =>
    (
      await sql.query(
        'SELECT failures, extract(epoch from locked_until - now()) AS seconds FROM auth.login_failures WHERE email = $1',
        [email],
      )
    ).rows[0] as { failures: number; seconds: string | null } | undefined;
  const expire = (email: string) =>
    sql.query("UPDATE auth.login_failures SET locked_until = now() - interval '1 second' WHERE email = $1", [email]);
  const tally = (responses: Array<{ statusCode: number; body: string }>) => {
    const byAnswer = new Map<string, number>();
    for (const r of responses) {
      const key = `${r.statusCode} ${r.body}`;
      byAnswer.set(key, (byAnswer.get(key) ?? 0) + 1);
    }
    return Object.fromEntries(byAnswer);
  };
  const wait = (minutes: number) =>
    JSON.stringify({
      message: `Too many failed attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`,
      code: 'LOGIN_BACKOFF',
    });
  const invalid = JSON.stringify({
    message: AUTH_MESSAGES.invalidCredentials,
    code: 'INVALID_CREDENTIALS',
    field: 'password',
  });

  it('20 parallel wrong passwords: exactly 5 checked, then locked 1 minute; the right one is refused meanwhile', async () => {
    const email = `victim-${Math.random().toString(36).slice(2)}@example.com`;
    await signUp({ email, password: 'right password' });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(email, `guess ${i}`)));
    // Four plain refusals; the fifth failure started the lock and says so, as does every attempt after it.
    expect(tally(answers)).toEqual({ [`401 ${invalid}`]: 4, [`429 ${wait(1)}`]: 16 });
    const lock = await lockOf(email);
    expect(lock?.failures).toBe(5);
    expect(Number(lock?.seconds)).toBeGreaterThan(50);
    expect(Number(lock?.seconds)).toBeLessThanOrEqual(60);

    const right = await login(email, 'right password');
    expectError(right, 429, 'LOGIN_BACKOFF', 'Too many failed attempts. Please wait 1 minute and try again.');
    expect(sessionCookie(right)).toBeUndefined();
    expect((await lockOf(email))?.failures).toBe(5); // refused without counting

    // Once the delay is over the right password works, and the streak is gone.
    await expire(email);
    const after = await login(email, 'right password');
    expect(after.statusCode).toBe(200);
    expect(sessionCookie(after)).toBeDefined();
    expect(await lockOf(email)).toBeUndefined();
  });

  it('answers an unknown address exactly like a known one (no enumeration through the lock)', async () => {
    const known = `known-${Math.random().toString(36).slice(2)}@example.com`;
    const unknown = `nobody-${Math.random().toString(36).slice(2)}@example.com`;
    await signUp({ email: known, password: 'right password' });
    const a = await Promise.all(Array.from({ length: 8 }, () => login(known, 'wrong')));
    const b = await Promise.all(Array.from({ length: 8 }, () => login(unknown, 'wrong')));
    expect(tally(a)).toEqual(tally(b));
    expect(tally(b)).toEqual({ [`401 ${invalid}`]: 4, [`429 ${wait(1)}`]: 4 });
  });

  it('grows the delay 1, 2, 4 ... up to 15 minutes; a success resets the streak', async () => {
    const email = `slow-${Math.random().toString(36).slice(2)}@example.com`;
    await signUp({ email, password: 'right password' });
    for (let i = 0; i < 3; i++) expect((await login(email, 'wrong')).statusCode).toBe(401);
    expect((await lockOf(email))?.failures).toBe(3);
    expect((await login(email, 'right password')).statusCode).toBe(200);
    expect(await lockOf(email)).toBeUndefined();

    for (let i = 0; i < 4; i++) await login(email, 'wrong');
    expect((await login(email, 'wrong')).body).toBe(wait(1));
    await expire(email);
    expect((await login(email, 'wrong')).body).toBe(wait(2));
    await expire(email);
    expect((await login(email, 'wrong')).body).toBe(wait(4));
    await sql.query('UPDATE auth.login_failures SET failures = 20 WHERE email = $1', [email]);
    await expire(email);
    expect((await login(email, 'wrong')).body).toBe(wait(15));
    const lock = await lockOf(email);
    expect(lock?.failures).toBe(21);
    expect(Number(lock?.seconds)).toBeGreaterThan(14 * 60);
    expect(Number(lock?.seconds)).toBeLessThanOrEqual(15 * 60);
  });

  it('starts a new streak after a day without failures', async () => {
    const email = `old-${Math.random().toString(36).slice(2)}@example.com`;
    for (let i = 0; i < 4; i++) await login(email, 'wrong');
    await sql.query("UPDATE auth.login_failures SET updated_at = now() - interval '25 hours' WHERE email = $1", [
      email,
    ]);
    expect((await login(email, 'wrong')).statusCode).toBe(401);
    expect((await lockOf(email))?.failures).toBe(1);
  });
});
