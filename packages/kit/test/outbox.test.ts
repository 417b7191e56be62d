import type { EventEnvelope } from '@app/contracts';
import {
  deleteConsumers,
  deleteStream,
  eventually,
  freshDatabase,
  natsUrl,
  TEST_SECRET,
  testBus,
  uniqueId,
} from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, createPool, natsBus, outboxEvent, OutboxRelay, type EventBus } from '../src/index.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let pool: pg.Pool;
const buses: EventBus[] = [];
const logger = createLogger('test', 'silent');

async function insert(count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = outboxEvent('session.ended', { sessionId: `s${i}` }, 'req-1');
    ids.push(row.id);
    await pool.query(
      'INSERT INTO outbox_events (id, name, payload, request_id, occurred_at) VALUES ($1, $2, $3, $4, $5)',
      [row.id, row.name, JSON.stringify(row.payload), row.requestId, new Date(row.occurredAt.getTime() + i)],
    );
  }
  return ids;
}

beforeAll(async () => {
  db = await freshDatabase();
  pool = createPool(db.url, 'svc', 3);
  const setup = new pg.Client({ connectionString: db.url });
  await setup.connect();
  await setup.query(`CREATE SCHEMA svc; CREATE TABLE svc.outbox_events (
    id UUID PRIMARY KEY, name TEXT NOT NULL, payload JSONB NOT NULL, request_id TEXT,
    occurred_at TIMESTAMPTZ(3) NOT NULL, published_at TIMESTAMPTZ(3), trace_context JSONB)`);
  await setup.end();
});
afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
  await pool.end();
  await db.drop();
});
beforeEach(async () => {
  await pool.query('DELETE FROM outbox_events');
});

/** A relay started in the background on a test bus, and the ids of the events a subscriber got from it. */
async function startedRelay(subscriber: string, intervalMs: number) {
  const bus = await testBus(db.url);
  buses.push(bus);
  const seen: string[] = [];
  await bus.subscribe({ event: 'session.ended', subscriber, handle: async (e) => void seen.push(e.id) });
  const relay = new OutboxRelay({ pool, bus, logger, intervalMs });
  relay.start();
  await new Promise((r) => setTimeout(r, 50)); // its first scan, of an empty table
  return { bus, seen, relay };
}

