/**
 * Attacks on the gateway's session handling that gateway.test.ts does not cover: rate limits dodged with a
 * forged X-Forwarded-For behind a proxy, cross-site requests in their odd forms (Origin null, look-alike
 * origins, logging a victim out or in), identities replayed by a client, HSTS over https.
 */
import { createHash } from 'node:crypto';
import { createAuthService, readAuthConfig, type AuthService } from '@app/auth-service';
import { createServiceApp, identitySigner, type EventBus } from '@app/kit';
import { freshDatabase, TEST_SECRET, testBus } from '@app/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { clientAddress } from '../src/fast-path.ts';
import { readGatewayConfig } from '../src/config.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let bus: EventBus;
let auth: AuthService;
let upstream: FastifyInstance;
/** Behind a proxy (TRUST_PROXY=true), 3 attempts per client and window. */
let gateway: FastifyInstance;
/** Served over https, no proxy. */
let httpsGateway: FastifyInstance;
let sql: pg.Pool;

const json = { 'content-type': 'application/json' };

/** A verified user's session, made in the database (the login route's budget is the test's own). */
async function session(email: string): Promise<string> {
  await sql.query(
    `INSERT INTO auth.users (id, email, password_hash, first_name, last_name, company_name, email_verified_at)
     VALUES (gen_random_uuid(), $1, 'x', 'A', 'B', 'C', now())`,
    [email],
  );
  const token = `session-of-${email.replace(/\W/g, '-')}`;
  await sql.query(
    `INSERT INTO auth.sessions (id, token_hash, user_id, expires_at)
     SELECT gen_random_uuid(), $1, id, now() + interval '1 day' FROM auth.users WHERE email = $2`,
    [createHash('sha256').update(token).digest('hex'), email],
  );
  return token;
}

beforeAll(async () => {
  db = await freshDatabase();
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  bus = await testBus(db.url);
  auth = await createAuthService({
    config: readAuthConfig({ DATABASE_URL: db.url, INTERNAL_SECRET: TEST_SECRET }),
    bus,
    logger: false,
  });
  const authUrl = await auth.app.listen({ host: '127.0.0.1', port: 0 });
  upstream = createServiceApp({ name: 'echo', internalSecret: TEST_SECRET, logger: false });
  upstream.all('/*', async (request) => ({ identity: request.identity, body: request.body ?? null }));
  const upstreamUrl = await upstream.listen({ host: '127.0.0.1', port: 0 });
  const common = {
    INTERNAL_SECRET: TEST_SECRET,
    AUTH_URL: authUrl,
    REFERRALS_URL: upstreamUrl,
    PROFILES_URL: upstreamUrl,
    PROGRAMS_URL: upstreamUrl,
    AI_URL: upstreamUrl,
    MAIL_URL: upstreamUrl,
    SESSION_CACHE_MS: '60000',
    RAW_CONNECTIONS: 'false',
  };
  gateway = await buildGateway({
    config: readGatewayConfig({
      ...common,
      PUBLIC_URL: 'http://app.test',
      TRUST_PROXY: 'true',
      RATE_LIMIT_AUTH_MAX: '3',
    }),
    bus,
    logger: false,
  });
  await gateway.ready();
  httpsGateway = await buildGateway({
    config: readGatewayConfig({ ...common, PUBLIC_URL: 'https://app.example.com' }),
    logger: false,
  });
  await httpsGateway.ready();
});

afterAll(async () => {
  await gateway?.close();
  await httpsGateway?.close();
  await upstream?.close();
  await bus?.close();
  await auth?.close();
  await sql?.end();
  await db?.drop();
});

describe('rate limits behind a proxy (TRUST_PROXY=true)', () => {
  // The proxy in front appends the address it saw to whatever X-Forwarded-For the client sent: only the
  // last entry is the proxy's word; the ones before it are the client's to write.
  const attempt = (url: string, forwardedFor: string, payload: Record<string, unknown>) =>
    gateway.inject({ method: 'POST', url, headers: { ...json, 'x-forwarded-for': forwardedFor }, payload });

  it("a client cannot get a fresh budget by writing another X-Forwarded-For before the proxy's entry", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await attempt('/api/login', `198.51.100.${i}, 203.0.113.7`, {
        email: `nobody-${i}@example.com`,
        password: 'x',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });

  it('counts register and resend per client the same way, and other clients keep their own budgets', async () => {
    for (const url of ['/api/register', '/api/resend-verification']) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await attempt(url, `10.9.9.${i}, 203.0.113.8`, { email: `someone-${i}@example.com` });
        statuses.push(response.statusCode);
      }
      expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
      expect(statuses[3]).toBe(429);
    }
    // Another client behind the same proxy (another last entry) is not limited by the first one's attempts.
    const other = await attempt('/api/login', '203.0.113.9', { email: 'nobody@example.com', password: 'x' });
    expect(other.statusCode, other.body).toBe(401);
  });
});

