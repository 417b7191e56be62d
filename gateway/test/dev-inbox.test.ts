/**
 * The development inbox (`npm start` without SMTP_URL) shows every verification link: it answers only
 * a client on this machine (by its socket, not X-Forwarded-For) that names this machine in Host.
 */
import { createServer, request, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { TEST_SECRET } from '@app/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { readGatewayConfig } from '../src/config.ts';
import { isLoopback, isLoopbackHost } from '../src/proxy.ts';

let mail: Server;
let gateway: FastifyInstance;
let port: number;
/** This machine's first non-loopback IPv4 address: a client connecting to it is not on loopback. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

/** GET over a real socket to `address`, with the Host header given (fetch would not let us set it). */
const get = (address: string, path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: address, port, path, headers, setHost: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });

beforeAll(async () => {
  mail = createServer((_request, response) => response.end('<h1>Development inbox</h1>'));
  await new Promise<void>((resolve) => mail.listen(0, '127.0.0.1', resolve));
  gateway = await buildGateway({
    config: readGatewayConfig({
      INTERNAL_SECRET: TEST_SECRET,
      MAIL_URL: `http://127.0.0.1:${(mail.address() as { port: number }).port}`,
      DEV_INBOX: 'true',
      TRUST_PROXY: 'true',
    }),
    logger: false,
  });
  await gateway.listen({ host: '0.0.0.0', port: 0 });
  port = (gateway.server.address() as { port: number }).port;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => mail?.close(resolve));
});

describe('development inbox', () => {
  it('answers a loopback client naming localhost, 127.0.0.1 or [::1], on any port', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
      const response = await get('127.0.0.1', '/dev/inbox', { host });
      expect(response.status, host).toBe(200);
      expect(response.body).toContain('Development inbox');
    }
  });

  it('is a 404 for another Host, even from loopback (a DNS-rebinding page in a browser)', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, 'localhost.evil.example', '']) {
      const response = await get('127.0.0.1', '/dev/inbox/messages', { host });
      expect(response.status, host).toBe(404);
      expect(JSON.parse(response.body)).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    }
  });

  it('is a 404 for a client on another address, whatever X-Forwarded-For and Host say', async () => {
    expect(external, 'this machine has a non-loopback IPv4 address').toBeDefined();
    const response = await get(external!, '/dev/inbox', { host: 'localhost', 'x-forwarded-for': '127.0.0.1' });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body).code).toBe('NOT_FOUND');
  });

  it('never runs with NODE_ENV=production, and is not routed when DEV_INBOX is off', async () => {
    expect(() =>
      readGatewayConfig({ INTERNAL_SECRET: TEST_SECRET, DEV_INBOX: 'true', NODE_ENV: 'production' }),
    ).toThrow(/DEV_INBOX/);
    const off = await buildGateway({ config: readGatewayConfig({ INTERNAL_SECRET: TEST_SECRET }), logger: false });
    expect((await off.inject({ method: 'GET', url: '/dev/inbox', headers: { host: 'localhost' } })).statusCode).toBe(
      404,
    );
    await off.close();
  });

  it('recognises loopback addresses and hosts', () => {
    expect(['127.0.0.1', '127.5.0.1', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '', undefined, '1270.0.0.1'].some(isLoopback)).toBe(false);
    expect(['localhost', 'LOCALHOST:3000', '127.0.0.1:1', '[::1]:3000'].every(isLoopbackHost)).toBe(true);
    expect(['127.0.0.1.nip.io', 'localhost.evil', '[::2]', undefined].some(isLoopbackHost)).toBe(false);
  });
});
