/**
 * The gateway under attack and in front of broken services: bodies too large (chunked or announced),
 * bodies that trickle, a service that accepts and never answers, one that is not there, odd requests.
 * Every upstream here is a real HTTP server on a real socket.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SECRET } from '@app/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { readGatewayConfig } from '../src/config.ts';

interface Received {
  url: string;
  bytes: number;
  complete: boolean;
}

let recorder: Server;
let fakeAuth: Server;
let hung: TcpServer;
let gateway: FastifyInstance;
let base: string;
const received: Received[] = [];
const hungSockets = new Set<Socket>();
const webDist = mkdtempSync(join(tmpdir(), 'web-'));
const UPSTREAM_TIMEOUT_MS = 800;
const BODY_TIMEOUT_MS = 1000;

const listen = async (server: Server | TcpServer) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};

const readAll = (request: IncomingMessage) =>
  new Promise<{ bytes: number; text: string; complete: boolean }>((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () =>
      resolve({ bytes: Buffer.concat(chunks).length, text: Buffer.concat(chunks).toString(), complete: true }),
    );
    request.on('close', () => {
      if (!request.complete) resolve({ bytes: Buffer.concat(chunks).length, text: '', complete: false });
    });
  });

/** Sends a request with a body written chunk by chunk (chunked encoding unless a length is given). */
function send(options: {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  chunks: Buffer[];
  delayMs?: number;
}): Promise<{ status: number; headers: IncomingMessage['headers']; body: string; ms: number; resets: string[] }> {
  const started = Date.now();
  // The connection's resets and broken pipes, also those after the answer was read.
  const resets: string[] = [];
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${options.path}`, {
      method: options.method ?? 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
    });
    req.on('response', async (res) => {
      const body = await readAll(res);
      resolve({ status: res.statusCode!, headers: res.headers, body: body.text, ms: Date.now() - started, resets });
    });
    // After refusing, the gateway drops the rest of the body for 2 s at most, then closes: what is left goes nowhere.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
      resets.push(error.code ?? error.message);
    });
    void (async () => {
      for (const chunk of options.chunks) {
        if (req.destroyed) return;
        req.write(chunk);
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        else await new Promise((r) => setImmediate(r));
      }
      if (!req.destroyed) req.end();
    })();
  });
}

const mb = (n: number) => Math.round(n * 1024 * 1024);
const pieces = (total: number, size = 64 * 1024) =>
  Array.from({ length: Math.ceil(total / size) }, (_, i) => Buffer.alloc(Math.min(size, total - i * size), 'a'));
const upstreamSaw = (url: string) => received.filter((r) => r.url === url);

beforeAll(async () => {
  // A service that reads every body whole and says how much it got.
  recorder = createServer(async (request, response) => {
    const body = await readAll(request);
    received.push({ url: request.url!, bytes: body.bytes, complete: body.complete });
    if (!body.complete) return;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ bytes: body.bytes }));
  });
  // The auth service's session lookup: `hang` never answers, `admin` is an administrator; login hangs.
  fakeAuth = createServer(async (request, response) => {
    const body = await readAll(request);
    if (request.url === '/internal/sessions/resolve') {
      const { token } = JSON.parse(body.text) as { token: string };
      if (token === 'hang') return;
      if (token !== 'admin') return void response.writeHead(404).end('{}');
      const identity = { userId: 'u1', sessionId: 's1', email: 'a@x.test', isAdmin: true, emailVerified: true };
      response.setHeader('content-type', 'application/json');
      return void response.end(JSON.stringify({ identity, expiresAt: new Date(Date.now() + 3600_000).toISOString() }));
    }
    // Anything else (login...): accepted, never answered.
  });
  // Accepts connections and never says a word.
  hung = createTcpServer((socket) => {
    hungSockets.add(socket);
    socket.on('close', () => hungSockets.delete(socket));
  });

  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
  writeFileSync(join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');

  const recorderUrl = await listen(recorder);
  gateway = await buildGateway({
    config: readGatewayConfig({
      INTERNAL_SECRET: TEST_SECRET,
      AUTH_URL: await listen(fakeAuth),
      REFERRALS_URL: recorderUrl,
      PROGRAMS_URL: recorderUrl,
      AI_URL: recorderUrl,
      PROFILES_URL: 'http://127.0.0.1:1', // nothing listens there
      MAIL_URL: await listen(hung),
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
      UPSTREAM_MODEL_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
      BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: '5000',
      RATE_LIMIT_AUTH_MAX: '1000',
      WEB_DIST: webDist,
    }),
    logger: false,
  });
  base = await gateway.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await gateway?.close();
  for (const socket of hungSockets) socket.destroy();
  await Promise.all(
    [recorder, fakeAuth, hung].map((server) => new Promise((resolve) => (server ? server.close(resolve) : resolve(0)))),
  );
});

describe('request bodies', () => {
  const admin = { cookie: 'sid=admin', 'content-type': 'multipart/form-data; boundary=x' };

  it('refuses a chunked upload over the limit with 413 and never delivers it whole', async () => {
    const response = await send({ path: '/api/analyze-referral-program', headers: admin, chunks: pieces(mb(12)) });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({
      message: 'The document is larger than 10 MB',
      code: 'DOCUMENT_TOO_LARGE',
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(upstreamSaw('/api/analyze-referral-program').filter((r) => r.complete)).toEqual([]);
  });

  it('refuses an announced oversized upload before reading it, and the client still reads why', async () => {
    // The whole body written at once, as a browser uploads a file: the refusal goes out with megabytes of it
    // sent and unread. Closed then, the connection was reset: the client's write failed, and (when the reset
    // came first) it never read the 413. Now the rest is read and dropped, and the connection closes cleanly.
    const response = await send({
      path: '/api/analyze-referral-program',
      headers: { ...admin, 'content-length': String(mb(12)) },
      chunks: pieces(mb(12), mb(12)),
    });
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body).code).toBe('DOCUMENT_TOO_LARGE');
    await new Promise((r) => setTimeout(r, 300));
    expect(response.resets).toEqual([]);
    expect(upstreamSaw('/api/analyze-referral-program').filter((r) => r.bytes === mb(12))).toEqual([]);
  });

  it('lets an upload under the limit through whole, chunked', async () => {
    const response = await send({ path: '/api/analyze-referral-program', headers: admin, chunks: pieces(mb(9.5)) });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ bytes: mb(9.5) });
  });

  it('holds the ai routes to what the ai service accepts: 300 KB is a 413, chunked or not, never a 502', async () => {
    const big = pieces(300 * 1024);
    const variants: Array<Record<string, string>> = [{ 'content-length': String(300 * 1024) }, {}];
    for (const headers of variants) {
      const response = await send({ path: '/api/search', headers: { cookie: 'sid=admin', ...headers }, chunks: big });
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toEqual({ message: 'Request body is too large', code: 'BODY_TOO_LARGE' });
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(upstreamSaw('/api/search').filter((r) => r.complete)).toEqual([]);
    const small = await send({ path: '/api/search', headers: { cookie: 'sid=admin' }, chunks: pieces(10_000) });
    expect(small.status).toBe(200);
  });

  it('refuses a chunked JSON body over BODY_LIMIT_BYTES as soon as it passes it', async () => {
    const response = await send({ path: '/api/referrals', headers: { cookie: 'sid=admin' }, chunks: pieces(mb(30)) });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).code).toBe('BODY_TOO_LARGE');
    expect(upstreamSaw('/api/referrals').filter((r) => r.complete)).toEqual([]);
  });

  it('does not let a trickled body hold the connection: 408 after BODY_TIMEOUT_MS', async () => {
    const response = await send({
      path: '/api/referrals',
      headers: { cookie: 'sid=admin' },
      chunks: pieces(mb(30), 100),
      delayMs: 50,
    });
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual({
      message: 'The request took too long to arrive. Please try again.',
      code: 'BODY_TIMEOUT',
    });
    expect(response.ms).toBeLessThan(BODY_TIMEOUT_MS + 1500);
    expect(upstreamSaw('/api/referrals').filter((r) => r.complete)).toEqual([]);
  });
});

describe('bodies the gateway answers before reading', () => {
  /** A raw connection: what it has received so far, and a way to wait for a text in it. */
  function rawConnection() {
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    let seen = '';
    socket.on('data', (chunk: Buffer) => (seen += chunk.toString('latin1')));
    socket.on('error', () => {});
    const until = (text: string, count = 1) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          if (seen.split(text).length - 1 >= count) return resolve(seen);
          if (socket.destroyed) return reject(new Error(`connection closed; received: ${seen.slice(0, 400)}`));
          setTimeout(check, 20);
        };
        check();
      });
    return { socket, until };
  }
  const head = (length: number) =>
    `PUT /api/user/intent HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
  const stillUp = async () => (await fetch(`${base}/api/openapi.json`)).status;

  it("answers 401 to a body it never reads, stays up past BODY_TIMEOUT_MS, and serves the connection's next request", async () => {
    const total = 900_000;
    const { socket, until } = rawConnection();
    socket.write(head(total) + 'a'.repeat(200_000));
    const first = await until('\r\n\r\n{');
    expect(first).toMatch(/^HTTP\/1\.1 401 /);
    // The body's timer would have fired by now: before the fix it threw and stopped the process.
    await new Promise((r) => setTimeout(r, BODY_TIMEOUT_MS + 500));
    expect(await stillUp()).toBe(200);
    // The rest of the body is read and dropped; the next request on the connection is answered.
    socket.write('a'.repeat(total - 200_000) + 'GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n');
    const both = await until('HTTP/1.1 ', 2);
    expect(both.split('HTTP/1.1 ')[2]).toMatch(/^200 /);
    socket.destroy();
  });

  it('stays up when the client leaves in the middle of a body it answered before reading', async () => {
    const { socket, until } = rawConnection();
    socket.write(head(900_000) + 'a'.repeat(100_000));
    expect(await until('\r\n\r\n{')).toMatch(/^HTTP\/1\.1 401 /);
    socket.destroy();
    await new Promise((r) => setTimeout(r, 300));
    expect(await stillUp()).toBe(200);
    await new Promise((r) => setTimeout(r, BODY_TIMEOUT_MS + 300));
    expect(await stillUp()).toBe(200);
  });
});

