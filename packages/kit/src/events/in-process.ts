import type { EventEnvelope, EventName, ServiceName } from '@app/contracts';
import type { FastifyBaseLogger as Logger } from 'fastify';
import pg from 'pg';
import { createLogger } from '../logger.ts';
import { metricsHooks, observePool } from '../metrics.ts';
import type { TraceCarrier } from '../tracing.ts';
import {
  consumerOptions,
  eventCodec,
  refusalFields,
  retryDelayMs,
  slots,
  withProgress,
  type BusHooks,
  type ConsumerOptions,
  type DeadLetterReason,
  type EventBus,
  type EventHandler,
  type Subscription,
} from './bus.ts';

export interface InProcessBusOptions {
  /** The database that keeps the stream and each subscriber's deliveries (schema `bus`). */
  databaseUrl: string;
  logger?: Logger;
  /** INTERNAL_SECRET: events are signed with a key derived from it, and checked before any handler runs. */
  secret: string;
  /** The service this bus publishes for; unset when it is shared by every service (`npm start`). */
  producer?: ServiceName | undefined;
  /** How long a delivery may stay unacknowledged before it is delivered again (a crash mid-handling). */
  ackWaitMs?: number;
  /** Defaults of every subscriber of this bus (ack wait, deliveries before dead-lettering...). */
  consumers?: ConsumerOptions;
  /** Told of each redelivery and dead letter; default `metricsHooks` (the process's Prometheus counters). */
  hooks?: BusHooks;
  /** Delay before delivering again after the handler failed, by attempt (1, 2...). */
  retryDelay?: (attempt: number) => number;
  /** How long a published event stays deliverable to subscribers that appear later (as the NATS stream keeps it). */
  retentionMs?: number;
  schema?: string;
}

interface Delivery {
  seq: string;
  attempts: number;
  data: string;
  /** The publisher's trace context (as NATS carries it in headers): beside the signed data, not in it. */
  trace_context: TraceCarrier | null;
}

/** Bus instances of this process by database and schema: `listen` reaches every one of them, as on NATS. */
const instances = new Map<string, Set<(data: string, name: string) => void>>();
const IDLE_POLL_MS = 1000;

/**
 * The single-process transport, with the same contract as JetStream: a published event is stored
 * durably (PostgreSQL, schema `bus`) before `publish` resolves; each subscriber has its own queue of
 * deliveries and progresses on its own; a delivery is leased while its handler runs and acknowledged
 * after it succeeds; a failing handler gets the event again after a backoff without holding up that
 * subscriber's later events or re-running other subscribers; a crash mid-handling delivers again once
 * the lease runs out. Publishing twice with one event id delivers once. Nothing runs inside the
 * publisher's transaction: the outbox relay publishes committed rows and returns.
 */
