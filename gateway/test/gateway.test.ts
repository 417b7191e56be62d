import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { operationList } from '@app/contracts';
import { createAuthService, readAuthConfig, type AuthService } from '@app/auth-service';
import {
  createServiceApp,
  listenOnSocket,
  metrics,
  metricsRegistry,
  type EventBus,
  type SocketListener,
} from '@app/kit';
import { freshDatabase, TEST_SECRET, testBus } from '@app/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { readGatewayConfig } from '../src/config.ts';
import { routeMatcher, type FastRoute } from '../src/fast-path.ts';
import { parseRequestHead } from '../src/front.ts';
import { API_CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY } from '../src/security.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let bus: EventBus;
let auth: AuthService;
let upstream: FastifyInstance;
let upstreamSocket: SocketListener;
let gateway: FastifyInstance;
let sql: pg.Pool;
let base: string;
let flakyCalls = 0;
let slowAbandoned = 0;
const webDist = mkdtempSync(join(tmpdir(), 'web-'));

const json = { 'content-type': 'application/json' };
const appScript = (copy: string) => `export const copy = '${copy}';\n${'console.log(1);\n'.repeat(200)}`;
/** ~140 KB that no two offsets repeat alike: a body copied wrong anywhere shows. */
const largeBody = Buffer.from(
  Array.from({ length: 25_000 }, (_, i) => (i * 7919).toString(36).padStart(4, '0')).join(''),
);

/** 12 MB where every 4-byte word is its own offset: a byte from anywhere else shows. */
const hugeBody = (() => {
  const body = Buffer.alloc(12 * 1024 * 1024);
  for (let i = 0; i < body.length; i += 4) body.writeUInt32LE(i, i);
  return body;
})();

/** A user registered through the gateway, with the email verified in the database. */
async function registerVerified(email: string): Promise<void> {
  const register = await gateway.inject({
    method: 'POST',
    url: '/api/register',
    headers: json,
    payload: { firstName: 'G', lastName: 'W', companyName: 'C', email, password: 'pw' },
  });
  expect(register.statusCode).toBe(201);
  await sql.query('UPDATE auth.users SET email_verified_at = now() WHERE email = $1', [email]);
}

async function signIn(email: string): Promise<string> {
  await registerVerified(email);
  const login = await gateway.inject({
    method: 'POST',
    url: '/api/login',
    headers: json,
    payload: { email, password: 'pw' },
  });
  expect(login.statusCode).toBe(200);
  return login.cookies.find((c) => c.name === 'sid')!.value;
}

/**
 * A verified user's session made in the database, without a login: the login route's rate limit is shared by
 * this file, and its own test below needs what is left of it.
 */
async function sessionWithoutLogin(email: string): Promise<string> {
  await registerVerified(email);
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

  // A stand-in for a service behind the gateway: echoes what reached it.
  upstream = createServiceApp({ name: 'echo', internalSecret: TEST_SECRET, logger: false });
  upstream.all('/*', async (request) => ({
    identity: request.identity,
    requestId: request.id,
    headers: { identity: request.headers['x-identity'] ?? null, internal: request.headers['x-internal-auth'] ?? null },
    body: request.body ?? null,
    // How the call arrived: over TCP, or the Unix socket (listenOnSocket) the gateway's PROFILES_SOCKET names.
    via: request.socket.remoteAddress ? 'tcp' : 'uds',
  }));
  // Answers 503 to its first two calls of each round, as a service that is starting: the gateway asks again.
  upstream.get('/api/referrals/flaky', async (_request, reply) => {
    flakyCalls++;
    if (flakyCalls % 3 !== 0) return reply.status(503).send({ message: 'starting', code: 'SERVICE_UNAVAILABLE' });
    return { ok: true, calls: flakyCalls };
  });
  // Bodies larger than one socket write: with a content-length, streamed without one, and one cut mid-body.
  upstream.get('/api/referrals/large', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('set-cookie', ['a=1', 'b=2']).send(largeBody),
  );
  upstream.get('/api/referrals/streamed', async (_request, reply) =>
    reply.type('text/plain').send(Readable.from([largeBody.subarray(0, 30_000), largeBody.subarray(30_000)])),
  );
  upstream.get('/api/referrals/empty', async (_request, reply) => reply.type('text/plain').send(''));
  // For compression: JSON streamed without a length, a CSV that varies by origin, JSON cut mid-body.
  upstream.get('/api/referrals/streamed-json', async (_request, reply) =>
    reply.type('application/json').send(Readable.from([largeBody.subarray(0, 30_000), largeBody.subarray(30_000)])),
  );
  upstream.get('/api/referrals/csv', async (_request, reply) =>
    reply.type('text/csv; charset=utf-8').header('vary', 'Origin').send(largeBody.subarray(0, 5000)),
  );
  upstream.get('/api/referrals/no-transform', async (_request, reply) =>
    reply.type('application/json').header('cache-control', 'no-store, no-transform').send(largeBody),
  );
  upstream.get('/api/referrals/cut-json', async (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/json', 'content-length': largeBody.length });
    reply.raw.write(largeBody.subarray(0, 20_000), () => setTimeout(() => reply.raw.destroy(), 20));
  });
  // 12 MB, more than loopback's socket buffers hold: a client that does not read keeps the gateway's writes waiting.
  upstream.get('/api/referrals/huge', async (_request, reply) => reply.type('application/octet-stream').send(hugeBody));
  // Answers after 300 ms, counting the calls whose caller had gone by then (the gateway dropped the call).
  upstream.get('/api/referrals/slow', async (_request, reply) => {
    let gone = false;
    reply.raw.once('close', () => (gone = true)); // before the answer: the caller's connection went
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (gone) slowAbandoned++;
    return { slow: true };
  });
  upstream.get('/api/referrals/cut', async (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/plain', 'content-length': largeBody.length });
    reply.raw.write(largeBody.subarray(0, 20_000), () => setTimeout(() => reply.raw.destroy(), 20));
  });
  const upstreamUrl = await upstream.listen({ host: '127.0.0.1', port: 0 });
  upstreamSocket = await listenOnSocket(upstream, join(webDist, 'profiles.sock'));

  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
  writeFileSync(join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
  // As the build leaves an asset (web/precompress.ts): compressed copies beside it, each a different text
  // here, so the test sees which file was sent.
  writeFileSync(join(webDist, 'assets', 'landing-abc123.js'), appScript('identity'));
  writeFileSync(join(webDist, 'assets', 'landing-abc123.js.br'), brotliCompressSync(appScript('br')));
  writeFileSync(join(webDist, 'assets', 'landing-abc123.js.gz'), gzipSync(appScript('gzip')));

  const config = readGatewayConfig({
    INTERNAL_SECRET: TEST_SECRET,
    AUTH_URL: authUrl,
    REFERRALS_URL: upstreamUrl,
    PROFILES_URL: upstreamUrl,
    PROFILES_SOCKET: upstreamSocket.path,
    PROGRAMS_URL: 'http://127.0.0.1:1',
    // Nothing listens there either: the fast path's socket file is missing (the service not running).
    PROGRAMS_SOCKET: join(webDist, 'programs-not-running.sock'),
    AI_URL: 'http://127.0.0.1:1',
    PUBLIC_URL: 'http://app.test',
    SESSION_CACHE_MS: '60000',
    RATE_LIMIT_AUTH_MAX: '50',
    BODY_LIMIT_BYTES: '1000',
    WEB_DIST: webDist,
  });
  gateway = await buildGateway({ config, bus, logger: false });
  base = await gateway.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await upstreamSocket?.close();
  await upstream?.close();
  await bus?.close();
  await auth?.close();
  await sql?.end();
  await db?.drop();
});

