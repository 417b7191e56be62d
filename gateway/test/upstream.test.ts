import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { upstreamFailure } from '../src/proxy.ts';
import { Upstream, UPSTREAM_ERRORS, type UpstreamHandler, type UpstreamOptions } from '../src/upstream.ts';

/**
 * The fast path's hand-written HTTP/1.1 client against a real TCP server that answers exactly the bytes a
 * test gives it: framing (content-length, chunked in pieces of one byte, until close), keep-alive and its
 * limits, time-outs, and answers it must refuse.
 */

interface Outcome {
  status?: number;
  headers?: string[];
  body: Buffer;
  error?: Error & { code?: string };
  /** How many times the handler was told the call ended (must be 1). */
  endings: number;
}

/** A server whose `answer` writes what it likes on each request's socket; it records the raw requests. */
async function rawServer(answer: (socket: Socket, request: string, index: number) => void) {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let open = 0;
  let mostOpen = 0;
  const server: Server = createServer((socket) => {
    connections++;
    open++;
    mostOpen = Math.max(mostOpen, open);
    sockets.add(socket);
    socket.on('close', () => {
      open--;
      sockets.delete(socket);
    });
    let pending = '';
    socket.on('data', (data) => {
      pending += data.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        const request = pending.slice(0, end + 4);
        pending = pending.slice(end + 4);
        requests.push(request);
        answer(socket, request, requests.length - 1);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    requests,
    stats: () => ({ connections, mostOpen }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const servers: Array<{ close(): Promise<void> }> = [];
const upstreams: Upstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function setup(answer: Parameters<typeof rawServer>[0], options: Partial<UpstreamOptions> = {}) {
  const server = await rawServer(answer);
  servers.push(server);
  const upstream = new Upstream({
    origin: `http://127.0.0.1:${server.port}`,
    connections: 8,
    connectTimeoutMs: 1000,
    keepAliveMs: 30_000,
    ...options,
  });
  upstreams.push(upstream);
  return { server, upstream };
}

/** One call, collected; `pauseFirst` answers false to the first chunk and resumes 20 ms later. */
function call(upstream: Upstream, path = '/x', options: { timeoutMs?: number; pauseFirst?: boolean } = {}) {
  return new Promise<Outcome>((resolve) => {
    const outcome: Outcome = { body: Buffer.alloc(0), endings: 0 };
    const chunks: Buffer[] = [];
    let resume = () => {};
    let paused = false;
    const handler: UpstreamHandler = {
      onConnect() {},
      onHeaders(status, headers, resumeReading) {
        outcome.status = status;
        outcome.headers = headers;
        resume = resumeReading;
        return true;
      },
      onData(chunk) {
        chunks.push(Buffer.from(chunk));
        if (options.pauseFirst && !paused) {
          paused = true;
          setTimeout(resume, 20);
          return false;
        }
        return true;
      },
      onComplete() {
        outcome.endings++;
        outcome.body = Buffer.concat(chunks);
        setTimeout(() => resolve(outcome), 20); // anything told after the end would show in `endings`
      },
      onError(error) {
        outcome.endings++;
        outcome.error = error;
        outcome.body = Buffer.concat(chunks);
        setTimeout(() => resolve(outcome), 20);
      },
    };
    upstream.dispatch(
      { path, headers: ['x-request-id', 'r1', 'x-identity', 'signed'], timeoutMs: options.timeoutMs ?? 2000 },
      handler,
    );
  });
}

const ok = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

/** Writes the bytes one at a time, a few ms apart: every split a read can see. */
function trickle(socket: Socket, text: string) {
  const bytes = Buffer.from(text, 'latin1');
  let i = 0;
  const next = () => {
    if (i >= bytes.length || socket.destroyed) return;
    socket.write(bytes.subarray(i, ++i));
    setTimeout(next, 1);
  };
  next();
}

describe('upstream client (the fast path to a service)', () => {
  it('writes the request as given and reuses one kept-alive connection for calls in a row', async () => {
    const { server, upstream } = await setup((socket, _request, i) =>
      socket.write(ok(`{"n":${i}}`, 'Set-Cookie: a=1\r\n')),
    );
    for (let i = 0; i < 5; i++) {
      const outcome = await call(upstream, `/api/x/${i}?q=1`);
      expect(outcome).toMatchObject({ status: 200, endings: 1 });
      expect(outcome.body.toString()).toBe(`{"n":${i}}`);
      // Names in lower case, values as sent, in order.
      expect(outcome.headers).toEqual(['content-type', 'application/json', 'content-length', '7', 'set-cookie', 'a=1']);
    }
    expect(server.stats().connections).toBe(1);
    expect(server.requests[3]).toBe(
      `GET /api/x/3?q=1 HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nx-request-id: r1\r\nx-identity: signed\r\n\r\n`,
    );
  });

  it('reads a chunked body split at every byte, with extensions and trailers, and reuses the connection', async () => {
    const body = 'hello, chunked world';
    const { server, upstream } = await setup((socket) =>
      trickle(
        socket,
        'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n' +
          `5;ext=1\r\n${body.slice(0, 5)}\r\n` +
          `${(body.length - 5).toString(16)}\r\n${body.slice(5)}\r\n` +
          '0\r\nx-trailer: t\r\n\r\n',
      ),
    );
    for (let i = 0; i < 2; i++) {
      const outcome = await call(upstream);
      expect(outcome.error).toBeUndefined();
      expect(outcome.body.toString()).toBe(body);
      expect(outcome.headers).toEqual(['transfer-encoding', 'chunked']);
    }
    expect(server.stats().connections).toBe(1);
  });

  it('reads a content-length body split at every byte, pausing and resuming the socket', async () => {
    const body = 'x'.repeat(300);
    const { upstream } = await setup((socket) => trickle(socket, ok(body)));
    const outcome = await call(upstream, '/x', { pauseFirst: true });
    expect(outcome).toMatchObject({ status: 200, endings: 1 });
    expect(outcome.body.toString()).toBe(body);
  });

  it('reads a body without a length until the service closes, then uses a new connection', async () => {
    const { server, upstream } = await setup((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\npart one, ');
      setTimeout(() => socket.end('part two'), 10);
    });
    for (let i = 0; i < 2; i++) {
      const outcome = await call(upstream);
      expect(outcome).toMatchObject({ status: 200, endings: 1 });
      expect(outcome.body.toString()).toBe('part one, part two');
    }
    expect(server.stats().connections).toBe(2);
  });

  it('ends a 204, a 304 and an empty answer at their head, skips a 100, and keeps the connection', async () => {
    const answers = [
      'HTTP/1.1 204 No Content\r\n\r\n',
      'HTTP/1.1 304 Not Modified\r\netag: "1"\r\n\r\n',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n',
    ];
    const { server, upstream } = await setup((socket, _request, i) => socket.write(answers[i]!));
    expect(await call(upstream)).toMatchObject({ status: 204, endings: 1, body: Buffer.alloc(0) });
    expect(await call(upstream)).toMatchObject({ status: 304, endings: 1, headers: ['etag', '"1"'] });
    expect(await call(upstream)).toMatchObject({ status: 200, endings: 1, body: Buffer.alloc(0) });
    expect(server.stats().connections).toBe(1);
  });

  it('refuses answers that are not well-formed HTTP/1.1, and never reuses their connection', async () => {
    const answers = [
      'HTTP/1.1 2000 OK\r\ncontent-length: 0\r\n\r\n',
      'ICY 200 OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhello',
      'HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, chunked\r\n\r\n',
      'HTTP/1.1 200 OK\r\nbad header\r\n\r\n',
      'HTTP/1.1 200 OK\r\nx-split: a\nset-cookie: injected\r\ncontent-length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nx-nul: a\u0000b\r\ncontent-length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n',
    ];
    const { server, upstream } = await setup((socket, _request, i) => socket.write(answers[i]!));
    for (const answer of answers) {
      const outcome = await call(upstream);
      expect(outcome.error?.code, answer).toBe(UPSTREAM_ERRORS.malformed);
      expect(outcome.endings, answer).toBe(1);
      expect(upstreamFailure(outcome.error!)).toBe('BAD_GATEWAY');
    }
    expect(server.stats().connections).toBe(answers.length);
  });

  it('times out waiting for the head or for the body, asks once (no retry), and maps both to a 504', async () => {
    const { server, upstream } = await setup((socket, request) => {
      if (request.startsWith('GET /ok')) socket.write(ok('{}'));
      if (request.startsWith('GET /body')) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhello');
    });
    // Each time-out on a kept-alive connection (reused: a retry would be tempting, and wrong).
    expect(await call(upstream, '/ok')).toMatchObject({ status: 200 });
    const head = await call(upstream, '/head', { timeoutMs: 100 });
    expect(head.error?.code).toBe(UPSTREAM_ERRORS.headersTimeout);
    expect(head.endings).toBe(1);
    expect(await call(upstream, '/ok')).toMatchObject({ status: 200 });
    const body = await call(upstream, '/body', { timeoutMs: 100 });
    expect(body.error?.code).toBe(UPSTREAM_ERRORS.bodyTimeout);
    expect(body.body.toString()).toBe('hello');
    expect(upstreamFailure(head.error!)).toBe('UPSTREAM_TIMEOUT');
    expect(upstreamFailure(body.error!)).toBe('UPSTREAM_TIMEOUT');
    expect(server.requests.map((r) => r.split(' ')[1])).toEqual(['/ok', '/head', '/ok', '/body']);
  });

  it('sends a call again on a new connection when a kept-alive one was closed under it before any answer', async () => {
    // The service answers, then drops the connection without saying so (as a keep-alive timeout does).
    const { server, upstream } = await setup((socket) => {
      socket.write(ok('{}'));
      setTimeout(() => socket.destroy(), 5);
    });
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(await call(upstream)).toMatchObject({ status: 200, endings: 1 });
    }
    expect(server.stats().connections).toBe(3);
  });

  it('fails a call whose connection dies mid-body (a 503), told once', async () => {
    const { upstream } = await setup((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly some');
      setTimeout(() => socket.destroy(), 10);
    });
    const outcome = await call(upstream);
    expect(outcome.status).toBe(200);
    expect(outcome.error?.code).toBe(UPSTREAM_ERRORS.closed);
    expect(outcome.endings).toBe(1);
    expect(upstreamFailure(outcome.error!)).toBe('SERVICE_UNAVAILABLE');
  });

  it('keeps to its connection limit: calls past it wait their turn', async () => {
    const { server, upstream } = await setup((socket) => setTimeout(() => socket.write(ok('{}')), 20), {
      connections: 2,
    });
    const outcomes = await Promise.all(Array.from({ length: 7 }, () => call(upstream)));
    expect(outcomes.every((o) => o.status === 200 && o.endings === 1)).toBe(true);
    expect(server.stats()).toEqual({ connections: 2, mostOpen: 2 });
  });

  it('drops a waiting call whose client left: it is never sent, and told once', async () => {
    const { server, upstream } = await setup(
      (socket, request) => setTimeout(() => socket.write(ok(request.split(' ')[1]!)), 30),
      {
        connections: 1,
      },
    );
    const first = call(upstream, '/first');
    // The second waits for the one connection; its client leaves before it is sent.
    let abort: ((error: Error) => void) | undefined;
    const told: string[] = [];
    upstream.dispatch(
      { path: '/left', headers: [], timeoutMs: 2000 },
      {
        onConnect: (given) => (abort = given),
        onHeaders: () => (told.push('headers'), true),
        onData: () => true,
        onComplete: () => told.push('complete'),
        onError: (error) => told.push(`error: ${error.message}`),
      },
    );
    const third = call(upstream, '/third');
    abort!(new Error('the client left'));
    abort!(new Error('the client left'));
    expect((await first).body.toString()).toBe('/first');
    expect((await third).body.toString()).toBe('/third');
    expect(told).toEqual(['error: the client left']);
    expect(server.requests.map((request) => request.split(' ')[1])).toEqual(['/first', '/third']);
  });

  it('does not reuse a connection past the service keep-alive timeout less a second', async () => {
    const { server, upstream } = await setup((socket) => socket.write(ok('{}', 'keep-alive: timeout=1\r\n')));
    await call(upstream);
    await call(upstream);
    expect(server.stats().connections).toBe(2); // timeout=1: reused for at most 0 s
  });

  it('answers a service that is not there as unavailable (503)', async () => {
    const { server, upstream } = await setup(() => {});
    await server.close();
    servers.length = 0;
    const outcome = await call(upstream);
    expect(outcome.error?.code).toBe('ECONNREFUSED');
    expect(outcome.endings).toBe(1);
    expect(upstreamFailure(outcome.error!)).toBe('SERVICE_UNAVAILABLE');
  });
});