describe("the fast path's client address (its log lines)", () => {
  it("is the proxy's entry, the last, behind a trusted proxy; the socket's peer otherwise", () => {
    const socket = { remoteAddress: '10.0.0.9' };
    const headers = { 'x-forwarded-for': '198.51.100.7, 203.0.113.50' };
    expect(clientAddress(headers, socket, true)).toBe('203.0.113.50');
    expect(clientAddress({ 'x-forwarded-for': '203.0.113.50' }, socket, true)).toBe('203.0.113.50');
    expect(clientAddress(headers, socket, false)).toBe('10.0.0.9');
    expect(clientAddress({}, socket, true)).toBe('10.0.0.9');
  });
});

describe('cross-site requests', () => {
  const refused = { message: 'Cross-site request refused', code: 'CROSS_SITE_REQUEST' };

  it('refuses Origin null (sandboxed frames, data: pages) and look-alike origins', async () => {
    for (const origin of [
      'null',
      'http://app.test.evil.example',
      'http://evil.example?http://app.test',
      'https://app.test',
    ]) {
      const response = await gateway.inject({
        method: 'POST',
        url: '/api/demo-request',
        headers: { ...json, origin },
        payload: { a: 1 },
      });
      expect(response.statusCode, origin).toBe(403);
      expect(response.json()).toEqual(refused);
    }
  });

  it('another site can neither log a victim out nor log them in to its own account', async () => {
    const token = await session('csrf-victim@example.com');
    const cookie = `sid=${token}`;
    const logout = await gateway.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(logout.statusCode).toBe(403);
    expect(logout.headers['set-cookie']).toBeUndefined();
    expect((await gateway.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).statusCode).toBe(200);

    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const response = await gateway.inject({
        method,
        url: '/api/user/intent',
        headers: { ...json, cookie, 'sec-fetch-site': 'cross-site' },
        payload: { intent: 'vendor' },
      });
      expect(response.statusCode, method).toBe(403);
    }
    const login = await gateway.inject({
      method: 'POST',
      url: '/api/login',
      headers: { ...json, origin: 'https://evil.example', 'x-forwarded-for': '203.0.113.50' },
      payload: { email: 'attacker@example.com', password: 'x' },
    });
    expect(login.statusCode).toBe(403);
    expect(login.headers['set-cookie']).toBeUndefined();
  });
});

describe('identities sent by a client', () => {
  it('a signed identity replayed by a client is not a session: 401 without a cookie or with a dead one', async () => {
    const token = await session('replay@example.com');
    const seen = await gateway.inject({ method: 'GET', url: '/api/referrals/1', headers: { cookie: `sid=${token}` } });
    const identity = seen.json().identity;
    expect(identity.email).toBe('replay@example.com');
    // Whatever a client got hold of (a log line, a proxy), sent back as x-identity:
    const header = identitySigner(TEST_SECRET).sign(identity, 60);
    for (const cookie of [undefined, 'sid=unknown-token']) {
      const response = await gateway.inject({
        method: 'GET',
        url: '/api/user',
        headers: { 'x-identity': header, ...(cookie ? { cookie } : {}) },
      });
      expect(response.statusCode).toBe(401);
      const through = await gateway.inject({
        method: 'POST',
        url: '/api/demo-request',
        headers: { ...json, 'x-identity': header, 'X-Identity': header, ...(cookie ? { cookie } : {}) },
        payload: {},
      });
      expect(through.json().identity).toBeNull();
    }
  });
});

describe('https', () => {
  it('sends HSTS when PUBLIC_URL is https, and not over plain http', async () => {
    // API answers and pages alike.
    for (const url of ['/api/user', '/']) {
      const secure = await httpsGateway.inject({ method: 'GET', url });
      expect(secure.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      const plain = await gateway.inject({ method: 'GET', url });
      expect(plain.headers['strict-transport-security'], url).toBeUndefined();
    }
  });
});
