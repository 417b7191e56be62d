/**
 * Attacks on accounts, links and sessions (what auth.test.ts does not already cover): addresses a mailer
 * reads as another address, links used for another purpose or twice at once, session fixation through a
 * link, cookie flags over https, identities of users that are gone, password guessing through the
 * Account screen.
 */
import { createHash } from 'node:crypto';
import { AUTH_MESSAGES, type EventEnvelope } from '@app/contracts';
import { emailOnDomain } from '@app/domain';
import { identitySigner, internalAuthToken, sealer, type EventBus } from '@app/kit';
import { eventually, freshDatabase, TEST_SECRET, testBus } from '@app/testing';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readAuthConfig } from '../src/config.ts';
import { createAuthService, type AuthService } from '../src/service.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let service: AuthService;
/** The same service served over https (PUBLIC_URL), on the same database. */
let secure: AuthService;
let bus: EventBus;
let sql: pg.Pool;
const published: EventEnvelope[] = [];
const signer = identitySigner(TEST_SECRET);
const tokens = sealer(TEST_SECRET, 'email-verification');
const json = { 'content-type': 'application/json' };
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2)}`;

const app = () => service.app;

const register = (email: string, password = 'correct horse') =>
  app().inject({
    method: 'POST',
    url: '/api/register',
    headers: json,
    payload: { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Analytical Ltd', email, password },
  });

const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  app().inject({ method: 'POST', url: '/api/login', headers: { ...json, ...headers }, payload: { email, password } });

const open = (link: { token: string; userId: string }, headers: Record<string, string> = {}) =>
  app().inject({ method: 'GET', url: `/api/verify-email?token=${link.token}&userId=${link.userId}`, headers });

const post = (url: string, headers: Record<string, string>, payload: unknown) =>
  app().inject({ method: 'POST', url, headers: { ...json, ...headers }, payload: JSON.stringify(payload) });

const sessionCookie = (response: { cookies: Array<{ name: string; value: string }> }) =>
  response.cookies.find((c) => c.name === 'sid')?.value;

async function resolve(token: string) {
  return app().inject({
    method: 'POST',
    url: '/internal/sessions/resolve',
    headers: { ...json, 'x-internal-auth': internalAuthToken(TEST_SECRET) },
    payload: { token },
  });
}

async function linkFor(name: 'email_verification.requested' | 'email_change.requested', match: (p: never) => boolean) {
  const event = await eventually(
    () => published.findLast((e) => e.name === name && match(e.payload as never)),
    5000,
    name,
  );
  const payload = event.payload as { userId: string; sealedToken: string };
  return { userId: payload.userId, token: tokens.open(payload.sealedToken) };
}
const verificationFor = (email: string) =>
  linkFor('email_verification.requested', (p: { email: string }) => p.email === email);
const changeLinkFor = (newEmail: string) =>
  linkFor('email_change.requested', (p: { newEmail: string }) => p.newEmail === newEmail);

/** A verified, signed-in user: the session token and the identity the gateway would sign for it. */
async function verifiedUser(password = 'old password') {
  const email = `${unique('user')}@example.com`;
  expect((await register(email, password)).statusCode).toBe(201);
  const link = await verificationFor(email);
  const opened = await open(link);
  expect(opened.statusCode, opened.body).toBe(200);
  const token = sessionCookie(opened)!;
  const identity = (await resolve(token)).json().identity;
  return { email, password, userId: link.userId, token, headers: { 'x-identity': signer.sign(identity, 60) } };
}

beforeAll(async () => {
  db = await freshDatabase();
  bus = await testBus(db.url);
  for (const name of ['email_verification.requested', 'email_change.requested', 'session.ended'] as const) {
    await bus.subscribe({ event: name, subscriber: `attack-${name}`, handle: async (e) => void published.push(e) });
  }
  const env = { DATABASE_URL: db.url, INTERNAL_SECRET: TEST_SECRET, RESEND_COOLDOWN_SECONDS: '0' };
  service = await createAuthService({
    config: readAuthConfig({ ...env, PUBLIC_URL: 'http://localhost:3000' }),
    bus,
    logger: false,
  });
  await service.app.ready();
  secure = await createAuthService({
    config: readAuthConfig({ ...env, PUBLIC_URL: 'https://app.example.com' }),
    bus,
    logger: false,
  });
  await secure.app.ready();
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});

afterAll(async () => {
  await bus?.close();
  await secure?.close();
  await service?.close();
  await sql?.end();
  await db?.drop();
});

beforeEach(() => {
  published.length = 0;
});

describe('addresses a mailer reads as another address', () => {
  // Each has one at sign, a dot after it and no space (spec 5's shape), and its domain reads as a subdomain
  // of acme.com, so it would prove a vendor workspace of acme.com; nodemailer delivers it to me@evil.com.
  const smuggledAs = (me: string) => [
    `${me}@evil.com,x.acme.com`,
    `${me}@evil.com;x.acme.com`,
    `x<${me}@evil.com>.acme.com`,
    `${me}@evil.com(x).acme.com`,
    `"${me}@evil.com"x.acme.com`,
  ];
  const smuggled = smuggledAs('me');

  it('they are a real threat: delivered to the attacker, read as an address at acme.com', async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
    for (const address of smuggled.slice(0, 3)) {
      const sent = await transport.sendMail({ from: 'a@b.co', to: [address], subject: 's', text: 't' });
      expect(sent.envelope.to).toEqual(['me@evil.com']);
      expect(emailOnDomain(address, 'acme.com')).toBe(true);
    }
  });

  it.each(smuggled)('sign-up refuses %s with the spec message and stores nothing', async (address) => {
    const response = await register(address);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      message: 'Please enter a valid email address',
      code: 'VALIDATION_FAILED',
      field: 'email',
    });
    const { rows } = await sql.query('SELECT 1 FROM auth.users WHERE email = $1', [address.toLowerCase()]);
    expect(rows).toHaveLength(0);
  });

  it.each(smuggledAs('you'))('an email change refuses %s and sends no link', async (address) => {
    const user = await verifiedUser();
    const response = await post('/api/account/email', user.headers, { newEmail: address, password: user.password });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      message: 'Please enter a valid email address',
      code: 'VALIDATION_FAILED',
      field: 'newEmail',
    });
    const { rows } = await sql.query(
      'SELECT 1 FROM auth.email_verification_tokens WHERE user_id = $1 AND new_email IS NOT NULL',
      [user.userId],
    );
    expect(rows).toHaveLength(0);
  });

  it('still takes ordinary addresses: plus tags, dots, hyphens, subdomains, international domains', async () => {
    for (const address of [
      `${unique('first.last+tag')}@mail.example-corp.co.uk`,
      `${unique('o_neil')}@example.com`,
      `${unique('ana')}@münchen.example.de`,
    ]) {
      const response = await register(address);
      expect(response.statusCode, `${address}: ${response.body}`).toBe(201);
    }
  });
});

describe('links are bound to their purpose, their user and one use', () => {
  it('an email-change link changes the address only: no session, no cookie', async () => {
    const user = await verifiedUser();
    const newEmail = `${unique('moved')}@example.com`;
    expect((await post('/api/account/email', user.headers, { newEmail, password: user.password })).statusCode).toBe(
      200,
    );
    const link = await changeLinkFor(newEmail);
    const before = (await sql.query('SELECT count(*)::int AS n FROM auth.sessions WHERE user_id = $1', [user.userId]))
      .rows[0].n;
    const opened = await open(link);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['set-cookie']).toBeUndefined();
    const after = (await sql.query('SELECT count(*)::int AS n FROM auth.sessions WHERE user_id = $1', [user.userId]))
      .rows[0].n;
    expect(after).toBe(before);
  });

  it('an email-change link past its expiry is refused and changes nothing', async () => {
    const user = await verifiedUser();
    const newEmail = `${unique('late')}@example.com`;
    await post('/api/account/email', user.headers, { newEmail, password: user.password });
    const link = await changeLinkFor(newEmail);
    await sql.query(
      "UPDATE auth.email_verification_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [user.userId],
    );
    const opened = await open(link);
    expect(opened.statusCode).toBe(400);
    expect(opened.json()).toEqual({ message: AUTH_MESSAGES.verifyFailed, code: 'VERIFICATION_LINK_INVALID' });
    const { rows } = await sql.query('SELECT email FROM auth.users WHERE id = $1', [user.userId]);
    expect(rows[0].email).toBe(user.email);
  });

  it('opened many times at once, a verification link signs in exactly once', async () => {
    const email = `${unique('race')}@example.com`;
    await register(email);
    const link = await verificationFor(email);
    const answers = await Promise.all(Array.from({ length: 8 }, () => open(link)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(7);
    const { rows } = await sql.query('SELECT count(*)::int AS n FROM auth.sessions WHERE user_id = $1', [link.userId]);
    expect(rows[0].n).toBe(1);
  });
});

describe('sessions', () => {
  it('opening a link ends the session a planted cookie names (no fixation), and issues a new token', async () => {
    // The attacker's own session, planted in the victim's browser before the victim opens their link.
    const attacker = await verifiedUser();
    const email = `${unique('victim')}@example.com`;
    await register(email);
    const link = await verificationFor(email);
    const opened = await open(link, { cookie: `sid=${attacker.token}` });
    expect(opened.statusCode).toBe(200);
    const token = sessionCookie(opened)!;
    expect(token).not.toBe(attacker.token);
    expect((await resolve(attacker.token)).statusCode).toBe(404);
    expect((await resolve(token)).json().identity.userId).toBe(link.userId);
  });

  it('a login never keeps a token the browser brought, whatever it is', async () => {
    const user = await verifiedUser();
    const planted = 'attacker-chosen-token-value-0000000000000000';
    const response = await login(user.email, user.password, { cookie: `sid=${planted}` });
    expect(response.statusCode).toBe(200);
    expect(sessionCookie(response)).not.toBe(planted);
    expect((await resolve(planted)).statusCode).toBe(404);
  });

  it('after a password change the old password fails and every other session is gone', async () => {
    const user = await verifiedUser();
    const other = sessionCookie(await login(user.email, user.password))!;
    const changed = await post('/api/account/password', user.headers, {
      currentPassword: user.password,
      newPassword: 'brand new password',
      confirmPassword: 'brand new password',
    });
    expect(changed.statusCode).toBe(200);
    expect((await resolve(other)).statusCode).toBe(404);
    expect((await resolve(user.token)).statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, 'brand new password')).statusCode).toBe(200);
  });

  it('cookies are HttpOnly, SameSite=Lax, Path=/ and Secure when the app is served over https', async () => {
    const email = `${unique('https')}@example.com`;
    await register(email);
    const link = await verificationFor(email);
    const opened = await secure.app.inject({
      method: 'GET',
      url: `/api/verify-email?token=${link.token}&userId=${link.userId}`,
    });
    expect(opened.statusCode).toBe(200);
    const cookie = opened.cookies.find((c) => c.name === 'sid');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    const loggedIn = await secure.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: json,
      payload: { email, password: 'correct horse' },
    });
    expect(loggedIn.cookies.find((c) => c.name === 'sid')).toMatchObject({ httpOnly: true, secure: true });
    const out = await secure.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie: `sid=${sessionCookie(loggedIn)}` },
    });
    // Cleared with the same flags, so the browser replaces the cookie it has.
    expect(out.cookies.find((c) => c.name === 'sid')).toMatchObject({ value: '', httpOnly: true, secure: true });
  });

  it('the session store holds only hashes: a token read from the database signs nobody in', async () => {
    const user = await verifiedUser();
    const { rows } = await sql.query('SELECT token_hash FROM auth.sessions WHERE user_id = $1', [user.userId]);
    expect(rows).toEqual([{ token_hash: sha256(user.token) }]);
    expect((await resolve(rows[0].token_hash)).statusCode).toBe(404);
  });
});

describe('identities of users that are gone', () => {
  it('a correctly signed identity of a user that does not exist (any more) is refused everywhere', async () => {
    const ghost = signer.sign(
      {
        userId: crypto.randomUUID(),
        sessionId: crypto.randomUUID(),
        email: 'ghost@example.com',
        isAdmin: false,
        emailVerified: true,
      },
      60,
    );
    const headers = { 'x-identity': ghost };
    expect((await app().inject({ method: 'GET', url: '/api/user', headers })).statusCode).toBe(401);
    expect(
      (await app().inject({ method: 'PUT', url: '/api/user/intent', headers, payload: { intent: 'refer' } }))
        .statusCode,
    ).toBe(401);
    const change = await post('/api/account/password', headers, {
      currentPassword: 'x',
      newPassword: 'y',
      confirmPassword: 'y',
    });
    expect(change.statusCode).toBe(401);
    const email = await post('/api/account/email', headers, { newEmail: 'new@example.com', password: 'x' });
    expect(email.statusCode).toBe(401);
  });
});

describe('password guessing through the Account screen', () => {
  it('wrong current passwords count towards the per-address lock, as wrong logins do', async () => {
    const user = await verifiedUser();
    const guess = (i: number) =>
      post('/api/account/password', user.headers, {
        currentPassword: `guess ${i}`,
        newPassword: 'taken over',
        confirmPassword: 'taken over',
      });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await guess(i));
    expect(answers.slice(0, 4).map((a) => a.statusCode)).toEqual([403, 403, 403, 403]);
    // The fifth failure locks the address; the sixth is not even checked.
    expect(answers[5]!.statusCode).toBe(429);
    expect(answers[5]!.json().code).toBe('LOGIN_BACKOFF');
    // Locked: the right password is refused too (through the email change as well), nothing changes.
    const right = await post('/api/account/email', user.headers, {
      newEmail: `${unique('stolen')}@example.com`,
      password: user.password,
    });
    expect(right.statusCode).toBe(429);
    expect((await login(user.email, user.password)).statusCode).toBe(429);
    // Once the lock is over, the right password works and clears the streak.
    await sql.query("UPDATE auth.login_failures SET locked_until = now() - interval '1 second' WHERE email = $1", [
      user.email,
    ]);
    const ok = await post('/api/account/password', user.headers, {
      currentPassword: user.password,
      newPassword: 'new one',
      confirmPassword: 'new one',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const { rows } = await sql.query('SELECT 1 FROM auth.login_failures WHERE email = $1', [user.email]);
    expect(rows).toHaveLength(0);
  });
});
