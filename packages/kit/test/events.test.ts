import type { EventEnvelope } from '@app/contracts';
import { eventually, freshDatabase, testBus } from '@app/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bindSubscriber,
  claimAndEmit,
  batchedClaimAndEmit,
  claimAndEmitBatch,
  createLogger,
  createPool,
  migrateService,
  OutboxRelay,
  pgTransactions,
  runInContext,
  subscriberDefiner,
  withOutbox,
  metrics,
  type EventBus,
  type PgTransaction,
} from '../src/index.ts';

const logger = createLogger('test', 'silent');
let db: Awaited<ReturnType<typeof freshDatabase>>;
let pool: pg.Pool;
let bus: EventBus;
let relay: OutboxRelay;
const transaction = () => withOutbox(pgTransactions(pool), relay);
const defineSubscriber = subscriberDefiner<PgTransaction>();

beforeAll(async () => {
  db = await freshDatabase();
  // A service with no migrations of its own still gets the kit's platform tables.
  const empty = new URL('./fixtures/no-migrations', import.meta.url).pathname;
  await migrateService(db.url, 'svc', empty);
  pool = createPool(db.url, 'svc', 4);
  await pool.query('CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)');
  bus = await testBus(db.url);
  relay = new OutboxRelay({ pool, bus, logger });
  relay.start();
});
afterAll(async () => {
  await bus.close();
  await relay.stop();
  await pool.end();
  await db.drop();
});

const count = async (sql: string, values: unknown[] = []) =>
  (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, values)).rows[0]!.n;