describe('OutboxRelay', () => {
  it('publishes committed rows in order with their ids and request ids, then marks them', async () => {
    const bus = await testBus(db.url);
    buses.push(bus);
    const seen: EventEnvelope[] = [];
    await bus.subscribe({ event: 'session.ended', subscriber: 'a', handle: async (e) => void seen.push(e) });
    const ids = await insert(3);
    const relay = new OutboxRelay({ pool, bus, logger });
    expect(await relay.relayOnce()).toBe(3);
    await eventually(() => seen.length === 3);
    expect(seen.map((e) => e.id)).toEqual(ids);
    expect(seen[0]).toMatchObject({ name: 'session.ended', payload: { sessionId: 's0' }, requestId: 'req-1' });
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL');
    expect(rows[0].n).toBe(0);
    expect(await relay.relayOnce()).toBe(0);
  });

  it('keeps what the bus did not accept and publishes it on a later pass (as after a crash)', async () => {
    let fail = true;
    const seen: string[] = [];
    const real = await testBus(db.url);
    buses.push(real);
    const flaky: EventBus = {
      ...real,
      publish: async (event) => {
        if (fail && event.payload && (event.payload as { sessionId: string }).sessionId === 's1')
          throw new Error('broker down');
        seen.push(event.id);
      },
    };
    const ids = await insert(3);
    const relay = new OutboxRelay({ pool, bus: flaky, logger });
    expect(await relay.relayOnce()).toBe(1);
    const { rows } = await pool.query(
      'SELECT id FROM outbox_events WHERE published_at IS NULL ORDER BY occurred_at, id',
    );
    expect(rows.map((r) => r.id).sort()).toEqual([ids[1], ids[2]].sort());
    fail = false;
    expect(await relay.relayOnce()).toBe(2);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it('runs in the background and relays promptly when kicked', async () => {
    const { seen, relay } = await startedRelay('bg', 60_000);
    const [id] = await insert(1);
    const started = Date.now();
    relay.kick();
    while (!seen.includes(id!) && Date.now() - started < 2000) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toContain(id);
    expect(Date.now() - started).toBeLessThan(2000);
    await relay.stop();
  });

  it('reads the rows it is handed by id, leaving a row it was not told of to the scan', async () => {
    const { bus, seen, relay } = await startedRelay('by-id', 60_000);
    const [other] = await insert(1); // another instance's row, or one of a process that died before relaying it
    const [own] = await insert(1);
    relay.kick([own!]);
    await eventually(() => seen.includes(own!));
    await new Promise((r) => setTimeout(r, 150));
    expect(seen).not.toContain(other); // no scan for a kick with ids: the next one is a minute away
    relay.kick(); // without ids: scan now
    await eventually(() => seen.includes(other!));
    expect(seen.filter((id) => id === own || id === other)).toHaveLength(2);
    // A row handed to it that another instance's scan published first is not published again.
    const [taken] = await insert(1);
    expect(await new OutboxRelay({ pool, bus, logger }).relayOnce()).toBe(1);
    relay.kick([taken!]);
    await eventually(() => seen.includes(taken!));
    await new Promise((r) => setTimeout(r, 150));
    expect(seen.filter((id) => id === taken)).toHaveLength(1);
    await relay.stop();
  });

  it('scans at least every interval however many ids it is handed', async () => {
    const { seen, relay } = await startedRelay('busy', 300);
    const [stray] = await insert(1);
    const kicked: string[] = [];
    const started = Date.now();
    let strayAfter = 0;
    while (Date.now() - started < 1500) {
      const [id] = await insert(1);
      kicked.push(id!);
      relay.kick([id!]); // never idle long enough for its timer
      if (!strayAfter && seen.includes(stray!)) strayAfter = Date.now() - started;
      await new Promise((r) => setTimeout(r, 15));
    }
    await eventually(() => kicked.every((id) => seen.includes(id)));
    expect(strayAfter).toBeGreaterThan(0);
    expect(strayAfter).toBeLessThan(1000);
    expect(seen.length).toBe(new Set(seen).size);
    await relay.stop();
  });

  it('on NATS sends a whole batch at once, in order, and keeps only what JetStream did not accept', async () => {
    const namespace = uniqueId('outbox').replace(/-/g, '_');
    const real = await natsBus({
      url: await natsUrl(),
      name: 'outbox-test',
      namespace,
      logger,
      secret: TEST_SECRET,
    });
    buses.push(real);
    const seen: string[] = [];
    await real.subscribe({
      event: 'session.ended',
      subscriber: 'outbox-nats',
      handle: async (e) => void seen.push(e.id),
    });
    let fail = true;
    const flaky: EventBus = {
      ...real,
      publish: (event, trace) =>
        fail && (event.payload as { sessionId: string }).sessionId === 's1'
          ? Promise.reject(new Error('no ack'))
          : real.publish(event, trace),
    };
    const ids = await insert(5);
    const relay = new OutboxRelay({ pool, bus: flaky, logger });
    expect(await relay.relayOnce()).toBe(4);
    const { rows } = await pool.query('SELECT id FROM outbox_events WHERE published_at IS NULL');
    expect(rows.map((r) => r.id)).toEqual([ids[1]]);
    await eventually(() => seen.length === 4);
    expect(seen).toEqual([ids[0], ids[2], ids[3], ids[4]]);
    fail = false;
    expect(await relay.relayOnce()).toBe(1);
    await eventually(() => seen.length === 5);
    expect(seen[4]).toBe(ids[1]);
    await real.close();
    buses.splice(buses.indexOf(real), 1);
    await deleteConsumers(namespace.toUpperCase(), ['outbox-nats']);
    await deleteStream(namespace.toUpperCase());
  });
});
