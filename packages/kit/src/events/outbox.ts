import { randomUUID } from 'node:crypto';
import type { EventEnvelope, EventName, EventPayload } from '@app/contracts';
import type pg from 'pg';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { EventBus } from './bus.ts';

/** A row for the service's `outbox_events` table, written in the same transaction as the change. */
export function outboxEvent<N extends EventName>(name: N, payload: EventPayload<N>, requestId?: string) {
  return { id: randomUUID(), name, payload, requestId: requestId ?? null, occurredAt: new Date() };
}

interface OutboxRow {
  id: string;
  name: EventName;
  payload: never;
  request_id: string | null;
  occurred_at: Date;
}

const BATCH = 100;

/**
 * Moves committed outbox rows to the bus. Rows are locked (SKIP LOCKED, so several instances share the
 * work) and marked published only after the bus accepted them: a crash at any point leaves them to be
 * sent again, and JetStream's message-id window plus idempotent consumers absorb the repeat.
 */
export class OutboxRelay {
  private readonly pool: pg.Pool;
  private readonly bus: EventBus;
  private readonly log: Logger;
  private readonly intervalMs: number;
  private wake: (() => void) | null = null;
  private kicked = false;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private lastCleanup = 0;

  constructor(options: { pool: pg.Pool; bus: EventBus; logger: Logger; intervalMs?: number }) {
    this.pool = options.pool;
    this.bus = options.bus;
    this.log = options.logger;
    this.intervalMs = options.intervalMs ?? 1000;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Relay now (call after committing a transaction that wrote events). */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  /** Publishes one batch; returns how many rows were published. */
  async relayOnce(): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<OutboxRow>(
        `SELECT id, name, payload, request_id, occurred_at FROM outbox_events
          WHERE published_at IS NULL ORDER BY occurred_at, id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      const published: string[] = [];
      for (const row of rows) {
        const event: EventEnvelope = {
          id: row.id,
          name: row.name,
          payload: row.payload,
          occurredAt: row.occurred_at.toISOString(),
          ...(row.request_id ? { requestId: row.request_id } : {}),
        };
        try {
          await this.bus.publish(event);
          published.push(row.id);
        } catch (error) {
          this.log.warn({ err: error, eventId: row.id, event: row.name }, 'outbox relay: publish failed; will retry');
          break;
        }
      }
      if (published.length) {
        await client.query('UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::uuid[])', [published]);
      }
      await client.query('COMMIT');
      return published.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
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
      if (published === BATCH || this.kicked || this.stopped) continue;
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

  /** Published rows are kept a day for inspection, then removed. */
  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 3600_000) return;
    this.lastCleanup = Date.now();
    await this.pool.query("DELETE FROM outbox_events WHERE published_at < now() - interval '1 day'");
  }
}
