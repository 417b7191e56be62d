import type { FastifyBaseLogger as Logger } from 'fastify';
import type pg from 'pg';
import type { AttemptResult, WebhookAttempt } from './webhook-sender.ts';

/** How many deliveries one worker sends at once. */
const BATCH = 10;
/**
 * A claimed delivery is pushed this far ahead while it is being sent (longer than any attempt): if the
 * worker dies meanwhile, another takes it again after that.
 */
const LEASE_SECONDS = 120;
/** Finished deliveries are kept this long for the endpoint's history, then removed (checked hourly). */
const KEEP_DAYS = 30;
const CLEANUP_EVERY_MS = 3_600_000;

interface Claimed {
  id: string;
  event_id: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
}

/** What happens after attempt number `attempt` (1-based) failed: the wait before the next one, or none left. */
export const retryDelayAfter = (attempt: number, delaysMs: readonly number[]): number | null =>
  delaysMs[attempt - 1] ?? null;

/**
 * Sends due webhook deliveries. Each round claims a batch (`FOR UPDATE SKIP LOCKED`, then a lease), so
 * several instances share the work without sending one delivery twice at the same time; sends them; writes
 * each outcome: succeeded, retrying at the next time of the schedule, or failed once the schedule is used
 * up. `stop` aborts attempts in flight (they do not count: their delivery is due again at once) and waits
 * for the loop to end.
 */
export class WebhookWorker {
  private readonly pool: pg.Pool;
  private readonly attempt: WebhookAttempt;
  private readonly log: Logger;
  private readonly delaysMs: readonly number[];
  private readonly pollMs: number;
  private readonly abort = new AbortController();
  private wake: (() => void) | null = null;
  private kicked = false;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private lastCleanup = 0;

  constructor(options: {
    pool: pg.Pool;
    attempt: WebhookAttempt;
    logger: Logger;
    retryDelaysMs: readonly number[];
    pollMs: number;
  }) {
    this.pool = options.pool;
    this.attempt = options.attempt;
    this.log = options.logger;
    this.delaysMs = options.retryDelaysMs;
    this.pollMs = options.pollMs;
  }

  start(): void {
    if (this.stopped) return;
    this.loop ??= this.run();
  }

  /** Look for due deliveries now (after committing new ones). */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.wake?.();
    await this.loop;
  }

  /** One round: claims due deliveries, sends them, records the outcomes. Answers how many were claimed. */
  async sendDue(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((delivery) => this.send(delivery)));
    return claimed.length;
  }

  /** Removes finished deliveries older than KEEP_DAYS, at most once an hour. */
  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = Date.now();
    await this.pool.query(
      `DELETE FROM webhook_deliveries
        WHERE state IN ('succeeded', 'failed') AND created_at < now() - interval '${KEEP_DAYS} days'`,
    );
  }

  private async claim(): Promise<Claimed[]> {
    const { rows } = await this.pool.query<Claimed>(
      `WITH due AS (
         SELECT id FROM webhook_deliveries
          WHERE state IN ('pending', 'retrying') AND next_attempt_at <= now()
          ORDER BY next_attempt_at, id
          LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries d
          SET next_attempt_at = now() + interval '${LEASE_SECONDS} seconds'
         FROM due, webhook_endpoints e
        WHERE d.id = due.id AND e.id = d.endpoint_id
       RETURNING d.id, d.event_id, d.body, d.attempts, e.url, e.secret`,
    );
    return rows;
  }

  private async send(delivery: Claimed): Promise<void> {
    let result: AttemptResult;
    try {
      result = await this.attempt(
        { url: delivery.url, secret: delivery.secret, eventId: delivery.event_id, body: delivery.body },
        this.abort.signal,
      );
    } catch (error) {
      result = { ok: false, status: null, body: null, error: (error as Error).message || 'Delivery failed' };
    }
    try {
      if (result.aborted) {
        await this.pool.query('UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1', [delivery.id]);
        return;
      }
      const attempt = delivery.attempts + 1;
      const delay = result.ok ? null : retryDelayAfter(attempt, this.delaysMs);
      const state = result.ok ? 'succeeded' : delay !== null ? 'retrying' : 'failed';
      // A deleted endpoint took its deliveries with it: nothing to update then.
      await this.pool.query(
        `UPDATE webhook_deliveries
            SET state = $2, attempts = $3, last_attempt_at = now(),
                next_attempt_at = CASE WHEN $4::bigint IS NULL THEN NULL ELSE now() + $4::bigint * interval '1 millisecond' END,
                response_status = $5, response_body = $6, error = $7
          WHERE id = $1`,
        [delivery.id, state, attempt, delay, result.status, result.body, result.error],
      );
      if (state === 'failed')
        this.log.warn({ deliveryId: delivery.id, attempts: attempt }, 'webhook delivery failed for good');
    } catch (error) {
      this.log.error({ err: error, deliveryId: delivery.id }, 'webhook delivery outcome not recorded');
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.kicked = false;
      let claimed = 0;
      try {
        claimed = await this.sendDue();
        await this.cleanup();
      } catch (error) {
        if (!this.stopped) this.log.error({ err: error }, 'webhook worker failed');
      }
      if (this.stopped) break;
      if (claimed === BATCH || this.kicked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs);
        timer.unref();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}