describe('identity', () => {
  it('resolves the session cookie and forwards a signed identity; client-sent identity headers never pass', async () => {
    const token = await signIn('who@example.com');
    const signedIn = await gateway.inject({
      method: 'GET',
      url: '/api/referrals/7',
      headers: {
        cookie: `theme=dark; sid=${token}`,
        'x-identity': 'forged',
        'x-internal-auth': 'forged',
        'x-request-id': 'req-42',
      },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().identity).toMatchObject({ email: 'who@example.com', emailVerified: true, isAdmin: false });
    expect(signedIn.json().headers.internal).toBeNull();
    expect(signedIn.json().requestId).toBe('req-42');
    expect(signedIn.headers['x-request-id']).toBe('req-42');

    const anonymous = await gateway.inject({
      method: 'POST',
      url: '/api/demo-request',
      headers: { ...json, 'x-identity': signedIn.json().headers.identity },
      payload: {},
    });
    expect(anonymous.json().identity).toBeNull();
    expect(anonymous.json().headers.identity).toBeNull();
  });

  it('answers 401 itself for routes that need a user', async () => {
    const response = await gateway.inject({
      method: 'GET',
      url: '/api/user',
      headers: { cookie: 'sid=unknown-token' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
  });

  it('ends a session at once on logout, although resolved sessions are cached', async () => {
    const token = await signIn('logout@example.com');
    const cookie = { cookie: `sid=${token}` };
    expect((await gateway.inject({ method: 'GET', url: '/api/user', headers: cookie })).statusCode).toBe(200);
    expect((await gateway.inject({ method: 'POST', url: '/api/logout', headers: cookie })).statusCode).toBe(200);
    expect((await gateway.inject({ method: 'GET', url: '/api/user', headers: cookie })).statusCode).toBe(401);
  });

  it('drops a session ended elsewhere as soon as the session.ended event arrives', async () => {
    const token = await signIn('elsewhere@example.com');
    const cookie = { cookie: `sid=${token}` };
    expect((await gateway.inject({ method: 'GET', url: '/api/user', headers: cookie })).statusCode).toBe(200);
    // Logged out through the auth service directly, not through this gateway.
    await auth.app.inject({ method: 'POST', url: '/api/logout', headers: cookie });
    let status = 200;
    for (let i = 0; i < 100 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await gateway.inject({ method: 'GET', url: '/api/user', headers: cookie })).statusCode;
    }
    expect(status).toBe(401);
  });

  it('forwards the new verified state at once after the user verifies their email', async () => {
    const register = await gateway.inject({
      method: 'POST',
      url: '/api/register',
      headers: json,
      payload: { firstName: 'V', lastName: 'W', companyName: 'C', email: 'fresh@example.com', password: 'pw' },
    });
    expect(register.statusCode).toBe(201);
    // Sign-up starts no session (the link signs in); an unverified user's session from before that.
    const sid = 'unverified-session-token';
    await sql.query(
      `INSERT INTO auth.sessions (id, token_hash, user_id, expires_at)
       SELECT gen_random_uuid(), $1, id, now() + interval '1 day' FROM auth.users WHERE email = 'fresh@example.com'`,
      [createHash('sha256').update(sid).digest('hex')],
    );
    const cookie = { cookie: `sid=${sid}` };
    const before = await gateway.inject({ method: 'GET', url: '/api/referrals/7', headers: cookie });
    expect(before.json().identity.emailVerified).toBe(false);
    const userId = before.json().identity.userId;
    // The raw token only exists in the email; give the stored hash a token this test knows.
    const { rows } = await sql.query('SELECT id FROM auth.email_verification_tokens WHERE user_id = $1', [userId]);
    expect(rows).toHaveLength(1);
    const token = 'known-token-for-test';
    await sql.query('UPDATE auth.email_verification_tokens SET token_hash = $1 WHERE user_id = $2', [
      createHash('sha256').update(token).digest('hex'),
      userId,
    ]);
    expect(
      (await gateway.inject({ method: 'GET', url: `/api/verify-email?token=${token}&userId=${userId}` })).statusCode,
    ).toBe(200);
    let verified = false;
    for (let i = 0; i < 100 && !verified; i++) {
      await new Promise((r) => setTimeout(r, 20));
      verified = (await gateway.inject({ method: 'GET', url: '/api/referrals/7', headers: cookie })).json().identity
        .emailVerified;
    }
    expect(verified).toBe(true);
  });
  // Signs in, so it runs before the login rate-limit test below uses up the attempts.
  it('lets documents up to the upload limit through on the upload route only', async () => {
    const token = await signIn('uploader@example.com');
    const upload = (bytes: number) =>
      fetch(`${base}/api/analyze-referral-program`, {
        method: 'POST',
        headers: { cookie: `sid=${token}`, 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(bytes),
      });
    const small = await upload(5000); // over BODY_LIMIT_BYTES (1000 here), under the upload limit
    expect(small.status).toBe(503); // forwarded: the programs service is down in this test
    const huge = await upload(12 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ message: 'The document is larger than 10 MB', code: 'DOCUMENT_TOO_LARGE' });
  });
});

describe('fast path (a GET with a cached session, answered before Fastify)', () => {
  /** The answer as the client sees it, minus what differs per request (date, request id when not given). */
  const seen = async (response: Response) => ({
    status: response.status,
    headers: Object.fromEntries([...response.headers].filter(([name]) => name !== 'date')),
    body: (await response.json()) as Record<string, unknown>,
  });

  it('answers exactly as the Fastify route does: identity, request id, headers, stripped client headers', async () => {
    const token = await signIn('fast@example.com');
    const request = () =>
      fetch(`${base}/api/referrals/7?view=full`, {
        headers: {
          cookie: `theme=dark; sid=${token}`,
          'x-identity': 'forged',
          'x-internal-auth': 'forged',
          'x-request-id': 'req-fast',
          connection: 'keep-alive, x-hop',
          'x-hop': 'never forwarded',
          'x-custom': 'forwarded',
        },
      });
    // The session is not cached yet: Fastify's route resolves it. The second request finds it cached.
    const first = await seen(await request());
    const second = await seen(await request());
    expect(second).toEqual(first);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      identity: { email: 'fast@example.com', emailVerified: true },
      requestId: 'req-fast',
      headers: { internal: null },
    });
    expect(second.headers).toMatchObject({
      'content-security-policy': API_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
      'cache-control': 'no-store',
      'x-request-id': 'req-fast',
      'content-type': 'application/json; charset=utf-8',
    });
    // A request id of our own when the client's is missing.
    const anonymousId = await fetch(`${base}/api/referrals/7`, { headers: { cookie: `sid=${token}` } });
    expect(anonymousId.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reaches a service over its Unix socket (PROFILES_SOCKET), with the answer Fastify's route gets over TCP", async () => {
    const token = await signIn('fast-socket@example.com');
    const request = () =>
      fetch(`${base}/api/lead-criteria?vendorId=v1`, {
        headers: { cookie: `sid=${token}`, 'x-request-id': 'req-socket' },
      });
    // Fastify's route (the session not cached yet) goes over TCP; the fast path over the socket.
    const first = await seen(await request());
    const second = await seen(await request());
    expect(first.body.via).toBe('tcp');
    expect(second.body.via).toBe('uds');
    expect(second.body).toMatchObject({ identity: { email: 'fast-socket@example.com' }, requestId: 'req-socket' });
    expect({ ...second, body: { ...second.body, via: 'tcp' } }).toEqual(first);
  });

  it("retries a GET the service answered 503, as reply-from does on Fastify's route", async () => {
    const token = await signIn('fast-retry@example.com');
    for (let i = 0; i < 2; i++) {
      const before = flakyCalls;
      // The first request resolves the session through Fastify's route; the second takes the fast path.
      const response = await fetch(`${base}/api/referrals/flaky`, { headers: { cookie: `sid=${token}` } });
      expect(response.status).toBe(200);
      expect(flakyCalls - before).toBe(3);
    }
  });

  it('passes large and streamed bodies through byte for byte, with the headers Fastify gives them', async () => {
    const token = await sessionWithoutLogin('fast-large@example.com');
    // Node's client, for the headers as sent: names, order and repeats.
    const answer = (path: string) =>
      new Promise<{ status?: number; headers: string[][]; body: Buffer }>((resolve, reject) => {
        get(`${base}${path}`, { headers: { cookie: `sid=${token}`, 'x-request-id': 'req-big' } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const raw = response.rawHeaders;
            const headers = raw.flatMap((name, i) => (i % 2 === 0 && name !== 'date' ? [[name, raw[i + 1]!]] : []));
            resolve({ status: response.statusCode, headers, body: Buffer.concat(chunks) });
          });
        }).on('error', reject);
      });
    // The first answer comes through Fastify's route (the session not cached yet), the others the fast path.
    const viaFastify = await answer('/api/referrals/large');
    for (let i = 0; i < 3; i++) expect(await answer('/api/referrals/large')).toEqual(viaFastify);
    expect(viaFastify.body.equals(largeBody)).toBe(true);
    expect(viaFastify.headers).toEqual(
      expect.arrayContaining([
        ['content-length', String(largeBody.length)],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['x-request-id', 'req-big'],
        ['cache-control', 'no-store'],
        ['x-frame-options', 'DENY'],
      ]),
    );
    // An empty body (content-length: 0) ends too.
    const empty = await answer('/api/referrals/empty');
    expect(empty.status).toBe(200);
    expect(empty.body.length).toBe(0);
    expect(empty.headers).toEqual(expect.arrayContaining([['content-length', '0']]));
    // Without a content-length (chunked from the service): the same bytes, as they come.
    const streamed = await answer('/api/referrals/streamed');
    expect(streamed.status).toBe(200);
    expect(streamed.body.equals(largeBody)).toBe(true);
    expect(streamed.headers).toEqual(expect.arrayContaining([['transfer-encoding', 'chunked']]));
  });

  it('compresses JSON and CSV answers for a client that accepts it, alike on both paths', async () => {
    const token = await sessionWithoutLogin('fast-compressed@example.com');
    const answer = (path: string, acceptEncoding?: string) =>
      new Promise<{ status?: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
        (resolve, reject) => {
          const headers: Record<string, string> = { cookie: `sid=${token}`, 'x-request-id': 'req-zip' };
          if (acceptEncoding) headers['accept-encoding'] = acceptEncoding;
          get(`${base}${path}`, { headers }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('error', reject);
            response.on('end', () => {
              const { date: _date, ...rest } = response.headers;
              resolve({ status: response.statusCode, headers: rest, body: Buffer.concat(chunks) });
            });
          }).on('error', reject);
        },
      );
    // The first answer comes through Fastify's route (the session not cached yet), the others the fast path.
    const viaFastify = await answer('/api/referrals/large', 'gzip, deflate, br, zstd');
    expect(viaFastify.status).toBe(200);
    expect(viaFastify.headers).toMatchObject({
      'content-encoding': 'br',
      vary: 'accept-encoding',
      'set-cookie': ['a=1', 'b=2'],
      'x-request-id': 'req-zip',
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(viaFastify.headers['content-length']).toBeUndefined();
    expect(brotliDecompressSync(viaFastify.body).equals(largeBody)).toBe(true);
    expect(viaFastify.body.length).toBeLessThan(largeBody.length);
    const viaFastPath = await answer('/api/referrals/large', 'gzip, deflate, br, zstd');
    expect(viaFastPath.headers).toEqual(viaFastify.headers);
    expect(brotliDecompressSync(viaFastPath.body).equals(largeBody)).toBe(true);

    // gzip when brotli is not accepted; nothing when neither is (or both are refused).
    const gzipped = await answer('/api/referrals/large', 'gzip;q=0.5, br;q=0');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).equals(largeBody)).toBe(true);
    for (const acceptEncoding of [undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const plain = await answer('/api/referrals/large', acceptEncoding);
      expect(plain.headers['content-encoding'], String(acceptEncoding)).toBeUndefined();
      expect(plain.headers['content-length'], String(acceptEncoding)).toBe(String(largeBody.length));
      expect(plain.body.equals(largeBody), String(acceptEncoding)).toBe(true);
    }
    // JSON without a length is compressed as it streams; a CSV keeps its Vary, with Accept-Encoding added.
    const streamed = await answer('/api/referrals/streamed-json', 'br');
    expect(streamed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(streamed.body).equals(largeBody)).toBe(true);
    const csv = await answer('/api/referrals/csv', 'gzip');
    expect(csv.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Origin, accept-encoding' });
    expect(gunzipSync(csv.body).equals(largeBody.subarray(0, 5000))).toBe(true);
    // Not worth it, or not ours to compress: a small JSON answer, text, an empty body.
    const small = await answer('/api/referrals/7', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString()).requestId).toBe('req-zip');
    for (const path of ['/api/referrals/streamed', '/api/referrals/empty']) {
      const text = await answer(path, 'br');
      expect(text.headers['content-encoding'], path).toBeUndefined();
    }
    // A service that forbids transforming its answer (Cache-Control: no-transform) gets it sent as it is, on
    // Fastify's route (a session not cached yet) and then on the fast path.
    const other = await sessionWithoutLogin('fast-no-transform@example.com');
    for (let i = 0; i < 2; i++) {
      const kept = await new Promise<{ encoding: unknown; body: Buffer }>((resolve, reject) => {
        const headers = { cookie: `sid=${other}`, 'accept-encoding': 'br, gzip' };
        get(`${base}/api/referrals/no-transform`, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }),
          );
        }).on('error', reject);
      });
      expect(kept.encoding).toBeUndefined();
      expect(kept.body.equals(largeBody)).toBe(true);
    }
  });

  it('never passes a compressed answer cut mid-body off as whole', async () => {
    const token = await sessionWithoutLogin('fast-cut-compressed@example.com');
    const outcome = () =>
      new Promise<string>((resolve) => {
        const headers = { cookie: `sid=${token}`, 'accept-encoding': 'br' };
        get(`${base}/api/referrals/cut-json`, { headers }, (response) => {
          expect(response.headers['content-encoding']).toBe('br');
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', () => resolve('cut'));
          response.on('aborted', () => resolve('cut'));
          response.on('end', () => {
            // An end without an error would have to be a complete brotli stream of the whole body.
            try {
              resolve(brotliDecompressSync(Buffer.concat(chunks)).equals(largeBody) ? 'whole' : 'short');
            } catch {
              resolve('cut');
            }
          });
        }).on('error', () => resolve('cut'));
      });
    // Fastify's route first (the session not cached), then the fast path.
    for (let i = 0; i < 3; i++) expect(await outcome()).toBe('cut');
    const after = await fetch(`${base}/api/referrals/7`, { headers: { cookie: `sid=${token}` } });
    expect(after.status).toBe(200);
  });

  it('cuts the answer off when the service dies mid-body, and goes on serving', async () => {
    const token = await sessionWithoutLogin('fast-cut@example.com');
    await fetch(`${base}/api/referrals/7`, { headers: { cookie: `sid=${token}` } }); // caches the session
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${base}/api/referrals/cut`, { headers: { cookie: `sid=${token}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(largeBody.length));
      // Never a short body passed off as whole: the client sees the connection end early.
      await expect(response.arrayBuffer()).rejects.toThrow();
    }
    const after = await fetch(`${base}/api/referrals/7`, { headers: { cookie: `sid=${token}` } });
    expect(after.status).toBe(200);
    expect(((await after.json()) as { identity: { email: string } }).identity.email).toBe('fast-cut@example.com');
  });

  it('leaves sign-in to Fastify: no session or an unknown one is the same JSON 401', async () => {
    for (const headers of [{}, { cookie: 'sid=unknown-fast-token' }, { cookie: 'sid=unknown-fast-token' }]) {
      const response = await fetch(`${base}/api/referrals/7`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY);
      expect(await response.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
    }
  });

  it('answers a JSON 503 with the security headers when the service is down', async () => {
    const token = await signIn('fast-down@example.com');
    // PROGRAMS_URL points at a closed port in this test (Fastify's route), PROGRAMS_SOCKET at no file (the fast path).
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${base}/api/programs/all`, {
        headers: { cookie: `sid=${token}`, 'x-request-id': 'req-down' },
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('x-request-id')).toBe('req-down');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(await response.json()).toEqual({
        message: 'Service temporarily unavailable. Please try again.',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
  });

  it('counts its answers in the metrics by route template', async () => {
    const token = await signIn('fast-metrics@example.com');
    const count = async () => {
      const text = await metricsRegistry.metrics();
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('http_request_duration_seconds_count{') &&
            l.includes('service="gateway"') &&
            l.includes('route="/api/referrals/:id/email-draft"') &&
            l.includes('status_class="2xx"'),
        );
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const before = await count();
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${base}/api/referrals/9/email-draft`, { headers: { cookie: `sid=${token}` } });
      expect(response.status).toBe(200);
    }
    expect((await count()) - before).toBe(3);
  });

  it('takes only routes Fastify would pick for the same path', () => {
    const route = (url: string): FastRoute => ({
      url,
      service: 'referrals',
      upstream: undefined as never,
      timeoutMs: 1,
      signedIn: true,
    });
    const routes = ['/api/vendors/:vendorId', '/api/vendors/mine', '/api/referrals/:id', '/api/user'].map(route);
    const match = routeMatcher(routes, [...routes.map((r) => r.url), '/api/referrals', '/healthz']);
    expect(match('/api/referrals/7')?.url).toBe('/api/referrals/:id');
    expect(match('/api/user')?.url).toBe('/api/user');
    // A static and a parametric route overlap: Fastify's router decides, for both.
    expect(match('/api/vendors/mine')).toBeUndefined();
    expect(match('/api/vendors/v1')).toBeUndefined();
    // Over find-my-way's maxParamLength (Fastify answers 414), empty, or another shape: not ours.
    expect(match(`/api/referrals/${'x'.repeat(101)}`)).toBeUndefined();
    expect(match('/api/referrals/')).toBeUndefined();
    expect(match('/api/referrals/7/')).toBeUndefined();
    expect(routeMatcher([route('/api/referrals/:id')], ['/api/referrals/:id', '/api/*'])('/api/referrals/7')).toBe(
      undefined,
    );
  });
});

