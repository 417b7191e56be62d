import { randomUUID } from 'node:crypto';
import { events, type EventEnvelope, type EventName, type EventPayload } from '@app/contracts';
import pg from 'pg';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { batched } from '../batch.ts';
import { currentContext } from '../context.ts';
import { prepared } from '../db.ts';
import { extractContext, SpanKind, traceHeaders, withSpan, type TraceCarrier } from '../tracing.ts';
import type { EventBus } from './bus.ts';

/** A row for the service's `outbox_events` table, written in the same transaction as the change. */
export function outboxEvent<N extends EventName>(
  name: N,
  payload: EventPayload<N>,
  requestId?: string,
  traceContext?: TraceCarrier,
) {
  const trace = traceContext?.traceparent ? traceContext : null;
  return { id: randomUUID(), name, payload, requestId: requestId ?? null, occurredAt: new Date(), traceContext: trace };
}

/** Announces an event from inside a transaction: it is published only if the transaction commits. */
export type Emit = <N extends EventName>(name: N, payload: EventPayload<N>) => void;

/** What runs SQL inside a transaction: a Prisma transaction client (or anything with the same method). */
export interface SqlTransaction {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** A Prisma client: the only thing `withOutbox` needs of it. */
export interface TransactionalClient<Tx> {
  $transaction<T>(work: (tx: Tx) => Promise<T>, options?: { timeout?: number; maxWait?: number }): Promise<T>;
}

/** The transaction client type of a Prisma client. */
export type TransactionOf<P> = P extends { $transaction<T>(work: (tx: infer Tx) => Promise<T>): Promise<T> }
  ? Tx
  : P extends TransactionalClient<infer Tx>
    ? Tx
    : never;

/** Runs work in one transaction; the events it emits are written in it and relayed once it commits. */
export type TransactionRunner<Tx> = <T>(work: (tx: Tx, emit: Emit) => Promise<T>) => Promise<T>;

/**
 * Validates an event against its contract and queues it. The producer is the first to find out that a
 * payload is wrong: inside its own transaction, which then rolls back.
 */
export function collector() {
  const rows: ReturnType<typeof outboxEvent>[] = [];
  const emit: Emit = (name, payload) => {
    const parsed = events[name].safeParse(payload);
    if (!parsed.success) throw new Error(`Invalid ${name} payload: ${parsed.error.message}`);
    rows.push(outboxEvent(name, parsed.data as EventPayload<typeof name>, currentContext().requestId, traceHeaders()));
  };
  return { rows, emit };
}

/** A transaction that sends statements without parameters together with its COMMIT (a pg transaction). */
interface CommitBatching {
  atCommit: string[];
}
const batchesCommit = (tx: SqlTransaction): tx is SqlTransaction & CommitBatching =>
  Array.isArray((tx as Partial<CommitBatching>).atCommit);

/**
 * The outbox rows as one INSERT with their values written in as escaped literals (pg's `escapeLiteral`), so
 * that it can be sent with the COMMIT in one simple query (no parameters there).
 */
function outboxInsertText(rows: ReturnType<typeof outboxEvent>[]): string {
  const literal = (value: string | null) => (value === null ? 'NULL' : pg.escapeLiteral(value));
  const tuples = rows.map((row) => {
    const trace = row.traceContext ? JSON.stringify(row.traceContext) : null;
    return `(${literal(row.id)}::uuid, ${literal(row.name)}, ${literal(JSON.stringify(row.payload))}::jsonb, ${literal(row.requestId)}, ${literal(row.occurredAt.toISOString())}::timestamptz, ${literal(trace)}::jsonb)`;
  });
  return `INSERT INTO outbox_events (id, name, payload, request_id, occurred_at, trace_context) VALUES ${tuples.join(', ')}`;
}

/**
 * Writes queued events into `outbox_events` with the transaction's own connection: in a pg transaction
 * with its COMMIT (one round trip fewer per transaction that emits; a failed insert fails the commit).
 */
export async function writeOutbox(tx: SqlTransaction, rows: ReturnType<typeof outboxEvent>[]): Promise<void> {
  if (!rows.length) return;
  if (batchesCommit(tx)) {
    tx.atCommit.push(outboxInsertText(rows));
    return;
  }
  const values: unknown[] = [];
  const tuples = rows.map((row, index) => {
    const trace = row.traceContext ? JSON.stringify(row.traceContext) : null;
    values.push(row.id, row.name, JSON.stringify(row.payload), row.requestId, row.occurredAt, trace);
    const n = index * 6;
    return `($${n + 1}::uuid, $${n + 2}, $${n + 3}::jsonb, $${n + 4}, $${n + 5}::timestamptz, $${n + 6}::jsonb)`;
  });
  await tx.$executeRawUnsafe(
    `INSERT INTO outbox_events (id, name, payload, request_id, occurred_at, trace_context) VALUES ${tuples.join(', ')}`,
    ...values,
  );
}

/**
 * Claims an event for a subscriber and writes the events it answers with, in one autocommit statement:
 * the outbox rows are inserted only when the claim (`processed_events`) is new, so a redelivery writes
 * nothing, and both commit together or not at all. One round trip and one commit, where a transaction
 * costs BEGIN, a statement each and COMMIT. Answers whether the event was claimed (false: handled before).
 * The caller kicks the relay.
 */
export async function claimAndEmit(
  pool: pg.Pool,
  subscriber: string,
  eventId: string,
  rows: ReturnType<typeof outboxEvent>[],
): Promise<boolean> {
  const claim = 'INSERT INTO processed_events (subscriber, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING';
  if (!rows.length) return (await pool.query(prepared(claim, [subscriber, eventId]))).rowCount === 1;
  const values: unknown[] = [subscriber, eventId];
  const tuples = rows.map((row, index) => {
    values.push(row.id, row.name, JSON.stringify(row.payload), row.requestId, row.occurredAt);
    values.push(row.traceContext ? JSON.stringify(row.traceContext) : null);
    const n = 2 + index * 6;
    return `($${n + 1}::uuid, $${n + 2}::text, $${n + 3}::jsonb, $${n + 4}::text, $${n + 5}::timestamptz, $${n + 6}::jsonb)`;
  });
  // Named: one text per number of events answered (one or two in practice).
  const { rowCount } = await pool.query(
    prepared(
      `WITH claimed AS (${claim} RETURNING 1)
     INSERT INTO outbox_events (id, name, payload, request_id, occurred_at, trace_context)
     SELECT * FROM (VALUES ${tuples.join(', ')}) AS e WHERE EXISTS (SELECT 1 FROM claimed)`,
      values,
    ),
  );
  return (rowCount ?? 0) > 0;
}

/** One subscriber's claim of one event and the events it answers with (`claimAndEmit`). */
export interface EmittingClaim {
  subscriber: string;
  eventId: string;
  rows: ReturnType<typeof outboxEvent>[];
}

/**
 * `claimAndEmit` for several events in one statement, whatever their number (arrays, one prepared text):
 * each event's answers are inserted only when its own claim is new. Answers, per claim in order, whether it
 * was claimed. The claims must be distinct (a statement inserts a row once: `batched`'s key).
 */
export async function claimAndEmitBatch(pool: pg.Pool, claims: EmittingClaim[]): Promise<boolean[]> {
  const rowOf: number[] = [];
  const ids: string[] = [];
  const names: string[] = [];
  const payloads: string[] = [];
  const requestIds: Array<string | null> = [];
  const occurredAt: Date[] = [];
  const traces: Array<string | null> = [];
  claims.forEach((claim, index) => {
    for (const row of claim.rows) {
      rowOf.push(index + 1);
      ids.push(row.id);
      names.push(row.name);
      payloads.push(JSON.stringify(row.payload));
      requestIds.push(row.requestId);
      occurredAt.push(row.occurredAt);
      traces.push(row.traceContext ? JSON.stringify(row.traceContext) : null);
    }
  });
  const { rows } = await pool.query<{ claimed: boolean }>(
    prepared(
      `WITH claims AS (
         SELECT * FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS c(subscriber, event_id, n)),
       claimed AS (
         INSERT INTO processed_events (subscriber, event_id) SELECT subscriber, event_id FROM claims
         ON CONFLICT DO NOTHING RETURNING subscriber, event_id),
       emitted AS (
         INSERT INTO outbox_events (id, name, payload, request_id, occurred_at, trace_context)
         SELECT e.id, e.name, e.payload, e.request_id, e.occurred_at, e.trace_context
           FROM unnest($3::bigint[], $4::uuid[], $5::text[], $6::jsonb[], $7::text[], $8::timestamptz[], $9::jsonb[])
                AS e(n, id, name, payload, request_id, occurred_at, trace_context)
           JOIN claims c ON c.n = e.n
           JOIN claimed k ON k.subscriber = c.subscriber AND k.event_id = c.event_id
         RETURNING 1)
       SELECT k.event_id IS NOT NULL AS claimed
         FROM claims c LEFT JOIN claimed k ON k.subscriber = c.subscriber AND k.event_id = c.event_id
        ORDER BY c.n`,
      [
        claims.map((claim) => claim.subscriber),
        claims.map((claim) => claim.eventId),
        rowOf,
        ids,
        names,
        payloads,
        requestIds,
        occurredAt,
        traces,
      ],
    ),
  );
  return rows.map((row) => row.claimed);
}

/**
 * `claimAndEmit` on a pool, the claims made while one is in flight sharing one statement (`batched`, counted as
 * `statement` in the metrics): what a service's emitting subscribers call.
 */
export function batchedClaimAndEmit(pool: pg.Pool, statement: string): (claim: EmittingClaim) => Promise<boolean> {
  return batched({
    name: statement,
    runBatch: (claims: EmittingClaim[]) => claimAndEmitBatch(pool, claims),
    runOne: (claim) => claimAndEmit(pool, claim.subscriber, claim.eventId, claim.rows),
    key: (claim) => `${claim.subscriber}\n${claim.eventId}`,
  });
}

/**
 * The one way a service changes data and announces it: `transaction((tx, emit) => ...)` runs the work in a
 * Prisma transaction, writes the events it emitted in that same transaction, and wakes the relay after
 * the commit. A rollback takes the events with it.
 */
export function withOutbox<Tx extends SqlTransaction>(
  prisma: TransactionalClient<Tx>,
  relay: OutboxRelay,
): TransactionRunner<Tx> {
  return async (work) => {
    let emitted: string[] = [];
    const result = await prisma.$transaction(async (tx) => {
      const { rows, emit } = collector();
      const value = await work(tx, emit);
      await writeOutbox(tx, rows);
      emitted = rows.map((row) => row.id);
      return value;
    });
    if (emitted.length) relay.kick(emitted);
    return result;
  };
}

interface OutboxRow {
  id: string;
  name: EventName;
  payload: never;
  request_id: string | null;
  occurred_at: Date;
  trace_context: TraceCarrier | null;
}

const BATCH = 100;
/** Ids handed to the relay (`kick`) kept at most; past it the relay scans instead. */
const MAX_QUEUED = 10_000;
/** An id as PostgreSQL prints a uuid (what the relay writes back into its statement). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Moves committed outbox rows to the bus. Rows are locked (SKIP LOCKED, so several instances share the
 * work) and marked published only after the bus accepted them: a crash at any point leaves them to be
 * sent again, and JetStream's message-id window plus idempotent consumers absorb the repeat.
 *
 * Two ways to find them. The rows this process committed are handed over by id (`kick(ids)`) and read by
 * primary key. A scan of every unpublished row (the partial index on `occurred_at, id`) finds the rest:
 * rows of another instance or of a process that died before relaying them, and rows whose publication
 * failed. The scan runs on start, on `kick()` without ids, and at least every `intervalMs` however busy the
 * relay is. It is kept off the hot path because its cost grows with the rows published since the table
 * was last vacuumed: their old versions stay in the partial index until then, and a scan from the oldest
 * end reads them all (15,000 entries and 187 heap pages, ~0.4-0.9 ms, after 15,000 events; bench:pipeline).
 */
export class OutboxRelay {
  private readonly pool: pg.Pool;
  private readonly bus: EventBus;
  private readonly log: Logger;
  private readonly intervalMs: number;
  private readonly service: string;
  private wake: (() => void) | null = null;
  private kicked = false;
  /** Ids of rows this process committed, not yet looked up (insertion order: the order they committed). */
  private readonly queued = new Set<string>();
  private scanDue = true;
  private lastScan = 0;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private lastCleanup = 0;

