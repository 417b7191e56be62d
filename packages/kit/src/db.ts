import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { observePool } from './metrics.ts';

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Statement names by text: a text is hashed once per process, not on every call. */
const statementNames = new Map<string, string>();

/**
 * A named prepared statement: each pooled connection parses and plans a query text once instead of on
 * every call. After five calls PostgreSQL keeps a generic plan when it costs no more than the custom ones,
 * so only for statements whose best plan does not depend on the values (lookups and writes by key, the
 * pipeline's claims and inserts) or that were checked on skewed data (the referrals list, the commissions):
 * a query that must be planned for its values (a big user's rows against a small one's) stays unnamed.
 * Only for texts made by the code (values always as parameters), so the per-connection caches and
 * `statementNames` stay small. Planning can cost more than running: 1.4 ms to plan the commissions of a
 * page against 0.1 ms to run it; parsing and planning were about a fifth of PostgreSQL's CPU per referral in
 * bench:pipeline (bench/README.md).
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (!name) {
    name = `s-${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/** A pg pool whose connections work in the service's own schema. */
export function createPool(databaseUrl: string, schema: string, max = 5): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, options: `-c search_path=${schema}` });
  // An idle connection the server drops (restart, failover) must not crash the process; the pool
  // replaces it on the next query.
  pool.on('error', () => {});
  observePool(schema, 'pg', pool);
  return pool;
}

/** How recent a connection's clean release must be for a saturated pool's database to count as ready. */
export const DATABASE_ANSWERED_MS = 1000;

/** Whether a pool could run a query now, without queueing behind the ones it is running. */
const canServeNow = (pool: pg.Pool) =>
  pool.waitingCount === 0 && (pool.idleCount > 0 || pool.totalCount < (pool.options.max ?? 10));

/**
 * The readiness check of a service's database: a `SELECT 1` on the first of its pools that can run it at
 * once. When every pool is busy to its maximum, a probe would queue behind the load, pass the 2 s of a
 * readiness check and take a loaded service out of rotation the moment it is most needed: then the database
 * counts as ready when a connection came back without an error in the last DATABASE_ANSWERED_MS (it is
 * answering the service's own work), else the probe queues like any query (and fails if nothing answers).
 */
export function databaseReadiness(pools: pg.Pool[], answeredMs = DATABASE_ANSWERED_MS): () => Promise<void> {
  let answeredAt = -Infinity;
  for (const pool of pools) pool.on('release', (error) => void (error ? null : (answeredAt = performance.now())));
  return async () => {
    const free = pools.find(canServeNow);
    if (!free && performance.now() - answeredAt < answeredMs) return;
    await (free ?? pools[0]!).query('SELECT 1');
  };
}

/**
 * Applies the service's committed Prisma migrations on start, recording them in `_prisma_migrations`
 * exactly as `prisma migrate deploy` does (checksum = sha256 of migration.sql), so both tools agree on
 * what is applied. Each migration runs in its own transaction: a failed one is rolled back, recorded as
 * rolled back with its error in `logs`, and stops the start loudly. A migration that `prisma migrate
 * deploy` left half-applied blocks the start until it is resolved, as with Prisma.
 */
export async function migrate(
  databaseUrl: string,
  schema: string,
  migrationsDir: string,
  historyTable = '_prisma_migrations',
): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  const s = quoteIdent(schema);
  const history = `${s}.${quoteIdent(historyTable)}`;
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${history} (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM ${history}`);
    const failed = rows.find((row) => !row.finished_at && !row.rolled_back_at);
    if (failed) {
      throw new Error(
        `Migration ${failed.migration_name} in schema ${schema} failed earlier; resolve it (prisma migrate resolve) before starting.`,
      );
    }
    const done = new Set(rows.filter((row) => row.finished_at).map((row) => row.migration_name));
    const names = (await readdir(migrationsDir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    for (const name of names) {
      if (done.has(name)) continue;
      const sql = await readFile(join(migrationsDir, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const id = crypto.randomUUID();
      await client.query(`INSERT INTO ${history} (id, checksum, migration_name) VALUES ($1, $2, $3)`, [
        id,
        checksum,
        name,
      ]);
      try {
        await client.query('BEGIN');
        await client.query(`SET LOCAL search_path TO ${s}`);
        await client.query(sql);
        await client.query(`UPDATE ${history} SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        await client.query(`UPDATE ${history} SET logs = $2, rolled_back_at = now() WHERE id = $1`, [
          id,
          String(error),
        ]);
        throw new Error(`Migration ${name} in schema ${schema} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(name);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]).catch(() => {});
    await client.end();
  }
}

/** The kit's own tables (outbox, processed events), shipped once in packages/kit/migrations. */
export const PLATFORM_TABLES = ['outbox_events', 'processed_events'] as const;
const platformMigrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * Applies the service's own migrations, then the kit's platform migrations into the same schema (recorded
 * apart, in `_platform_migrations`, so Prisma's history only holds the service's own).
 */
export async function migrateService(databaseUrl: string, schema: string, migrationsDir: string): Promise<string[]> {
  const own = await migrate(databaseUrl, schema, migrationsDir);
  const platform = await migrate(databaseUrl, schema, platformMigrationsDir, '_platform_migrations');
  return [...own, ...platform];
}

type PgTransaction = Awaited<ReturnType<Awaited<ReturnType<PrismaPg['connect']>>['startTransaction']>>;

/**
 * PrismaPg whose interactive transactions send their statements one at a time. Prisma's query interpreter
 * reads an `include` of several relations with `Promise.all`, which inside a transaction calls `query()` on the
 * transaction's one pg connection while it is busy: pg 8.20+ queues them with a warning ("Calling
 * client.query() when the client is already executing a query is deprecated") and pg 9 refuses them
 * (prisma/orm#29468, still open in 7.10). The connection runs them one after another either way, so taking
 * turns here costs nothing.
 */
class PrismaPgInTurn extends PrismaPg {
  override async connect() {
    const adapter = await super.connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => inTurn(await startTransaction(isolationLevel));
    return adapter;
  }
}

function inTurn(tx: PgTransaction): PgTransaction {
  let last: Promise<unknown> = Promise.resolve();
  const turn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = last.then(work);
    last = run.catch(() => {});
    return run;
  };
  const queryRaw = tx.queryRaw.bind(tx);
  const executeRaw = tx.executeRaw.bind(tx);
  // Only the two calls that send a statement (savepoints are sent through `executeRaw`).
  tx.queryRaw = (query) => turn(() => queryRaw(query));
  tx.executeRaw = (query) => turn(() => executeRaw(query));
  return tx;
}

/**
 * The driver adapter a service's generated Prisma client runs on, bound to the service's schema, and its
 * pool (for plain SQL that should share the Prisma client's connections).
 */
export function prismaAdapter(databaseUrl: string, schema: string, max = 10): { adapter: PrismaPg; pool: pg.Pool } {
  // The pool is ours (ended with the client) so its use shows in the metrics.
  const pool = new pg.Pool({ connectionString: databaseUrl, max, options: `-c search_path=${schema}` });
  // As createPool's: an idle connection the server drops must not crash the process (it did at the end of
  // bench:pipeline, when the database is dropped while a service is still closing).
  pool.on('error', () => {});
  observePool(schema, 'prisma', pool);
  return { adapter: new PrismaPgInTurn(pool, { schema, disposeExternalPool: true }), pool };
}
