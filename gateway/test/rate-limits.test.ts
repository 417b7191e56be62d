/**
 * Rate limits hold across gateway replicas: two gateways on one NATS server draw on one budget (NATS KV),
 * where each used to count alone (N replicas, N times the attempts).
 */
import { createServer, type Server } from 'node:http';
import { natsConnection, natsCounter, rateLimitBucket } from '@app/kit';
import { deleteStream, natsUrl, TEST_SECRET, uniqueId } from '@app/testing';
import type { NatsConnection } from '@nats-io/nats-core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { readGatewayConfig } from '../src/config.ts';
import { memoryCounter } from '../src/rate-limits.ts';

const namespace = uniqueId('ratelimits').replace(/-/g, '_');
const MAX = 6;
let auth: Server;
let authUrl: string;
const connections: NatsConnection[] = [];
const gateways: FastifyInstance[] = [];

/** A gateway in front of an auth service that refuses every login; its limits counted in NATS or memory. */
async function gateway(shared: boolean, max = MAX): Promise<FastifyInstance> {
  let rateLimits;
  if (shared) {
    const nc = await natsConnection(await natsUrl(), 'gateway-test');
    connections.push(nc);
    rateLimits = await natsCounter(nc, { namespace, maxWindowMs: 60_000 });
  }
  const app = await buildGateway({
    config: readGatewayConfig({
      INTERNAL_SECRET: TEST_SECRET,
      AUTH_URL: authUrl,
      RATE_LIMIT_AUTH_MAX: String(max),
      RATE_LIMIT_WINDOW_MS: '60000',
      TRUST_PROXY: 'true',
    }),
    logger: false,
    ...(rateLimits ? { rateLimits } : {}),
  });
  gateways.push(app);
  return app;
}

const login = (app: FastifyInstance, client: string) =>
  app
    .inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      payload: { email: 'a@x.test', password: 'wrong' },
    })
    .then((response) => response.statusCode);

beforeAll(async () => {
  auth = createServer((_request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' }));
  });
  await new Promise<void>((resolve) => auth.listen(0, '127.0.0.1', resolve));
  authUrl = `http://127.0.0.1:${(auth.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const app of gateways) await app.close();
  for (const nc of connections) await nc.close();
  await new Promise((resolve) => auth?.close(resolve));
  await deleteStream(`KV_${rateLimitBucket(namespace)}`);
});

describe('rate limits shared by gateway replicas', () => {
  it('gives two replicas on one NATS one budget, alternating', async () => {
    const [a, b] = [await gateway(true), await gateway(true)];
    const statuses: number[] = [];
    for (let i = 0; i < MAX + 2; i++) statuses.push(await login(i % 2 ? b : a, '203.0.113.1'));
    expect(statuses).toEqual([...Array<number>(MAX).fill(401), 429, 429]);
    // Another client has its own budget.
    expect(await login(a, '203.0.113.2')).toBe(401);
  });

  it('counts exactly under concurrent attempts on both replicas', async () => {
    const [a, b] = [await gateway(true, 10), await gateway(true, 10)];
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => login(i % 2 ? b : a, '203.0.113.9')));
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });

  it('counts in memory when there is no NATS (npm start): per process', async () => {
    const [a, b] = [await gateway(false), await gateway(false)];
    for (let i = 0; i < MAX; i++) expect(await login(a, '203.0.113.3')).toBe(401);
    expect(await login(a, '203.0.113.3')).toBe(429);
    expect(await login(b, '203.0.113.3')).toBe(401);
  });

  it('keeps counting, in the replica, when NATS cannot be reached', async () => {
    const nc = await natsConnection(await natsUrl(), 'gateway-test-closed');
    const rateLimits = await natsCounter(nc, { namespace, maxWindowMs: 60_000 });
    await nc.close();
    const app = await buildGateway({
      config: readGatewayConfig({ INTERNAL_SECRET: TEST_SECRET, AUTH_URL: authUrl, RATE_LIMIT_AUTH_MAX: '2' }),
      logger: false,
      rateLimits,
    });
    gateways.push(app);
    expect([await login(app, 'x'), await login(app, 'x'), await login(app, 'x')]).toEqual([401, 401, 429]);
  });

  it('starts a new window once the last one ran out, in NATS and in memory', async () => {
    const nc = await natsConnection(await natsUrl(), 'gateway-test-window');
    connections.push(nc);
    for (const counter of [await natsCounter(nc, { namespace, maxWindowMs: 60_000 }), memoryCounter()]) {
      expect((await counter.incr('window-key', 300)).current).toBe(1);
      const second = await counter.incr('window-key', 300);
      expect(second.current).toBe(2);
      expect(second.ttl).toBeGreaterThan(0);
      expect(second.ttl).toBeLessThanOrEqual(300);
      await new Promise((r) => setTimeout(r, 350));
      expect((await counter.incr('window-key', 300)).current).toBe(1);
    }
  });

  it('writes no client address to NATS in clear', async () => {
    const { jetstreamManager } = await import('@nats-io/jetstream');
    const jsm = await jetstreamManager(connections[0]!);
    const info = await jsm.streams.info(`KV_${rateLimitBucket(namespace)}`, { subjects_filter: '>' });
    const subjects = Object.keys(info.state.subjects ?? {});
    expect(subjects.length).toBeGreaterThan(0);
    for (const subject of subjects) expect(subject).not.toMatch(/203\.0\.113|login/);
  });
});
