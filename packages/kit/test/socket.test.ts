/**
 * listenOnSocket: a service's Fastify app served on a Unix socket beside its TCP port, for a gateway on the
 * same host (`<NAME>_SOCKET`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createServiceApp, listenOnSocket } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'kit-socket-'));
let app: FastifyInstance;
let tcpUrl: string;

/** GET over a Unix socket: status and body. */
const getOverSocket = (socketPath: string, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const call = request({ socketPath, path, headers: { host: 'service' } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    call.once('error', reject);
    call.end();
  });

beforeAll(async () => {
  app = createServiceApp({ name: 'socket-test', internalSecret: 'x'.repeat(32), logger: false });
  app.get('/api/where', async (request) => ({ via: request.socket.remoteAddress ? 'tcp' : 'uds', id: request.id }));
  tcpUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
});

describe('listenOnSocket', () => {
  it('serves the same app on the socket, hooks included, and closing it leaves the TCP port up', async () => {
    const socket = await listenOnSocket(app, join(dir, 'a.sock'));
    const viaSocket = await getOverSocket(socket.path, '/api/where');
    expect(viaSocket.status).toBe(200);
    expect(JSON.parse(viaSocket.body)).toMatchObject({ via: 'uds' });
    // The kit's own hooks ran: the 404 of an unknown route is the kit's JSON one.
    const unknown = await getOverSocket(socket.path, '/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 'NOT_FOUND' });

    await socket.close();
    await expect(getOverSocket(socket.path, '/api/where')).rejects.toThrow();
    expect(await (await fetch(`${tcpUrl}/api/where`)).json()).toMatchObject({ via: 'tcp' });
  });

  it('replaces a socket file left by a process that died, and refuses one another process listens on', async () => {
    const path = join(dir, 'b.sock');
    // A process that dies listening leaves its socket file behind.
    const child = spawn(process.execPath, [
      '-e',
      "require('net').createServer().listen(process.argv[1], () => process.kill(process.pid, 'SIGKILL'))",
      path,
    ]);
    await new Promise((resolve) => child.once('exit', resolve));
    expect(existsSync(path)).toBe(true);
    const socket = await listenOnSocket(app, path);
    expect((await getOverSocket(path, '/api/where')).status).toBe(200);

    await expect(listenOnSocket(app, path)).rejects.toThrow(/another process is listening there/);
    // The live one was left alone.
    expect((await getOverSocket(path, '/api/where')).status).toBe(200);
    await socket.close();

    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(join(dir, 'c.sock'), resolve));
    await expect(listenOnSocket(app, join(dir, 'c.sock'))).rejects.toThrow(/another process is listening there/);
    await new Promise((resolve) => busy.close(resolve));
  });
});
