/**
 * The kit's metrics under `npm start`'s shape: two apps and the in-process bus in one process, one
 * endpoint, each app's series told apart by `service`; the bus's lag, redeliveries and dead letters.
 */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@app/contracts';
import { eventually, freshDatabase, TEST_SECRET, testBus } from '@app/testing';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeMetricsServer,
  createLogger,
  createPool,
  createServiceApp,
  freePort,
  inProcessBus,
  observeConsumers,
  observeOutbox,
  startMetricsServer,
  type EventBus,
} from '../src/index.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let bus: EventBus;
let server: Server;
let url: string;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  db = await freshDatabase();
  bus = await testBus(db.url);
  const port = await freePort();
  server = await startMetricsServer({ host: '127.0.0.1', port, log: createLogger('test', 'silent') });
  url = `http://127.0.0.1:${port}/metrics`;
  closers.push(() => bus.close());
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await closeMetricsServer(server);
  await db.drop();
});

const scrape = async () => {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return response.text();
};

const ended = (): EventEnvelope<'session.ended'> => ({
  id: randomUUID(),
  name: 'session.ended',
  payload: { sessionId: randomUUID() },
  occurredAt: new Date().toISOString(),
});

describe('one metrics endpoint for every app of the process', () => {
  it('labels each app its service, per route template', async () => {
    for (const name of ['auth', 'mail']) {
      const app = createServiceApp({ name, internalSecret: TEST_SECRET, logger: false });
      app.get('/things/:id', async () => ({ ok: true }));
      closers.push(() => app.close());
      expect((await app.inject({ url: '/things/42' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/nowhere' })).statusCode).toBe(404);
    }
    const text = await scrape();
    for (const service of ['auth', 'mail']) {
      expect(text).toContain(
        `http_request_duration_seconds_count{service="${service}",method="GET",route="/things/:id",status_class="2xx"} 1`,
      );
      expect(text).toContain(
        `http_request_duration_seconds_count{service="${service}",method="GET",route="unmatched",status_class="4xx"} 1`,
      );
    }
    expect(text).not.toContain('/things/42');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it('reads the outbox backlog and the pools when scraped', async () => {
    const pool = createPool(db.url, 'svc', 2);
    closers.push(() => pool.end());
    await pool.query(`CREATE SCHEMA IF NOT EXISTS svc`);
    await pool.query(`CREATE TABLE svc.outbox_events (id int, published_at timestamptz)`);
    await pool.query(`INSERT INTO svc.outbox_events VALUES (1, NULL), (2, NULL), (3, now())`);
    const stop = observeOutbox('svc', pool);
    const text = await scrape();
    expect(text).toContain('outbox_backlog_events{service="svc"} 2');
    expect(text).toContain('db_pool_max_connections{service="svc",pool="pg"} 2');
    expect(text).toMatch(/db_pool_connections\{service="svc",pool="pg",state="idle"\} [12]/);
    expect(text).toContain('db_pool_waiting_queries{service="svc",pool="pg"} 0');
    stop();
    expect(await scrape()).not.toContain('outbox_backlog_events{service="svc"}');
  });

  it("counts the in-process bus's lag, redeliveries and dead letters", async () => {
    observeConsumers(bus);
    let calls = 0;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await bus.subscribe({
      event: 'session.ended',
      subscriber: 'metrics-sessions',
      handle: async () => {
        calls++;
        if (calls === 1) throw new Error('first attempt fails');
        await held;
      },
    });
    await bus.publish(ended());
    // The second attempt is a redelivery, held unacknowledged.
    await eventually(() => calls === 2, 10_000, 'the redelivery');
    let text = await scrape();
    expect(text).toContain('consumer_redeliveries_total{subscriber="metrics-sessions"} 1');
    expect(text).toContain('consumer_unacknowledged_events{subscriber="metrics-sessions"} 1');
    expect(text).toContain('consumer_pending_events{subscriber="metrics-sessions"} 0');
    release();

    // Signed with another secret: refused and dead-lettered, never handled.
    const forger = await inProcessBus({
      databaseUrl: db.url,
      logger: createLogger('test', 'silent'),
      secret: 'another-secret-0123456789abcdef-0123456789',
    });
    closers.push(() => forger.close());
    await forger.publish(ended());
    await eventually(
      async () =>
        (await scrape()).includes('consumer_dead_letters_total{subscriber="metrics-sessions",reason="forged"} 1'),
      10_000,
      'the dead letter',
    );
    text = await scrape();
    expect(text).toContain('consumer_unacknowledged_events{subscriber="metrics-sessions"} 0');
    expect(calls).toBe(2);
  });
});