describe("raw connections (front.ts: the fast path without Node's HTTP server)", () => {
  /** Connections handed over to Node's HTTP server so far. */
  const handedOver = async () =>
    (await metrics.gatewayConnections.get()).values.find((v) => v.labels.read === 'handed_over')?.value ?? 0;

  interface Seen {
    status?: number;
    /** Raw header pairs as sent, the date left out. */
    headers: string[][];
    body: Buffer;
  }
  /** A GET with Node's client over `agent`'s one connection. */
  const answer = (agent: Agent, path: string, headers: Record<string, string>) =>
    new Promise<Seen>((resolve, reject) => {
      get(`${base}${path}`, { agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const raw = response.rawHeaders;
          const pairs = raw.flatMap((name, i) =>
            i % 2 === 0 && name.toLowerCase() !== 'date' ? [[name, raw[i + 1]!]] : [],
          );
          resolve({ status: response.statusCode, headers: pairs, body: Buffer.concat(chunks) });
        });
      }).on('error', reject);
    });
  const oneConnection = () => new Agent({ keepAlive: true, maxSockets: 1 });
  /** A GET on a new connection of its own, closed after its answer. */
  async function answerAlone(path: string, headers: Record<string, string>) {
    const agent = oneConnection();
    try {
      return await answer(agent, path, headers);
    } finally {
      agent.destroy();
    }
  }

  /**
   * The same request answered on a raw connection and by Node's server (a connection handed over first by a
   * request that is not the fast path's), each twice on its connection.
   */
  async function bothWays(path: string, headers: Record<string, string>) {
    const raw = oneConnection();
    const node = oneConnection();
    try {
      const before = await handedOver();
      const viaRaw = [await answer(raw, path, headers), await answer(raw, path, headers)];
      expect(await handedOver()).toBe(before);
      await answer(node, '/healthz', {});
      const viaNode = [await answer(node, path, headers), await answer(node, path, headers)];
      expect(await handedOver()).toBe(before + 1);
      return { viaRaw, viaNode };
    } finally {
      raw.destroy();
      node.destroy();
    }
  }

  /** Sends bytes on a new connection and reads until the gateway closes it. */
  const exchange = (parts: string[], gapMs = 0) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('connect', async () => {
        for (const part of parts) {
          socket.write(part);
          if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
        }
      });
    });

  it('frames every kind of answer exactly as Node does: headers, repeats, order, lengths, chunked, empty', async () => {
    const token = await sessionWithoutLogin('raw-framing@example.com');
    await fetch(`${base}/api/referrals/7`, { headers: { cookie: `sid=${token}` } }); // caches the session
    const headers = { cookie: `sid=${token}`, 'x-request-id': 'req-raw' };
    for (const path of [
      '/api/referrals/7',
      '/api/referrals/large',
      '/api/referrals/streamed',
      '/api/referrals/empty',
    ]) {
      const { viaRaw, viaNode } = await bothWays(path, headers);
      for (const seen of [...viaRaw, ...viaNode]) expect(seen, path).toEqual(viaNode[0]);
      expect(viaRaw[0]!.status, path).toBe(200);
    }
    const large = await bothWays('/api/referrals/large', headers);
    expect(large.viaRaw[0]!.body.equals(largeBody)).toBe(true);
    expect(large.viaRaw[0]!.headers).toEqual(
      expect.arrayContaining([
        ['content-length', String(largeBody.length)],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['x-request-id', 'req-raw'],
        ['Connection', 'keep-alive'],
        ['Keep-Alive', 'timeout=72'],
      ]),
    );
    const streamed = await bothWays('/api/referrals/streamed', headers);
    expect(streamed.viaRaw[1]!.body.equals(largeBody)).toBe(true);
    expect(streamed.viaRaw[1]!.headers).toEqual(expect.arrayContaining([['transfer-encoding', 'chunked']]));
  });

  it("keeps a connection whose first request's session is not cached yet: it waits for the lookup", async () => {
    const token = await sessionWithoutLogin('raw-uncached@example.com'); // never asked for: not cached
    const before = await handedOver();
    const agent = oneConnection();
    const first = await answer(agent, '/api/referrals/7', { cookie: `sid=${token}`, 'x-request-id': 'u1' });
    const second = await answer(agent, '/api/referrals/8', { cookie: `sid=${token}`, 'x-request-id': 'u2' });
    agent.destroy();
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body.toString())).toMatchObject({
      requestId: 'u1',
      identity: { email: 'raw-uncached@example.com' },
    });
    expect(JSON.parse(second.body.toString()).requestId).toBe('u2');
    expect(await handedOver()).toBe(before);
    // A session the auth service does not know: looked up once, then Fastify's JSON 401 on a handed-over connection.
    const refused = await answerAlone('/api/referrals/7', { cookie: 'sid=raw-unknown-token' });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString())).toEqual({
      message: 'Authentication required',
      code: 'UNAUTHENTICATED',
    });
    expect(await handedOver()).toBe(before + 1);
  });

  it('compresses on a raw connection as on the others, and retries a 503', async () => {
    const token = await sessionWithoutLogin('raw-zip@example.com');
    await fetch(`${base}/api/referrals/7`, { headers: { cookie: `sid=${token}` } });
    const headers = { cookie: `sid=${token}`, 'x-request-id': 'req-raw-zip', 'accept-encoding': 'br' };
    for (const path of ['/api/referrals/large', '/api/referrals/streamed-json']) {
      const { viaRaw, viaNode } = await bothWays(path, headers);
      for (const seen of viaRaw) {
        expect(seen.headers, path).toEqual(viaNode[0]!.headers);
        expect(seen.headers, path).toEqual(expect.arrayContaining([['content-encoding', 'br']]));
        expect(brotliDecompressSync(seen.body).equals(largeBody), path).toBe(true);
      }
    }
    const before = flakyCalls;
    const flaky = await answerAlone('/api/referrals/flaky', { cookie: `sid=${token}` });
    expect(flaky.status).toBe(200);
    expect(flakyCalls - before).toBe(3);
  });

  it('answers pipelined requests in order, handing the connection over at the first that is not its own', async () => {
    const token = await sessionWithoutLogin('raw-pipeline@example.com');
    await fetch(`${base}/api/referrals/7`, { headers: { cookie: `sid=${token}` } });
    const get = (path: string, id: string, extra = '') =>
      `GET ${path} HTTP/1.1\r\nHost: app.test\r\nCookie: sid=${token}\r\nX-Request-Id: ${id}\r\n${extra}\r\n`;
    const before = await handedOver();
    const text = await exchange([
      get('/api/referrals/1', 'p1') +
        get('/api/referrals/2', 'p2') +
        get('/healthz', 'p3') + // Fastify's: the connection is Node's from here
        get('/api/referrals/4', 'p4', 'Connection: close\r\n'),
    ]);
    const ids = [...text.matchAll(/"requestId":"([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['p1', 'p2', 'p4']);
    expect(text).toContain('{"status":"ok"}');
    expect(text.indexOf('"p2"')).toBeLessThan(text.indexOf('{"status":"ok"}'));
    expect(text.match(/HTTP\/1\.1 200 OK\r\n/g)).toHaveLength(4);
    expect(await handedOver()).toBe(before + 1);
    // All on the raw connection: closed after the answer to a request that asked for it.
    const closing = await exchange([get('/api/referrals/5', 'c1', 'Connection: close\r\n')]);
    expect(closing).toMatch(/\r\nConnection: close\r\n/);
    expect(closing).toContain('"requestId":"c1"');
    expect(await handedOver()).toBe(before + 1);
  });

  it("leaves to Node's server every request it does not read whole and plainly, and Node answers it", async () => {
    const token = await sessionWithoutLogin('raw-odd@example.com');
    await fetch(`${base}/api/referrals/7`, { headers: { cookie: `sid=${token}` } });
    const cookie = `Cookie: sid=${token}\r\n`;
    const cases: Array<{ parts: string[]; status: string; why: string }> = [
      {
        parts: [`GET /api/referrals/7 HTTP/1.1\r\nHost: a\r\n`, `${cookie}Connection: close\r\n\r\n`],
        status: '200',
        why: 'a head split across reads',
      },
      {
        parts: [`GET /api/referrals/7 HTTP/1.1\r\nHost: a\r\n${cookie}Bad Header: x\r\n\r\n`],
        status: '400',
        why: 'a bad header name',
      },
      {
        parts: [`GET /api/referrals/7 HTTP/1.1\r\nHost: a\r\n${cookie}X-A: 1\r\n  folded\r\n\r\n`],
        status: '400',
        why: 'an obs-fold',
      },
      {
        parts: [`GET /api/referrals/7 HTTP/1.1\r\nHost: a\r\n${cookie}X-A: 1\r\nX-A: 2\r\nConnection: close\r\n\r\n`],
        status: '200',
        why: 'a repeated header',
      },
      { parts: [`GET /api/referrals/7 HTTP/1.0\r\nHost: a\r\n${cookie}\r\n`], status: '200', why: 'HTTP/1.0' },
      { parts: [`GET /api/referrals/7 HTTP/1.1\r\n${cookie}Connection: close\r\n\r\n`], status: '400', why: 'no Host' },
      {
        parts: [
          `POST /api/referrals/7 HTTP/1.1\r\nHost: a\r\n${cookie}Content-Length: 2\r\nConnection: close\r\n\r\n{}`,
        ],
        status: '405',
        why: 'a POST with a body',
      },
      {
        parts: [
          `GET /api/referrals/7 HTTP/1.1\r\nHost: a\r\n${cookie}Content-Length: 3\r\nConnection: close\r\n\r\nabc`,
        ],
        status: '200',
        why: 'a GET with a body',
      },
      {
        parts: [
          `GET /api/referrals/7 HTTP/1.1\r\nHost: a\r\n${cookie}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
        ],
        status: '200',
        why: 'a chunked GET',
      },
    ];
    for (const { parts, status, why } of cases) {
      const before = await handedOver();
      const text = await exchange(parts, 30);
      expect(text.slice(0, 12), why).toBe(`HTTP/1.1 ${status}`);
      expect(await handedOver(), why).toBe(before + 1);
      // Exactly one answer, as Node's server gives it.
      expect(text.match(/^HTTP\/1\.1 /gm), why).toHaveLength(1);
    }
  });

  it("never reuses read memory a slow client's answer still needs, while other answers go through", async () => {
    const token = await sessionWithoutLogin('raw-slow-reader@example.com');
    await fetch(`${base}/api/referrals/7`, { headers: { cookie: `sid=${token}` } });
    const read = (pauseMs: number) =>
      new Promise<Buffer>((resolve, reject) => {
        const socket = connect(Number(new URL(base).port), '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('error', reject);
        socket.on('connect', () => {
          socket.write(
            `GET /api/referrals/huge HTTP/1.1\r\nHost: a\r\nCookie: sid=${token}\r\nConnection: close\r\n\r\n`,
          );
          socket.pause(); // the gateway's writes wait in its socket meanwhile
          setTimeout(() => socket.resume(), pauseMs);
        });
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('end', () => {
          const all = Buffer.concat(chunks);
          resolve(all.subarray(all.indexOf('\r\n\r\n') + 4));
        });
      });
    const before = await handedOver();
    const [slow, ...others] = await Promise.all([read(400), read(0), read(50), read(0)]);
    expect(await handedOver()).toBe(before);
    for (const body of [slow!, ...others]) {
      expect(body.length).toBe(hugeBody.length);
      expect(body.equals(hugeBody)).toBe(true);
    }
  });

  it('drops the service call when the client leaves before the answer, and goes on serving', async () => {
    const token = await sessionWithoutLogin('raw-leave@example.com');
    await fetch(`${base}/api/referrals/7`, { headers: { cookie: `sid=${token}` } });
    const before = slowAbandoned;
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write(`GET /api/referrals/slow HTTP/1.1\r\nHost: a\r\nCookie: sid=${token}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(slowAbandoned - before).toBe(1);
    const after = await answerAlone('/api/referrals/slow', { cookie: `sid=${token}` });
    expect(after.status).toBe(200);
    expect(slowAbandoned - before).toBe(1);
  });

  it('closes its idle connections when the gateway closes, and finishes the answer in progress first', async () => {
    const config = readGatewayConfig({
      INTERNAL_SECRET: TEST_SECRET,
      AUTH_URL: `http://127.0.0.1:${(auth.app.server.address() as { port: number }).port}`,
      REFERRALS_URL: `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`,
      SESSION_CACHE_MS: '60000',
    });
    const second = await buildGateway({ config, bus, logger: false });
    const url = await second.listen({ host: '127.0.0.1', port: 0 });
    const token = await sessionWithoutLogin('raw-close@example.com');
    await fetch(`${url}/api/referrals/7`, { headers: { cookie: `sid=${token}` } });
    const open = (path: string) => {
      const socket = connect(Number(new URL(url).port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
      socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: a\r\nCookie: sid=${token}\r\n\r\n`));
      return closed;
    };
    const idle = open('/api/referrals/7');
    const busy = open('/api/referrals/slow');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await second.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await idle).toContain('"requestId"');
    const slow = await busy;
    expect(slow).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(slow).toContain('{"slow":true}');
  });
});

describe('parseRequestHead (what a raw connection reads itself)', () => {
  it('reads a plain GET: the target as sent, names in lower case, values trimmed', () => {
    expect(parseRequestHead('GET /api/x?a=%20b HTTP/1.1\r\nHost: h\r\nX-Thing:  v 1 \t\r\nAccept:*/*')).toEqual({
      url: '/api/x?a=%20b',
      headers: { host: 'h', 'x-thing': 'v 1', accept: '*/*' },
    });
  });

  it("leaves anything else to Node's parser", () => {
    for (const head of [
      'POST /x HTTP/1.1\r\nHost: h',
      'GET /x HTTP/1.0\r\nHost: h',
      'GET http://h/x HTTP/1.1\r\nHost: h',
      'GET * HTTP/1.1\r\nHost: h',
      'GET /x y HTTP/1.1\r\nHost: h',
      'get /x HTTP/1.1\r\nHost: h',
      'GET /x HTTP/1.1',
      'GET /x HTTP/1.1\r\nHost: h\r\nHost: h',
      'GET /x HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nx-a: 2',
      'GET /x HTTP/1.1\r\nHost: h\r\n folded',
      'GET /x HTTP/1.1\r\nHost: h\r\nX A: 1',
      'GET /x HTTP/1.1\r\nHost: h\r\n: 1',
      'GET /x HTTP/1.1\r\nHost: h\r\nX-A: a\nb',
      'GET /x HTTP/1.1\r\nHost: h\r\nX-A: a\u0000b',
      'GET /x HTTP/1.1\nHost: h',
      'GET /\u00e9 HTTP/1.1\r\nHost: h',
    ]) {
      expect(parseRequestHead(head), JSON.stringify(head)).toBeNull();
    }
  });
});

describe('protections', () => {
  it('refuses cross-site state-changing requests with 403 and lets same-origin and non-browser ones through', async () => {
    const post = (headers: Record<string, string>) =>
      gateway.inject({
        method: 'POST',
        url: '/api/demo-request',
        headers: { ...json, ...headers },
        payload: { a: 1 },
      });
    const refused: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of refused) {
      const response = await post(headers);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'Cross-site request refused', code: 'CROSS_SITE_REQUEST' });
    }
    expect((await post({ 'sec-fetch-site': 'same-origin', origin: 'http://app.test' })).statusCode).toBe(200);
    expect((await post({})).json().body).toEqual({ a: 1 });
    expect(
      (
        await gateway.inject({
          method: 'GET',
          url: '/api/referrals/7',
          headers: { 'sec-fetch-site': 'cross-site', cookie: `sid=${await signIn('csrf@example.com')}` },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('limits login attempts with a 429 and a message', async () => {
    // Another address each time: one address is locked by the auth service after 5 failures (LOGIN_BACKOFF).
    const attempt = (i = 0) =>
      gateway.inject({
        method: 'POST',
        url: '/api/login',
        headers: { ...json, 'x-forwarded-for': '1.2.3.4' },
        payload: { email: `nobody-${i}@example.com`, password: 'x' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 52; i++) statuses.push((await attempt(i)).statusCode);
    expect(statuses.slice(0, 40).every((s) => s === 401)).toBe(true);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      message: 'Too many attempts. Please wait a minute and try again.',
      code: 'RATE_LIMITED',
    });
  });

  it("sets security headers on pages, and on API answers only the ones data needs (OWASP's REST set)", async () => {
    const page = {
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    };
    // The API docs are a page, under /api/.
    for (const url of ['/', '/dashboard', '/api/docs']) {
      const response = await gateway.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers, url).toMatchObject(page);
    }
    for (const url of ['/api/user', '/api/openapi.json', '/api/nothing-here']) {
      const response = await gateway.inject({ method: 'GET', url });
      expect(response.headers, url).toMatchObject({
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'cross-origin-resource-policy': 'same-origin',
        'cache-control': 'no-store',
      });
      for (const name of ['referrer-policy', 'cross-origin-opener-policy', 'permissions-policy']) {
        expect(response.headers[name], `${url} ${name}`).toBeUndefined();
      }
    }
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });

  it('refuses oversized bodies with 413 before forwarding', async () => {
    const response = await gateway.inject({
      method: 'POST',
      url: '/api/demo-request',
      headers: json,
      payload: JSON.stringify({ x: 'y'.repeat(2000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'Request body is too large', code: 'BODY_TOO_LARGE' });
  });

  it('answers a clear error when a service is down', async () => {
    // The ai service (the enrichment callback's owner) is not running in this test.
    const response = await fetch(`${base}/api/enrichment/callback`, { method: 'POST', headers: json, body: '{}' });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      message: 'Service temporarily unavailable. Please try again.',
      code: 'SERVICE_UNAVAILABLE',
    });
  });
});

describe('routing and pages', () => {
  it('serves the app for client-side routes and fingerprinted assets for good; unknown API paths are JSON 404s', async () => {
    const page = await fetch(`${base}/referral/12/email-draft`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const asset = await fetch(`${base}/assets/app-abc123.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missing = await fetch(`${base}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    // Only contract operations are routed: not a path under an owner's prefix, nor an internal operation.
    for (const [method, url] of [
      ['GET', '/api/referrals/7/anything'],
      ['POST', '/internal/sessions/resolve'],
    ] as const) {
      const response = await gateway.inject({
        method,
        url,
        headers: json,
        payload: method === 'POST' ? {} : undefined,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it("sends the build's compressed copy of an asset to a client that accepts it, the file itself to others", async () => {
    const asset = (acceptEncoding?: string) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
        (resolve, reject) => {
          // node:http, not fetch: fetch would decode the answer and hide which encoding came.
          const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
          get(`${base}/assets/landing-abc123.js`, { headers }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
            );
          }).on('error', reject);
        },
      );
    const browser = await asset('gzip, deflate, br, zstd');
    expect(browser.status).toBe(200);
    expect(browser.headers['content-encoding']).toBe('br');
    expect(browser.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(browser.headers.vary).toMatch(/accept-encoding/i);
    expect(browser.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(browser.body).toString()).toBe(appScript('br'));

    const gzipOnly = await asset('gzip');
    expect(gzipOnly.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipOnly.body).toString()).toBe(appScript('gzip'));

    for (const acceptEncoding of [undefined, 'identity', 'zstd', 'br;q=0, gzip;q=0']) {
      const plain = await asset(acceptEncoding);
      expect(plain.headers['content-encoding'], String(acceptEncoding)).toBeUndefined();
      expect(plain.headers.vary, String(acceptEncoding)).toMatch(/accept-encoding/i);
      expect(plain.body.toString(), String(acceptEncoding)).toBe(appScript('identity'));
    }
    // An asset the build did not compress (too small to gain) is sent as it is to a browser too.
    const small = await fetch(`${base}/assets/app-abc123.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.text()).toBe('console.log(1)');
  });

  it('sends the OpenAPI document and the docs page compressed to a client that accepts it', async () => {
    const raw = (path: string, acceptEncoding: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        get(`${base}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const plain = await raw('/api/openapi.json', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    const document = JSON.parse(plain.body.toString()) as { openapi: string };
    expect(document.openapi).toBe('3.1.0');
    for (let i = 0; i < 2; i++) {
      // The second time from the copy made the first time: the same bytes.
      const br = await raw('/api/openapi.json', 'gzip, deflate, br');
      expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding' });
      expect(br.headers['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY);
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(br.body.length).toBeLessThan(plain.body.length / 5);
    }
    const page = await raw('/api/docs', 'gzip');
    expect(page.headers).toMatchObject({
      'content-encoding': 'gzip',
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CONTENT_SECURITY_POLICY,
    });
    expect(gunzipSync(page.body).toString()).toContain('<h1>Referral platform API</h1>');
  });

  it('documents every public route in OpenAPI generated from the contracts', async () => {
    const document = (await gateway.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(document.openapi).toBe('3.1.0');
    const routed = operationList.filter((op) => op.access !== 'internal' && op.access !== 'dev');
    for (const op of routed) {
      const documented = document.paths[op.path]?.[op.method.toLowerCase()];
      expect(documented?.operationId, `${op.method} ${op.path}`).toBe(op.id);
    }
    // Every documented error names its codes, and no internal operation is published.
    expect(document.paths['/api/referrals/{id}'].get.responses['404'].description).toContain('REFERRAL_NOT_FOUND');
    expect(document.paths['/api/search'].post.responses['429']).toBeUndefined();
    expect(document.paths['/api/login'].post.responses['429'].description).toContain('RATE_LIMITED');
    expect(Object.keys(document.paths).some((path) => path.startsWith('/internal'))).toBe(false);
    const register = document.paths['/api/register'].post;
    expect(register.requestBody.content['application/json'].schema.required).toEqual([
      'firstName',
      'lastName',
      'companyName',
      'email',
      'password',
    ]);
    expect(register.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    // Answers refer to named components, each written once; every reference resolves, no component is unused.
    const schemas = document.components.schemas as Record<string, { required?: string[] }>;
    const referral = document.paths['/api/referrals/{id}'].get.responses['200'].content['application/json'].schema;
    expect(referral).toEqual({ $ref: '#/components/schemas/Referral' });
    expect(schemas.Referral!.required).toEqual(expect.arrayContaining(['id', 'status', 'money', 'history']));
    expect(schemas.ErrorResponse!.required).toEqual(expect.arrayContaining(['message', 'code']));
    const text = JSON.stringify(document);
    const referred = new Set([...text.matchAll(/"#\/components\/schemas\/(\w+)"/g)].map((match) => match[1]!));
    expect([...referred].filter((name) => !schemas[name])).toEqual([]);
    expect(Object.keys(schemas).filter((name) => !referred.has(name))).toEqual([]);
    expect(text.length).toBeLessThan(400_000); // 1.47 MB with every answer's schemas inline
    const docs = await gateway.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.headers['content-type']).toContain('text/html');
    for (const op of routed) expect(docs.body).toContain(op.path);
    expect(docs.body).toContain('<section id="schema-Referral">');
    expect(docs.body).toContain('<a href="#schema-Referral">#/components/schemas/Referral</a>');
  });
});