describe('withOutbox', () => {
  it('writes emitted events in the transaction, with the request id, and relays them after the commit', async () => {
    const seen: EventEnvelope<'session.ended'>[] = [];
    await bus.subscribe({ event: 'session.ended', subscriber: 'outbox-seen', handle: async (e) => void seen.push(e) });
    await runInContext({ requestId: 'req-42' }, () =>
      transaction()(async (tx, emit) => {
        await tx.client.query("INSERT INTO notes VALUES ('n1', 'hello')");
        emit('session.ended', { sessionId: 'committed' });
      }),
    );
    await eventually(() => seen.some((e) => e.payload.sessionId === 'committed'));
    expect(seen.find((e) => e.payload.sessionId === 'committed')).toMatchObject({ requestId: 'req-42' });
  });

  it('takes the events with it when the transaction rolls back', async () => {
    await expect(
      transaction()(async (tx, emit) => {
        await tx.client.query("INSERT INTO notes VALUES ('n2', 'lost')");
        emit('session.ended', { sessionId: 'rolled-back' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await count("outbox_events WHERE payload->>'sessionId' = 'rolled-back'")).toBe(0);
    expect(await count("notes WHERE id = 'n2'")).toBe(0);
  });

  it('refuses a payload that breaks its contract, and rolls the change back', async () => {
    await expect(
      transaction()(async (tx, emit) => {
        await tx.client.query("INSERT INTO notes VALUES ('n3', 'bad event')");
        emit('session.ended', { sessionId: 42 } as never);
      }),
    ).rejects.toThrow(/Invalid session.ended payload/);
    expect(await count("notes WHERE id = 'n3'")).toBe(0);
  });
});

describe('withOutbox on a pg transaction (the outbox rows sent with the COMMIT, values written in)', () => {
  it('stores and relays each payload exactly as emitted, whatever its characters', async () => {
    const seen: EventEnvelope<'session.ended'>[] = [];
    await bus.subscribe({ event: 'session.ended', subscriber: 'outbox-text', handle: async (e) => void seen.push(e) });
    const ids = [
      "quote ' and '' and \\' end",
      "back\\slash \\\\ $1 $$ E'x'",
      'line\nbreak\ttab \u00e9\u4e2d\ud83d\ude00',
      '{"json": [1]}',
    ];
    await runInContext({ requestId: "req-'-\\" }, () =>
      transaction()(async (tx, emit) => {
        await tx.client.query("INSERT INTO notes VALUES ('n4', 'literals')");
        for (const sessionId of ids) emit('session.ended', { sessionId });
      }),
    );
    const stored = await pool.query<{ payload: unknown; request_id: string }>(
      "SELECT payload, request_id FROM outbox_events WHERE payload->>'sessionId' = ANY($1) ORDER BY occurred_at, id",
      [ids],
    );
    const byId = (a: { sessionId: string }, b: { sessionId: string }) => a.sessionId.localeCompare(b.sessionId);
    expect(stored.rows.map((row) => row.payload as { sessionId: string }).sort(byId)).toEqual(
      ids.map((sessionId) => ({ sessionId })).sort(byId),
    );
    expect(stored.rows.every((row) => row.request_id === "req-'-\\")).toBe(true);
    await eventually(() => ids.every((id) => seen.some((e) => e.payload.sessionId === id)));
    expect(seen.filter((e) => ids.includes(e.payload.sessionId))).toHaveLength(ids.length);
  });

  it('commits nothing when the outbox insert sent with the COMMIT fails', async () => {
    await pool.query(`CREATE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.payload->>'sessionId' = 'refused' THEN RAISE EXCEPTION 'refused event'; END IF; RETURN NEW; END $$`);
    await pool.query(
      'CREATE TRIGGER refuse_event BEFORE INSERT ON outbox_events FOR EACH ROW EXECUTE FUNCTION refuse_event()',
    );
    try {
      await expect(
        transaction()(async (tx, emit) => {
          await tx.client.query("INSERT INTO notes VALUES ('n5', 'with a refused event')");
          emit('session.ended', { sessionId: 'refused' });
        }),
      ).rejects.toThrow('refused event');
      expect(await count("notes WHERE id = 'n5'")).toBe(0);
      // The connection went back to the pool usable, out of the failed transaction.
      await transaction()(async (tx) => void (await tx.client.query("INSERT INTO notes VALUES ('n6', 'after')")));
      expect(await count("notes WHERE id = 'n6'")).toBe(1);
    } finally {
      await pool.query('DROP TRIGGER refuse_event ON outbox_events; DROP FUNCTION refuse_event()');
    }
  });
});

describe('pgTransactions: pipelined (BEGIN with the first statement, `withCommit` statements with the COMMIT)', () => {
  /** What the client wrote before each answer of PostgreSQL (its ReadyForQuery), as text. */
  function wire(client: pg.PoolClient) {
    const { connection } = client as unknown as {
      connection: {
        stream: { write: (chunk: unknown, ...rest: unknown[]) => boolean };
        on(event: string, listener: () => void): void;
      };
    };
    const before: string[] = [];
    let written = '';
    const write = connection.stream.write.bind(connection.stream);
    connection.stream.write = (chunk, ...rest) => {
      written += Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk);
      return write(chunk, ...rest);
    };
    connection.on('readyForQuery', () => before.push(written));
    return before;
  }

  /** A pool of one connection, its wire watched, and its transactions. */
  async function oneConnection() {
    const single = createPool(db.url, 'svc', 1);
    const client = await single.connect();
    const before = wire(client);
    client.release();
    return { single, before, run: withOutbox(pgTransactions(single), relay) };
  }

  it('writes the first statement before BEGIN is answered, and the COMMIT before a withCommit statement is', async () => {
    const { single, before, run } = await oneConnection();
    try {
      await run(async (tx, emit) => {
        await tx.client.query("INSERT INTO notes VALUES ('p1', 'first statement')");
        tx.withCommit(tx.client.query("INSERT INTO notes VALUES ('p2', 'with the commit')"));
        emit('session.ended', { sessionId: 'pipelined' });
      });
      // Answers: BEGIN, p1, p2, then the outbox insert and COMMIT.
      expect(before[0]).toContain('BEGIN');
      expect(before[0]).toContain("'p1'");
      expect(before[1]).not.toContain("'p2'");
      expect(before[2]).toContain('COMMIT');
      expect(await count("notes WHERE id IN ('p1', 'p2')")).toBe(2);
      expect(await count("outbox_events WHERE payload->>'sessionId' = 'pipelined'")).toBe(1);
      // Back in the pool as it was: statements wait for each other's answers again.
      const client = await single.connect();
      expect(client.pipeline).toBe(false);
      client.release();
    } finally {
      await single.end();
    }
  });

  it('rolls back and throws when a statement sent with the COMMIT fails; the connection is usable after', async () => {
    const { single, run } = await oneConnection();
    try {
      await expect(
        run(async (tx, emit) => {
          await tx.client.query("INSERT INTO notes VALUES ('p3', 'before the failure')");
          tx.withCommit(tx.client.query("INSERT INTO notes VALUES ('p3', 'a duplicate key')"));
          emit('session.ended', { sessionId: 'withcommit-failed' });
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(await count("notes WHERE id = 'p3'")).toBe(0);
      expect(await count("outbox_events WHERE payload->>'sessionId' = 'withcommit-failed'")).toBe(0);
      await run(async (tx) => void (await tx.client.query("INSERT INTO notes VALUES ('p4', 'after')")));
      expect(await count("notes WHERE id = 'p4'")).toBe(1);
      // A work that fails with its last statement still in flight: rolled back, nothing kept.
      await expect(
        run(async (tx) => {
          tx.withCommit(tx.client.query("INSERT INTO notes VALUES ('p5', 'sent, then the work fails')"));
          throw new Error('work failed');
        }),
      ).rejects.toThrow('work failed');
      expect(await count("notes WHERE id = 'p5'")).toBe(0);
    } finally {
      await single.end();
    }
  });

  it('waits for the answer to BEGIN on a connection that is not idle (left in a transaction)', async () => {
    const { single, before, run } = await oneConnection();
    try {
      const client = await single.connect();
      await client.query('BEGIN');
      client.release();
      const answered = before.length;
      await run(async (tx) => void (await tx.client.query("INSERT INTO notes VALUES ('p6', 'not pipelined')")));
      expect(before[answered]).toContain('BEGIN');
      expect(before[answered]).not.toContain("'p6'");
      expect(await count("notes WHERE id = 'p6'")).toBe(1);
    } finally {
      await single.end();
    }
  });
});

describe('subscribers', () => {
  const publish = (sessionId: string, id = crypto.randomUUID()) =>
    bus.publish({ id, name: 'session.ended', payload: { sessionId }, occurredAt: new Date().toISOString() });

  it('handle each event once, in the transaction that claims it, even when it is delivered twice', async () => {
    let runs = 0;
    await bindSubscriber(
      bus,
      defineSubscriber({
        id: 'notes-writer',
        event: 'session.ended',
        handle: async ({ event, tx, emit }) => {
          if (!event.payload.sessionId.startsWith('once-')) return;
          runs++;
          await tx.client.query('INSERT INTO notes VALUES ($1, $2)', [event.payload.sessionId, event.id]);
          emit('user.email_verified', { userId: event.payload.sessionId, email: 'a@b.co' });
        },
      }),
      { transaction: transaction(), isProcessed: async () => false, log: logger },
    );
    const id = crypto.randomUUID();
    await publish('once-1', id);
    await eventually(async () => (await count("notes WHERE id = 'once-1'")) === 1);
    // The same event delivered again (as after the dedup window): its claim is already there.
    await pool.query('DELETE FROM bus.messages WHERE id = $1', [id]);
    await publish('once-1', id);
    await new Promise((r) => setTimeout(r, 400));
    expect(runs).toBe(1);
    expect(await count("processed_events WHERE subscriber = 'notes-writer' AND event_id = $1", [id])).toBe(1);
    expect(await count("outbox_events WHERE name = 'user.email_verified' AND payload->>'userId' = 'once-1'")).toBe(1);
  });

  it('roll back their writes and their claim when they fail, and succeed on a later delivery', async () => {
    let attempts = 0;
    await bindSubscriber(
      bus,
      defineSubscriber({
        id: 'notes-flaky',
        event: 'session.ended',
        handle: async ({ event, tx }) => {
          if (event.payload.sessionId !== 'flaky-1') return;
          attempts++;
          await tx.client.query('INSERT INTO notes VALUES ($1, $2)', [`flaky-${attempts}`, 'x']);
          if (attempts === 1) throw new Error('transient');
        },
      }),
      { transaction: transaction(), isProcessed: async () => false, log: logger },
    );
    await publish('flaky-1');
    await eventually(() => attempts === 2);
    await eventually(async () => (await count("notes WHERE id = 'flaky-2'")) === 1);
    expect(await count("notes WHERE id = 'flaky-1'")).toBe(0);
  });

  it('emitting: claim the event and write its answers in one statement, once however often it comes', async () => {
    const handled: string[] = [];
    const seen: EventEnvelope<'user.email_verified'>[] = [];
    await bus.subscribe({
      event: 'user.email_verified',
      subscriber: 'emitting-seen',
      handle: async (e) => void seen.push(e),
    });
    const isProcessed = async (name: string, eventId: string) =>
      (await count('processed_events WHERE subscriber = $1 AND event_id = $2', [name, eventId])) === 1;
    await bindSubscriber(
      bus,
      defineSubscriber({
        kind: 'emitting',
        id: 'notes-emitting',
        event: 'session.ended',
        skipHandled: true,
        handle: async ({ event, emit }) => {
          if (!event.payload.sessionId.startsWith('emit-')) return;
          handled.push(event.id);
          emit('user.email_verified', { userId: event.payload.sessionId, email: 'a@b.co' });
          emit('user.email_verified', { userId: `${event.payload.sessionId}-2`, email: 'a@b.co' });
        },
      }),
      {
        transaction: transaction(),
        isProcessed,
        log: logger,
        claimAndEmit: async (subscriber, eventId, rows) => {
          const claimed = await claimAndEmit(pool, subscriber, eventId, rows);
          relay.kick();
          return claimed;
        },
      },
    );
    const id = crypto.randomUUID();
    await publish('emit-1', id);
    await eventually(() => seen.filter((e) => e.payload.userId.startsWith('emit-1')).length === 2);
    await pool.query('DELETE FROM bus.messages WHERE id = $1', [id]);
    await publish('emit-1', id);
    await new Promise((r) => setTimeout(r, 400));
    // skipHandled: the redelivery was not handled again; nothing more was written or published.
    expect(handled).toEqual([id]);
    expect(await count("outbox_events WHERE payload->>'userId' LIKE 'emit-1%'")).toBe(2);
    expect(seen.filter((e) => e.payload.userId.startsWith('emit-1'))).toHaveLength(2);
  });

  it('claimAndEmit writes nothing for an event claimed before, and claims events that answer nothing', async () => {
    const row = (userId: string) => ({
      id: crypto.randomUUID(),
      name: 'user.email_verified' as const,
      payload: { userId, email: 'a@b.co' } as never,
      requestId: 'req-1',
      occurredAt: new Date(),
      traceContext: null,
    });
    const eventId = crypto.randomUUID();
    // Two deliveries at once: exactly one claims and writes.
    const results = await Promise.all([
      claimAndEmit(pool, 'claim-test', eventId, [row('cae-1')]),
      claimAndEmit(pool, 'claim-test', eventId, [row('cae-1')]),
    ]);
    expect(results.sort()).toEqual([false, true]);
    expect(await count("outbox_events WHERE payload->>'userId' = 'cae-1' AND request_id = 'req-1'")).toBe(1);
    const quiet = crypto.randomUUID();
    expect(await claimAndEmit(pool, 'claim-test', quiet, [])).toBe(true);
    expect(await claimAndEmit(pool, 'claim-test', quiet, [])).toBe(false);
    expect(await count("processed_events WHERE subscriber = 'claim-test'")).toBe(2);
  });

  it('claimAndEmitBatch claims each event on its own: answers only for the new ones, theirs alone', async () => {
    const row = (userId: string) => ({
      id: crypto.randomUUID(),
      name: 'user.email_verified' as const,
      payload: { userId, email: 'a@b.co' } as never,
      requestId: `req-${userId}`,
      occurredAt: new Date('2026-11-30T10:00:00.123Z'),
      traceContext:
        userId === 'cab-3' ? { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } : null,
    });
    const before = crypto.randomUUID();
    expect(await claimAndEmit(pool, 'batch-test', before, [row('cab-0')])).toBe(true);
    const [one, two, three] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const answers = await claimAndEmitBatch(pool, [
      { subscriber: 'batch-test', eventId: one, rows: [row('cab-1'), row('cab-1b')] },
      { subscriber: 'batch-test', eventId: before, rows: [row('cab-again')] }, // handled before: writes nothing
      { subscriber: 'batch-test', eventId: two, rows: [] },
      { subscriber: 'other-subscriber', eventId: before, rows: [row('cab-3')] }, // another subscriber's claim
      { subscriber: 'batch-test', eventId: three, rows: [row('cab-4')] },
    ]);
    expect(answers).toEqual([true, false, true, true, true]);
    const written = await pool.query<{ user_id: string; request_id: string; occurred_at: Date; trace: string | null }>(
      `SELECT payload->>'userId' AS user_id, request_id, occurred_at, trace_context->>'traceparent' AS trace
         FROM outbox_events WHERE payload->>'userId' LIKE 'cab-%' ORDER BY 1`,
    );
    expect(written.rows.map((r) => r.user_id)).toEqual(['cab-0', 'cab-1', 'cab-1b', 'cab-3', 'cab-4']);
    expect(written.rows.find((r) => r.user_id === 'cab-1')).toMatchObject({ request_id: 'req-cab-1', trace: null });
    expect(written.rows.find((r) => r.user_id === 'cab-3')?.trace).toMatch(/^00-0af7/);
    expect(written.rows[1]!.occurred_at.toISOString()).toBe('2026-11-30T10:00:00.123Z');
    expect(await count("processed_events WHERE subscriber = 'batch-test'")).toBe(4);
    // The same claims again: nothing claimed, nothing written.
    expect(
      await claimAndEmitBatch(pool, [
        { subscriber: 'batch-test', eventId: one, rows: [row('cab-1')] },
        { subscriber: 'batch-test', eventId: three, rows: [row('cab-4')] },
      ]),
    ).toEqual([false, false]);
    expect(await count("outbox_events WHERE payload->>'userId' LIKE 'cab-%'")).toBe(5);
  });

  it('an emitting subscriber under load: events handled at once share claims, each event answered once', async () => {
    const seen: EventEnvelope<'user.email_verified'>[] = [];
    await bus.subscribe({
      event: 'user.email_verified',
      subscriber: 'batch-seen',
      handle: async (e) => void seen.push(e),
    });
    // The kit's wiring (data-service.ts); its statements' sizes read from the metrics.
    const claimOnce = batchedClaimAndEmit(pool, 'test.claim_and_emit');
    await bindSubscriber(
      bus,
      defineSubscriber({
        kind: 'emitting',
        id: 'batch-emitter',
        event: 'session.ended',
        options: { concurrency: 16, prefetch: 32 },
        handle: async ({ event, emit }) => {
          if (!event.payload.sessionId.startsWith('load-')) return;
          emit('user.email_verified', { userId: event.payload.sessionId, email: 'a@b.co' });
        },
      }),
      {
        transaction: transaction(),
        isProcessed: async () => false,
        claimAndEmit: async (subscriber, eventId, rows) => {
          const claimed = await claimOnce({ subscriber, eventId, rows });
          if (claimed && rows.length) relay.kick(rows.map((r) => r.id));
          return claimed;
        },
        log: logger,
      },
    );
    const ids = Array.from({ length: 60 }, (_, i) => `load-${i}`);
    const eventIds = ids.map(() => crypto.randomUUID());
    await Promise.all(
      ids.map((sessionId, i) =>
        bus.publish({
          id: eventIds[i]!,
          name: 'session.ended',
          occurredAt: new Date().toISOString(),
          payload: { sessionId },
        }),
      ),
    );
    await eventually(() => ids.every((id) => seen.some((e) => e.payload.userId === id)), 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.filter((e) => e.payload.userId.startsWith('load-'))).toHaveLength(60);
    expect(await count("processed_events WHERE subscriber = 'batch-emitter' AND event_id = ANY($1)", [eventIds])).toBe(
      60,
    );
    // Each event's answer written once, whatever batch its claim went in.
    expect(await count("outbox_events WHERE payload->>'userId' LIKE 'load-%'")).toBe(60);
    const sizes = (await metrics.statementBatchSize.get()).values.filter(
      (v) => v.labels.statement === 'test.claim_and_emit',
    );
    const statements = sizes.find((v) => v.metricName === 'db_statement_batch_size_count')?.value ?? 0;
    const claims = sizes.find((v) => v.metricName === 'db_statement_batch_size_sum')?.value ?? 0;
    expect(statements).toBeGreaterThan(0);
    expect(claims).toBeGreaterThan(statements); // some statement served more than one claim
  });

  it('skip `prepare` (the costly part) for an event that was handled already', async () => {
    const prepared: string[] = [];
    const subscriber = defineSubscriber({
      id: 'notes-prepared',
      event: 'session.ended',
      prepare: async (event) => {
        prepared.push(event.id);
        return event.payload.sessionId.toUpperCase();
      },
      handle: async ({ event, tx, prepared: upper }) => {
        if (!event.payload.sessionId.startsWith('prep-')) return;
        await tx.client.query('INSERT INTO notes VALUES ($1, $2)', [event.payload.sessionId, upper]);
      },
    });
    const isProcessed = async (name: string, eventId: string) =>
      (await count('processed_events WHERE subscriber = $1 AND event_id = $2', [name, eventId])) === 1;
    await bindSubscriber(bus, subscriber, { transaction: transaction(), isProcessed, log: logger });
    const id = crypto.randomUUID();
    await publish('prep-1', id);
    await eventually(async () => (await count("notes WHERE id = 'prep-1' AND body = 'PREP-1'")) === 1);
    await pool.query('DELETE FROM bus.messages WHERE id = $1', [id]);
    await publish('prep-1', id);
    await new Promise((r) => setTimeout(r, 400));
    expect(prepared.filter((p) => p === id)).toHaveLength(1);
  });
});
