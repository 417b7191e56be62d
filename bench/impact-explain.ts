/**
 * `node bench/impact-explain.ts <database>`: EXPLAIN (ANALYZE, BUFFERS) of each statement of one Impact call
 * (services/referrals/src/impact.ts) on a database seeded by `BENCH_KEEP_DB=1 npm run bench:impact`, for
 * the big and the small user, unfiltered, filtered, and from the rows (`from=1970-01-01`). Medians of 7 calls:
 * planning + execution milliseconds, and shared buffers (hit + read), which do not depend on the machine's load.
 */
import pg from 'pg';
import { impactReads } from '../services/referrals/src/impact.ts';

const database = process.argv[2];
if (!database) throw new Error('usage: node bench/impact-explain.ts <database kept by BENCH_KEEP_DB=1>');
const url = new URL(process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
url.pathname = `/${database}`;
const pool = new pg.Pool({ connectionString: url.href, options: '-c search_path=referrals', max: 1 });
const names = ['totals', 'received', 'payout', 'activity', 'leaderboard', 'trends', 'pending'];
let measured: Array<{ ms: number[]; buffers: number[] }> = [];
let statement = 0;
/** A pool that explains each statement, then runs it for its answer. */
const explaining = {
  async query(text: string, params: unknown[]) {
    const { rows } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, params);
    const plan = rows[0]['QUERY PLAN'][0];
    const entry = (measured[statement++] ??= { ms: [], buffers: [] });
    entry.ms.push(plan['Planning Time'] + plan['Execution Time']);
    entry.buffers.push(plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks']);
    return pool.query(text, params);
  },
} as unknown as pg.Pool;
const reads = impactReads(explaining, 'USD');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const [label, user, query] of [
  ['big', 'bench-big-user', {}],
  ['small', 'bench-small-user', {}],
  ['big filtered', 'bench-big-user', { from: '2026-01-01', partner: 'Vendor 7' }],
  ['big from rows', 'bench-big-user', { from: '1970-01-01' }],
] as const) {
  measured = [];
  for (let call = 0; call < 7; call++) {
    statement = 0;
    await reads.summary(user, query);
  }
  const parts = measured.map((m, i) => `${names[i]} ${median(m.ms).toFixed(2)} (${median(m.buffers)})`);
  const total = measured.reduce((sum, m) => sum + median(m.ms), 0);
  process.stdout.write(`${label}: ${parts.join(', ')}; sum ${total.toFixed(1)} ms\n`);
}
await pool.end();
