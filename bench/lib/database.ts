import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';

/**
 * A database made for one bench run. `cleanup` stops the bench's service process (asking it to close,
 * killing it after 5 s) and drops the database, unless BENCH_KEEP_DB asks to keep it.
 */
export async function benchDatabase(pgUrl: string, prefix: string, log: (line: string) => void) {
  const admin = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  await admin.connect();
  const database = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${database}"`);
  const url = new URL(pgUrl);
  url.pathname = `/${database}`;
  return {
    url,
    async cleanup(child: ChildProcess | undefined) {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.send({ type: 'close' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      if (process.env.BENCH_KEEP_DB) log(`Kept database ${database} (BENCH_KEEP_DB)`);
      else
        await admin
          .query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
          .catch((error: Error) => log(`! could not drop ${database}: ${error.message}`));
      await admin.end();
    },
  };
}

/** The triggers that keep the dashboard's figures (referrals' migration 20261128000000_referral_figures). */
const FIGURE_TRIGGERS = [
  ['referrals', 'referrals_figures_insert'],
  ['referrals', 'referrals_figures_delete'],
  ['referrals', 'referrals_figures_update'],
  ['milestone_confirmations', 'milestone_confirmations_figures'],
] as const;

/**
 * Runs a bulk load without the secondary indexes of `tables` (schema `referrals`): they are dropped
 * before and built again after (the same definitions, read from pg_indexes), as a restore would. Much
 * faster than maintaining them row by row. The figures' triggers are off during the load (a row trigger
 * per referral) and the figures are then built from the rows by the migration's own backfill. Returns the time of the rebuild (indexes and figures).
 */
export async function withoutIndexes(db: pg.Client, tables: string[], load: () => Promise<void>): Promise<number> {
  const { rows: indexes } = await db.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE schemaname = 'referrals' AND tablename = ANY($1) AND indexname NOT LIKE '%pkey'`,
    [tables],
  );
  for (const index of indexes) await db.query(`DROP INDEX referrals."${index.name}"`);
  for (const [table, trigger] of FIGURE_TRIGGERS)
    await db.query(`ALTER TABLE referrals.${table} DISABLE TRIGGER ${trigger}`);
  await load();
  const started = Date.now();
  await db.query(indexes.map((index) => index.definition).join(';\n'));
  for (const [table, trigger] of FIGURE_TRIGGERS)
    await db.query(`ALTER TABLE referrals.${table} ENABLE TRIGGER ${trigger}`);
  await db.query('SELECT referrals.rebuild_referral_figures()');
  return Date.now() - started;
}
