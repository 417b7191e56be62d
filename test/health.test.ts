/**
 * Health that means something: a service's /readyz says whether it can do its work (database and events:
 * NATS between processes), the gateway's is its own (a service being down does not take every gateway
 * out of its load balancer), and the gateway's /status shows the whole system, to administrators only.
 */
import { createAuthService, readAuthConfig, type AuthService } from '@app/auth-service';
import { createLogger, createServiceApp, natsBus, type EventBus } from '@app/kit';
import { freshDatabase, TEST_SECRET, testBus } from '@app/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, readGatewayConfig } from '@app/gateway';
import { startNatsServer, type NatsServer } from './processes.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let sql: pg.Pool;
const closing: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  db = await freshDatabase();
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});
afterAll(async () => {
  for (const close of closing.reverse()) await close().catch(() => {});
  await sql?.end();
  await db?.drop();
});

describe("a service's /readyz", () => {
  let nats: NatsServer;
  let bus: EventBus;
  let auth: AuthService;

  beforeAll(async () => {
    nats = await startNatsServer();
    closing.push(() => nats.stop());
    bus = await natsBus({
      url: nats.url,
      name: 'health-test',
      namespace: 'health_test',
      logger: createLogger('test', 'silent'),
      secret: TEST_SECRET,
      producer: 'auth',
    });
    closing.push(() => bus.close());
    auth = await createAuthService({
      config: readAuthConfig({ DATABASE_URL: db.url, INTERNAL_SECRET: TEST_SECRET, APP_VERSION: 'v-test' }),
      bus,
      logger: false,
    });
    closing.push(() => auth.close());
  });

  it('is ready with its database and NATS, and says so per check with its version', async () => {
    const ready = await auth.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      version: 'v-test',
      checks: { database: 'ready', events: 'ready' },
    });
  });

  it('answers 503 naming NATS when NATS is down, within the probe time', async () => {
    await nats.stop();
    const started = Date.now();
    const down = await auth.app.inject({ method: 'GET', url: '/readyz' });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      checks: { database: 'ready', events: 'unavailable' },
    });
    // Still alive: liveness must not restart a process over a dependency's outage.
    expect((await auth.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe("the gateway's /readyz and /status", () => {
  let gateway: FastifyInstance;
  let auth: AuthService;

  const signIn = async (email: string) => {
    const json = { 'content-type': 'application/json' };
    await gateway.inject({
      method: 'POST',
      url: '/api/register',
      headers: json,
      payload: { firstName: 'S', lastName: 'T', companyName: 'C', email, password: 'a pass phrase 1' },
    });
    await sql.query('UPDATE auth.users SET email_verified_at = now() WHERE email = $1', [email]);
    const login = await gateway.inject({
      method: 'POST',
      url: '/api/login',
      headers: json,
      payload: { email, password: 'a pass phrase 1' },
    });
    expect(login.statusCode).toBe(200);
    return { cookie: `sid=${login.cookies.find((c) => c.name === 'sid')!.value}` };
  };

  beforeAll(async () => {
    const bus = await testBus(db.url);
    closing.push(() => bus.close());
    auth = await createAuthService({
      config: readAuthConfig({ DATABASE_URL: db.url, INTERNAL_SECRET: TEST_SECRET, ADMIN_EMAILS: 'ops@status.test' }),
      bus,
      logger: false,
    });
    closing.push(() => auth.close());
    const authUrl = await auth.app.listen({ host: '127.0.0.1', port: 0 });
    // A service that is up but cannot work (its database is gone).
    const broken: FastifyInstance = createServiceApp({
      name: 'broken',
      internalSecret: TEST_SECRET,
      logger: false,
      readiness: { database: async () => Promise.reject(new Error('connection refused')) },
    });
    closing.push(() => broken.close());
    const brokenUrl = await broken.listen({ host: '127.0.0.1', port: 0 });
    const nobody = 'http://127.0.0.1:1';
    gateway = await buildGateway({
      config: readGatewayConfig({
        INTERNAL_SECRET: TEST_SECRET,
        APP_VERSION: 'v-gateway',
        AUTH_URL: authUrl,
        MAIL_URL: brokenUrl,
        REFERRALS_URL: nobody,
        PROGRAMS_URL: nobody,
        PROFILES_URL: nobody,
        AI_URL: nobody,
        RATE_LIMIT_AUTH_MAX: '50',
      }),
      bus,
      logger: false,
    });
    closing.push(() => gateway.close());
  });

  it('is ready while services are down: its readiness is its own', async () => {
    const ready = await gateway.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', version: 'v-gateway' });
  });

  it('shows /status to administrators only; anyone else gets a plain 404', async () => {
    const anonymous = await gateway.inject({ method: 'GET', url: '/status' });
    expect(anonymous.statusCode).toBe(404);
    expect(anonymous.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    const user = await gateway.inject({ method: 'GET', url: '/status', headers: await signIn('someone@status.test') });
    expect(user.statusCode).toBe(404);
    expect(user.body).toBe(anonymous.body);
  });

  it('tells an administrator each service state, the bus and the version', async () => {
    const admin = await gateway.inject({ method: 'GET', url: '/status', headers: await signIn('ops@status.test') });
    expect(admin.statusCode).toBe(200);
    expect(admin.headers['cache-control']).toBe('no-store');
    const body = admin.json() as Record<string, unknown> & { services: Record<string, unknown> };
    expect(body).toMatchObject({
      status: 'degraded',
      version: 'v-gateway',
      events: { transport: 'in-process', status: 'ready' },
    });
    expect(body.services).toEqual({
      auth: { status: 'ready', version: 'dev', checks: { database: 'ready', events: 'ready' } },
      mail: { status: 'not ready', version: 'dev', checks: { database: 'unavailable' } },
      referrals: { status: 'unreachable' },
      programs: { status: 'unreachable' },
      profiles: { status: 'unreachable' },
      ai: { status: 'unreachable' },
    });
  });
});