export async function inProcessBus(options: InProcessBusOptions): Promise<EventBus> {
  const log = options.logger ?? createLogger('bus');
  const schema = options.schema ?? 'bus';
  const hooks = options.hooks ?? metricsHooks;
  const retryDelay = options.retryDelay ?? retryDelayMs;
  const retentionMs = options.retentionMs ?? 7 * 24 * 3600_000;
  const codec = eventCodec(options.secret, options.producer);
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4, options: `-c search_path=${schema}` });
  pool.on('error', () => {});
  observePool(schema, 'bus', pool);

  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await pool.query(`SELECT pg_advisory_lock(hashtext('bus-schema'))`);
  try {
    await pool.query(`
      CREATE TABLE IF NOT EXISTS messages (
        seq BIGSERIAL PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        data TEXT NOT NULL,
        published_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS messages_name_seq_idx ON messages (name, seq);
      CREATE TABLE IF NOT EXISTS consumers (subscriber TEXT PRIMARY KEY, event TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS deliveries (
        subscriber TEXT NOT NULL,
        seq BIGINT NOT NULL,
        attempts INT NOT NULL DEFAULT 0,
        available_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (subscriber, seq)
      );
      CREATE TABLE IF NOT EXISTS dead_letters (
        subscriber TEXT NOT NULL,
        seq BIGINT NOT NULL,
        event_id TEXT,
        name TEXT,
        reason TEXT NOT NULL,
        data TEXT NOT NULL,
        refused_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (subscriber, seq)
      );
      ALTER TABLE messages ADD COLUMN IF NOT EXISTS trace_context JSONB;`);
  } finally {
    await pool.query(`SELECT pg_advisory_unlock(hashtext('bus-schema'))`);
  }

  const loops = new Map<string, { wake: () => void; done: Promise<void> }>();
  const listeners = new Map<string, EventHandler[]>();
  let closed = false;

  const instanceKey = `${options.databaseUrl}#${schema}`;
  const hear = (data: string, name: string) => {
    const registered = listeners.get(name) ?? [];
    if (!registered.length) return;
    let event: EventEnvelope;
    try {
      event = codec.decode(data);
    } catch (error) {
      log.error({ ...refusalFields(error), listener: name }, 'bus: refused a broadcast event');
      return;
    }
    for (const listener of registered) {
      listener(event).catch((error: unknown) => log.warn({ err: error, eventId: event.id }, 'listener failed'));
    }
  };
  instances.set(instanceKey, (instances.get(instanceKey) ?? new Set()).add(hear));

  // Events every subscriber has acknowledged are kept for the retention period, then removed.
  const cleanup = setInterval(() => {
    void pool
      .query(
        `DELETE FROM messages m WHERE published_at < now() - $1 * interval '1 millisecond'
            AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.seq = m.seq)`,
        [retentionMs],
      )
      .then(() =>
        pool.query(`DELETE FROM dead_letters WHERE refused_at < now() - $1 * interval '1 millisecond'`, [retentionMs]),
      )
      .catch(() => {});
  }, 3600_000);
  cleanup.unref();

  type Settings = ReturnType<typeof consumerOptions>;

  async function consume(subscription: Subscription, state: { wake: () => void }) {
    const settings = consumerOptions({ ackWaitMs: options.ackWaitMs }, options.consumers, subscription.options);
    const inFlight = slots(settings.concurrency);
    while (!closed) {
      // Lease a batch: each delivery is hidden for ackWait while its handler runs.
      const { rows } = await pool
        .query<Delivery>(
          `UPDATE deliveries d SET attempts = d.attempts + 1, available_at = now() + $2 * interval '1 millisecond'
             FROM (SELECT seq FROM deliveries WHERE subscriber = $1 AND available_at <= now()
                    ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED) due, messages m
            WHERE d.subscriber = $1 AND d.seq = due.seq AND m.seq = d.seq
        RETURNING d.seq::text AS seq, d.attempts, m.data, m.trace_context`,
          [subscription.subscriber, settings.ackWaitMs, settings.prefetch],
        )
        .catch((error: unknown) => {
          if (!closed) log.error({ err: error, subscriber: subscription.subscriber }, 'bus: lease failed');
          return { rows: [] as Delivery[] };
        });
      rows.sort((a, b) => Number(a.seq) - Number(b.seq));
      // A free slot takes the next delivery at once: what arrives while others are handled is leased next
      // (up to `concurrency` at once), without waiting for the whole batch to finish.
      for (const delivery of rows) {
        if (closed) break;
        await inFlight.run(() => deliver(subscription, delivery, settings));
      }
      if (closed) break;
      if (rows.length === settings.prefetch) continue;
      await nextDue(subscription.subscriber, state);
    }
    await inFlight.idle();
  }

  async function deliver(subscription: Subscription, delivery: Delivery, settings: Settings) {
    const { subscriber } = subscription;
    let event: EventEnvelope;
    try {
      event = codec.decode(delivery.data);
    } catch (error) {
      await deadLetter(subscriber, delivery, refusalFields(error));
      return;
    }
    if (delivery.attempts > 1) hooks.redelivered?.({ subscriber, event: event.name, attempt: delivery.attempts });
    const maxed = { eventId: event.id, event: event.name, reason: 'max-deliveries' as const };
    // Delivered past the cap without a failure seen (its handlers died mid-work): not again.
    if (delivery.attempts > settings.maxDeliver) {
      return deadLetter(subscriber, delivery, { ...maxed, detail: 'lease ran out' });
    }
    // A long handler keeps its lease: the delivery stays hidden while it works.
    const extend = () =>
      void pool
        .query(
          `UPDATE deliveries SET available_at = now() + $3 * interval '1 millisecond' WHERE subscriber = $1 AND seq = $2`,
          [subscriber, delivery.seq, settings.ackWaitMs],
        )
        .catch(() => {});
    try {
      await withProgress(settings.ackWaitMs, extend, () =>
        subscription.handle(event as never, delivery.trace_context ?? undefined),
      );
      await ack(subscriber, delivery.seq);
    } catch (error) {
      if (delivery.attempts >= settings.maxDeliver) {
        await deadLetter(subscriber, delivery, { ...maxed, detail: String(error) });
        return;
      }
      const delay = retryDelay(delivery.attempts);
      log.warn(
        { err: error, eventId: event.id, requestId: event.requestId, subscriber, attempt: delivery.attempts, delay },
        'event handler failed; will retry',
      );
      await pool
        .query(
          `UPDATE deliveries SET available_at = now() + $3 * interval '1 millisecond' WHERE subscriber = $1 AND seq = $2`,
          [subscriber, delivery.seq, delay],
        )
        .catch(() => {});
    }
  }

  /**
   * A message that is not a valid event signed by its producer is never handled nor retried, nor is one
   * whose handler failed `maxDeliver` times: its delivery moves to `dead_letters` (with the reason) in one
   * statement.
   */
  async function deadLetter(
    subscriber: string,
    delivery: Delivery,
    refusal: { reason: string; eventId?: string | undefined; event?: string | undefined; detail: string },
  ) {
    const fields = { ...refusal, subscriber, seq: delivery.seq };
    await pool
      .query(
        `WITH gone AS (DELETE FROM deliveries WHERE subscriber = $1 AND seq = $2 RETURNING subscriber, seq)
         INSERT INTO dead_letters (subscriber, seq, event_id, name, reason, data)
         SELECT subscriber, seq, $3, $4, $5, $6 FROM gone ON CONFLICT DO NOTHING`,
        [subscriber, delivery.seq, fields.eventId ?? null, fields.event ?? null, fields.reason, delivery.data],
      )
      .then(
        () => {
          hooks.deadLettered?.({ subscriber, event: refusal.event, reason: refusal.reason as DeadLetterReason });
          log.error(
            fields,
            refusal.reason === 'max-deliveries'
              ? 'bus: gave up on an event: dead-lettered'
              : 'bus: refused an event: dead-lettered',
          );
        },
        (failure: unknown) => log.error({ ...fields, err: failure }, 'bus: could not dead-letter an event yet'),
      );
  }

  const ack = (subscriber: string, seq: string) =>
    pool.query('DELETE FROM deliveries WHERE subscriber = $1 AND seq = $2', [subscriber, seq]).catch(() => {});

  /** Sleeps until woken by a publish, the next retry or lease expiry is due, or the idle poll. */
  async function nextDue(subscriber: string, state: { wake: () => void }) {
    const { rows } = await pool
      .query<{ wait: number | null }>(
        // No delivery at all: NULL (GREATEST would turn it into 0 and spin).
        `SELECT (EXTRACT(EPOCH FROM (min(available_at) - now())) * 1000)::float8 AS wait
           FROM deliveries WHERE subscriber = $1`,
        [subscriber],
      )
      .catch(() => ({ rows: [{ wait: null }] }));
    const due = rows[0]?.wait;
    const wait = due === null || due === undefined ? IDLE_POLL_MS : Math.max(0, Math.min(IDLE_POLL_MS, due));
    if (closed) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      state.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    state.wake = () => {};
  }

  return {
    kind: 'in-process',
    async publish(event: EventEnvelope, trace?: TraceCarrier) {
      // Signed and round-tripped through JSON so handlers see exactly what JetStream would deliver.
      const data = codec.encode(event);
      codec.decode(data);
      const { rows } = await pool.query<{ subscriber: string }>(
        `WITH m AS (INSERT INTO messages (id, name, data, trace_context) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING seq, name)
         INSERT INTO deliveries (subscriber, seq) SELECT c.subscriber, m.seq FROM m JOIN consumers c ON c.event = m.name
         RETURNING subscriber`,
        [event.id, event.name, data, trace?.traceparent ? JSON.stringify(trace) : null],
      );
      for (const { subscriber } of rows) loops.get(subscriber)?.wake();
      for (const instance of instances.get(instanceKey) ?? []) instance(data, event.name);
    },
    async subscribe<N extends EventName>(subscription: Subscription<N>) {
      if (loops.has(subscription.subscriber)) return;
      // A new durable subscriber gets what the stream still keeps, as a new JetStream consumer does.
      const created = await pool.query(
        `INSERT INTO consumers (subscriber, event) VALUES ($1, $2)
         ON CONFLICT (subscriber) DO UPDATE SET event = EXCLUDED.event WHERE consumers.event <> EXCLUDED.event
         RETURNING subscriber`,
        [subscription.subscriber, subscription.event],
      );
      if (created.rowCount) {
        await pool.query(
          `INSERT INTO deliveries (subscriber, seq)
           SELECT $1, seq FROM messages WHERE name = $2 AND published_at > now() - $3 * interval '1 millisecond'
           ON CONFLICT DO NOTHING`,
          [subscription.subscriber, subscription.event, retentionMs],
        );
      }
      const state = { wake: () => {} };
      const done = consume(subscription as unknown as Subscription, state).catch((error: unknown) =>
        log.error({ err: error, subscriber: subscription.subscriber }, 'consumer stopped'),
      );
      loops.set(subscription.subscriber, { wake: () => state.wake(), done });
    },
    async listen<N extends EventName>(event: N, handle: EventHandler<N>) {
      listeners.set(event, [...(listeners.get(event) ?? []), handle as unknown as EventHandler]);
    },
    async pending() {
      const { rows } = await pool.query<{ subscriber: string; pending: number; unacknowledged: number }>(
        `SELECT subscriber, count(*) FILTER (WHERE attempts = 0)::int AS pending,
                count(*) FILTER (WHERE attempts > 0)::int AS unacknowledged
           FROM deliveries WHERE subscriber = ANY($1::text[]) GROUP BY subscriber`,
        [[...loops.keys()]],
      );
      const found = new Map(rows.map((row) => [row.subscriber, row]));
      return [...loops.keys()].map(
        (subscriber) => found.get(subscriber) ?? { subscriber, pending: 0, unacknowledged: 0 },
      );
    },
    async check() {
      await pool.query('SELECT 1');
    },
    async deadLetters(subscriber: string) {
      const { rows } = await pool.query<{
        seq: string;
        eventId: string | null;
        name: string | null;
        reason: DeadLetterReason;
        at: Date;
      }>(
        `SELECT seq::text AS seq, event_id AS "eventId", name, reason, refused_at AS at
           FROM dead_letters WHERE subscriber = $1 ORDER BY seq`,
        [subscriber],
      );
      return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
    },
    async replay(subscriber: string, eventId?: string) {
      // Back to this subscriber's queue (only it), the stored message restored if retention removed it.
      const { rows } = await pool.query<{ eventId: string }>(
        `WITH letter AS (
           DELETE FROM dead_letters WHERE subscriber = $1 AND reason = 'max-deliveries'
              AND event_id IS NOT NULL AND ($2::text IS NULL OR event_id = $2)
           RETURNING seq, event_id, name, data),
         restored AS (
           INSERT INTO messages (seq, id, name, data) SELECT seq, event_id, name, data FROM letter
           ON CONFLICT DO NOTHING),
         queued AS (
           INSERT INTO deliveries (subscriber, seq) SELECT $1, seq FROM letter ON CONFLICT DO NOTHING)
         SELECT event_id AS "eventId" FROM letter ORDER BY seq`,
        [subscriber, eventId ?? null],
      );
      loops.get(subscriber)?.wake();
      return rows.map((row) => row.eventId);
    },
    async close() {
      closed = true;
      clearInterval(cleanup);
      instances.get(instanceKey)?.delete(hear);
      for (const loop of loops.values()) loop.wake();
      await Promise.allSettled([...loops.values()].map((loop) => loop.done));
      loops.clear();
      listeners.clear();
      await pool.end();
    },
  };
}