describe('services that hang or are gone', () => {
  it('answers a JSON 504 within UPSTREAM_TIMEOUT_MS when a service accepts and never answers', async () => {
    const started = Date.now();
    const response = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@x.test', password: 'pw' }),
    });
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({
      message: 'The service took too long to answer. Please try again.',
      code: 'UPSTREAM_TIMEOUT',
    });
    expect(Date.now() - started).toBeLessThan(UPSTREAM_TIMEOUT_MS + 1000);
  });

  it('answers a JSON 503 at once when nothing listens where the service should be', async () => {
    const response = await fetch(`${base}/api/demo-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      message: 'Service temporarily unavailable. Please try again.',
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('does not hang on a hung session lookup', async () => {
    const started = Date.now();
    const response = await fetch(`${base}/api/referrals/7`, { headers: { cookie: 'sid=hang' } });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(UPSTREAM_TIMEOUT_MS + 1000);
  });

  it('answers 504 while a service process is stopped (SIGSTOP), 503 once it is killed', async () => {
    // A real service process: a small HTTP server in its own Node process.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "require('http').createServer((q, s) => s.end('{}')).listen(0, '127.0.0.1', function () { console.log(this.address().port) })",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const port = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
    const app = await buildGateway({
      config: readGatewayConfig({
        INTERNAL_SECRET: TEST_SECRET,
        PROFILES_URL: `http://127.0.0.1:${port}`,
        UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
        REQUEST_TIMEOUT_MS: '65000',
      }),
      logger: false,
    });
    const demo = () =>
      app.inject({
        method: 'POST',
        url: '/api/demo-request',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
    try {
      expect((await demo()).statusCode).toBe(200);
      child.kill('SIGSTOP');
      const started = Date.now();
      const stopped = await demo();
      expect(stopped.statusCode).toBe(504);
      expect(stopped.json().code).toBe('UPSTREAM_TIMEOUT');
      expect(Date.now() - started).toBeLessThan(UPSTREAM_TIMEOUT_MS + 1000);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const killed = await demo();
      expect(killed.statusCode).toBe(503);
      expect(killed.json().code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      child.kill('SIGKILL');
      await app.close();
    }
  });

  it('refuses timeouts that would let the client-facing socket close first', () => {
    expect(() =>
      readGatewayConfig({ INTERNAL_SECRET: TEST_SECRET, UPSTREAM_TIMEOUT_MS: '30000', REQUEST_TIMEOUT_MS: '30000' }),
    ).toThrow(/REQUEST_TIMEOUT_MS: must be longer than UPSTREAM_TIMEOUT_MS/);
  });
});

