import { lstatSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Whether a TCP port on 127.0.0.1 can be listened on now; `0` asks the kernel for any, answered as the port. */
function tryListen(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

/**
 * Ports picked below Linux's ephemeral range (32768-60999 by default): the kernel never hands those to
 * another process's `listen(0)` or outgoing connection, so the port stays free between this check and the
 * child process that listens on it (a test file running beside another one, on a busy machine, once found
 * another test's server on the port it had been given).
 *
 * The range is cut into slices, one per test worker (vitest's `VITEST_POOL_ID`, unique among the workers
 * running at once; the process id elsewhere), and a process never hands out the same port twice: two
 * files running side by side, or two calls in one file before either child listens, cannot be given the
 * same port (a CI run once started two of a test's processes on one, picked at random by both).
 */
const PICKED = { from: 20_000, to: 32_000, slices: 12 };
const handedOut = new Set<number>();

function slice(): { from: number; size: number } {
  const pool = Number(process.env.VITEST_POOL_ID);
  const index = (Number.isInteger(pool) && pool > 0 ? pool - 1 : process.pid) % PICKED.slices;
  const size = Math.floor((PICKED.to - PICKED.from) / PICKED.slices);
  return { from: PICKED.from + index * size, size };
}

/** A TCP port on 127.0.0.1 that was free a moment ago (for child processes that need a fixed port). */
export async function freePort(): Promise<number> {
  const { from, size } = slice();
  const start = Math.floor(Math.random() * size);
  for (let step = 0; step < size; step++) {
    const port = from + ((start + step) % size);
    if (handedOut.has(port) || (await tryListen(port)) === null) continue;
    handedOut.add(port);
    return port;
  }
  const any = await tryListen(0);
  if (any === null) throw new Error('no free TCP port on 127.0.0.1');
  handedOut.add(any);
  return any;
}

export interface SocketListener {
  path: string;
  /** Stops listening (idle keep-alive connections closed, requests under way finished); the app stays up. */
  close(): Promise<void>;
}

/** A socket file nobody listens on any more (a process that died without closing) is removed. */
async function removeStaleSocket(path: string) {
  try {
    if (!lstatSync(path).isSocket()) return; // listen then fails with EADDRINUSE
  } catch {
    return; // nothing there
  }
  const live = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (live) throw new Error(`Cannot listen on ${path}: another process is listening there`);
  rmSync(path);
}

/**
 * Serves a Fastify app that is already listening on its TCP port on a Unix socket too, with the same
 * routes, hooks and timeouts: a gateway on the same host reaches it there (its `<NAME>_SOCKET`) without
 * loopback TCP, which costs both ends more CPU per request. A socket file left at `path` by a process that
 * died is replaced; one another process listens on is not. The caller closes it (before or after the app;
 * a Fastify app takes no hook once started).
 */
export async function listenOnSocket(app: FastifyInstance, path: string): Promise<SocketListener> {
  await removeStaleSocket(path);
  const server = createHttpServer((req, res) => app.routing(req, res));
  server.keepAliveTimeout = app.server.keepAliveTimeout;
  server.requestTimeout = app.server.requestTimeout;
  server.headersTimeout = app.server.headersTimeout;
  server.timeout = app.server.timeout;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