  constructor(options: { pool: pg.Pool; bus: EventBus; logger: Logger; intervalMs?: number; service?: string }) {
    this.pool = options.pool;
    this.service = options.service ?? 'outbox';
    this.bus = options.bus;
    this.log = options.logger;
    this.intervalMs = options.intervalMs ?? 1000;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /**
   * Relay now: call after committing a transaction that wrote events, with their ids (read by primary key);
   * without ids, the next pass scans for every unpublished row.
   */
  kick(ids?: readonly string[]): void {
    if (ids) for (const id of ids) this.queued.add(id);
    // Far behind (the bus slower than the commits): a scan finds them all, without keeping every id.
    if (!ids || this.queued.size > MAX_QUEUED) {
      this.queued.clear();
      this.scanDue = true;
    }
    this.kicked = true;
    this.wake?.();
  }

  /** The next pass's rows: up to a batch of the queued ids, or none when a scan is due. */
  private nextIds(): string[] | null {
    if (this.scanDue || !this.queued.size || Date.now() - this.lastScan >= this.intervalMs) return null;
    const ids: string[] = [];
    for (const id of this.queued) {
      this.queued.delete(id);
      // Our own randomUUID()s; anything else is left to the scan rather than written into the statement.
      if (UUID.test(id)) ids.push(id);
      if (ids.length === BATCH) break;
    }
    return ids;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  /**
   * Publishes one batch, the queued ids' rows or the oldest unpublished ones (a scan); returns how many rows
   * were published. Two round trips a pass, each statement pair sent as one simple query (no parameters: the
   * batch size is a constant and the ids are UUIDs, checked): BEGIN with the locking read, then the mark
   * with COMMIT. A pass per commit under light load, so this halves the relay's statements
   * (bench:pipeline). The mark commits without waiting for its WAL flush (synchronous_commit off for this
   * transaction only): a mark lost in a crash of PostgreSQL only means those events are sent again, which
   * JetStream's de-duplication and idempotent consumers absorb, as after a crash of the relay between the
   * publish and the mark.
   */
  async relayOnce(): Promise<number> {
    const ids = this.nextIds();
    if (ids?.length === 0) return 0;
    if (!ids) {
      this.scanDue = false;
      this.lastScan = Date.now();
    }
    const client = await this.pool.connect();
    try {
      // A row queued here but locked by another instance's scan (SKIP LOCKED), or published by it, is left to it.
      // The scan as an index scan, not a bitmap one: it marks the index entries of rows dead to everyone as
      // such, and later scans step over them without reading the table (15,000 published rows: 0.06 ms
      // from the second scan on, where a bitmap scan reads their 187 pages every time, 0.4-0.9 ms).
      const where = ids ? `id = ANY('{${ids.join(',')}}'::uuid[]) AND published_at IS NULL` : 'published_at IS NULL';
      const scanOnly = ids ? '' : ' SET LOCAL enable_bitmapscan TO off;';
      const results = (await client.query(
        `BEGIN; SET LOCAL synchronous_commit TO off;${scanOnly} SELECT id, name, payload, request_id, occurred_at, trace_context
          FROM outbox_events WHERE ${where} ORDER BY occurred_at, id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      )) as unknown as pg.QueryResult[];
      const { rows } = results.at(-1) as pg.QueryResult<OutboxRow>;
      const published = await this.publishAll(rows);
      if (published.some((id) => !UUID.test(id))) throw new Error('outbox relay: an event id is not a UUID');
      await client.query(
        published.length
          ? `UPDATE outbox_events SET published_at = now() WHERE id = ANY('{${published.join(',')}}'::uuid[]); COMMIT`
          : 'COMMIT',
      );
      return published.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Publishes a batch in order; returns the ids the bus accepted. JetStream keeps the order in which one
   * connection sends, so on NATS the whole batch is sent at once and its acknowledgements awaited together
   * (one round trip for the batch, not one per event: the relay's ceiling under load). The in-process bus
   * writes each event with its own pool query, which could reorder them: one at a time there, stopping at
   * the first refusal. What was not accepted stays unpublished for the next pass.
   */
  private async publishAll(rows: OutboxRow[]): Promise<string[]> {
    const envelope = (row: OutboxRow): EventEnvelope => ({
      id: row.id,
      name: row.name,
      payload: row.payload,
      occurredAt: row.occurred_at.toISOString(),
      ...(row.request_id ? { requestId: row.request_id } : {}),
    });
    const failed = (row: OutboxRow, error: unknown) =>
      this.log.warn({ err: error, eventId: row.id, event: row.name }, 'outbox relay: publish failed; will retry');
    const published: string[] = [];
    if (this.bus.kind === 'nats') {
      const settled = await Promise.allSettled(rows.map((row) => this.publish(envelope(row), row.trace_context)));
      settled.forEach((result, index) => {
        if (result.status === 'fulfilled') published.push(rows[index]!.id);
      });
      const refused = settled.findIndex((result) => result.status === 'rejected');
      if (refused !== -1) failed(rows[refused]!, (settled[refused] as PromiseRejectedResult).reason);
      return published;
    }
    for (const row of rows) {
      try {
        await this.publish(envelope(row), row.trace_context);
        published.push(row.id);
      } catch (error) {
        failed(row, error);
        break;
      }
    }
    return published;
  }

  /**
   * Publishes an event; one emitted while traced is published in a PRODUCER span of that trace, whose
   * context travels with the message (NATS headers), outside the signed envelope.
   */
  private publish(event: EventEnvelope, traceContext: TraceCarrier | null): Promise<void> {
    if (!traceContext) return this.bus.publish(event);
    return withSpan(
      this.service,
      `publish ${event.name}`,
      {
        kind: SpanKind.PRODUCER,
        parent: extractContext(traceContext as Record<string, unknown>),
        attributes: {
          'messaging.operation.type': 'send',
          'messaging.destination.name': event.name,
          'messaging.message.id': event.id,
        },
      },
      () => this.bus.publish(event, traceHeaders()),
    );
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.kicked = false;
      let published = 0;
      try {
        published = await this.relayOnce();
        await this.cleanup();
      } catch (error) {
        this.log.error({ err: error }, 'outbox relay failed');
      }
      if (published === BATCH || this.kicked || this.queued.size || this.stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.intervalMs);
        timer.unref();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /**
   * Published rows are kept a day for inspection, then removed. Handled-event marks are kept longer than
   * any redelivery can come (the stream keeps events 7 days).
   */
  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 3600_000) return;
    this.lastCleanup = Date.now();
    await this.pool.query("DELETE FROM outbox_events WHERE published_at < now() - interval '1 day'");
    await this.pool.query("DELETE FROM processed_events WHERE processed_at < now() - interval '8 days'");
  }
}

/** A plain pg transaction with the one method the outbox needs, for code that works on a pg pool. */
export interface PgTransaction extends SqlTransaction, CommitBatching {
  client: pg.PoolClient;
  /**
   * A statement already sent on `client` whose answer the work does not need: the COMMIT goes out right
   * behind it instead of after its answer (one round trip fewer), and its failure is the transaction's
   * (PostgreSQL ends the aborted transaction's COMMIT as a rollback; the statement's error is thrown).
   */
  withCommit(statement: Promise<unknown>): void;
}

/**
 * pg's pipeline mode for a connection while a transaction holds it: a statement is written at once, not
 * after the answer to the one before, so BEGIN goes out with the first statement and `withCommit`'s
 * statements with the COMMIT (PostgreSQL answers them in order). The pool's other users, Prisma among them,
 * get the connection back as it was. Only for a connection with no statement in flight.
 */
function pipelined(client: pg.PoolClient, on: boolean): void {
  (client as { pipeline: boolean }).pipeline = on;
}

/**
 * A connection of the pool, or after `maxWaitMs` without one free the pg pool's own timeout error (which
 * `isConnectionWaitTimeout` answers 503, as Prisma's `maxWait`); a connection that comes later is released.
 */
function connectWithin(pool: pg.Pool, maxWaitMs: number): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error('timeout exceeded when trying to connect'));
    }, maxWaitMs);
    pool.connect().then(
      (client) => {
        clearTimeout(timer);
        if (late) client.release();
        else resolve(client);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * A pg pool as a `TransactionalClient`, so `withOutbox` and subscribers work on raw SQL too. With
 * `maxWaitMs`, a transaction that finds no connection free in that time fails as Prisma's would (503).
 */
export function pgTransactions(
  pool: pg.Pool,
  options: { maxWaitMs?: number } = {},
): TransactionalClient<PgTransaction> {
  const { maxWaitMs } = options;
  return {
    async $transaction(work) {
      const client = maxWaitMs === undefined ? await pool.connect() : await connectWithin(pool, maxWaitMs);
      // Pipelined only from an idle connection: BEGIN then cannot fail but with the connection, and the
      // statements written behind it fail with it. Otherwise (never seen) BEGIN is answered first.
      const idle = client.getTransactionStatus() === 'I';
      pipelined(client, idle);
      const sentWithCommit: Promise<unknown>[] = [];
      try {
        const begun = client.query('BEGIN');
        // Its failure is the transaction's, thrown below; never left unhandled while the work runs.
        begun.catch(() => {});
        if (!idle) await begun;
        const tx: PgTransaction = {
          client,
          atCommit: [],
          withCommit(statement) {
            statement.catch(() => {});
            sentWithCommit.push(statement);
          },
          $executeRawUnsafe: async (query, ...values) => (await client.query(prepared(query, values))).rowCount ?? 0,
        };
        const result = await work(tx);
        await begun;
        const commit = client.query([...tx.atCommit, 'COMMIT'].join('; '));
        commit.catch(() => {});
        // In order: a statement that failed aborted the transaction, whose COMMIT then rolled it back.
        for (const statement of sentWithCommit) await statement;
        await commit;
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        // Every statement sent is answered by now (the ROLLBACK or the COMMIT came last).
        pipelined(client, false);
        client.release();
      }
    },
  };
}