describe('every error the gateway makes is { message, code }', () => {
  /** The raw answer to a request line and headers written by hand. */
  const raw = (text: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head = '', body = ''] = data.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), body });
      });
      socket.write(text);
    });

  it('414 for a path parameter over the router limit', async () => {
    const response = await fetch(`${base}/api/referrals/${'7'.repeat(500)}`, { headers: { cookie: 'sid=admin' } });
    expect(response.status).toBe(414);
    expect(await response.json()).toEqual({ message: 'The address is too long', code: 'URI_TOO_LONG' });
  });

  it('431 for headers over the parser limit, 400 for a malformed request', async () => {
    const long = await raw(`GET /api/user?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(long.status).toBe(431);
    expect(JSON.parse(long.body)).toEqual({ message: 'The request headers are too large', code: 'HEADERS_TOO_LARGE' });
    const malformed = await raw('NONSENSE\r\n\r\n');
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('404 for a missing asset or file, the app for client routes', async () => {
    for (const path of ['/assets/x.js', '/assets/app-abc123.css', '/favicon.ico', '/robots.txt']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    }
    expect(await (await fetch(`${base}/assets/app-abc123.js`)).text()).toBe('console.log(1)');
    for (const path of ['/dashboard', '/referral/12/email-draft', '/verify-email?token=x.y']) {
      const page = await fetch(`${base}${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    }
  });

  it('405 with Allow for a known path and another method', async () => {
    const response = await fetch(`${base}/api/referrals/7`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(await response.json()).toEqual({ message: 'Method not allowed', code: 'METHOD_NOT_ALLOWED' });
  });

  it('400 { message, code } for malformed JSON, from the service behind', async () => {
    // The gateway streams bodies; the kit's services answer malformed JSON in the same shape.
    const { createServiceApp } = await import('@app/kit');
    const service = createServiceApp({ name: 'json', internalSecret: TEST_SECRET, logger: false });
    service.post('/x', async (request) => request.body);
    const response = await service.inject({
      method: 'POST',
      url: '/x',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    await service.close();
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Malformed JSON body', code: 'MALFORMED_BODY' });
  });
});
