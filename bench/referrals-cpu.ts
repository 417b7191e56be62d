/**
 * `node bench/referrals-cpu.ts <database> [<repository> ...]`: what one Tee ups list call costs in CPU, without
 * HTTP and load: `referralReads.list` (services/referrals/src/reads.ts) called in a loop on one connection to a
 * database kept by `BENCH_KEEP_DB=1 npm run bench:referrals`, for that bench's dashboard and searched cases and a
 * search without a stage. Prints the PostgreSQL backend's CPU per call (`/proc/<pid>/schedstat`: the server must
 * run on this host) and this process's. Several repositories (a `git worktree` of other code, with node_modules
 * whose workspace packages are its own) are measured in interleaved rounds, after checking that their answers
 * are the same byte for byte: an A/B of the statement and its mapping that other sessions' load moves far less
 * than p99. BENCH_CALLS calls per case and round (500), BENCH_ROUNDS rounds (3).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import type * as reads from '../services/referrals/src/reads.ts';
import { numberEnv } from './lib/env.ts';

const [database, ...given] = process.argv.slice(2);
if (!database)
  throw new Error('usage: node bench/referrals-cpu.ts <database kept by BENCH_KEEP_DB=1> [<repository> ...]');
const calls = numberEnv('BENCH_CALLS', 500);
const rounds = numberEnv('BENCH_ROUNDS', 3);
const url = new URL(process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
url.pathname = `/${database}`;
const repositories = given.length ? given.map((path) => resolve(path)) : [resolve(import.meta.dirname, '..')];

/** CPU time (us) a backend has run so far. */
const backendMicros = (pid: number) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;

const versions = [];
for (const repository of repositories) {
  const { referralReads } = (await import(`${repository}/services/referrals/src/reads.ts`)) as typeof reads;
  const pool = new pg.Pool({ connectionString: url.href, options: '-c search_path=referrals', max: 1 });
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  versions.push({ repository, reads: referralReads(pool, 'USD'), pid: rows[0]!.pid, pool });
}
const { rows } = await versions[0]!.pool.query<{ userId: string }>(
  'SELECT user_id AS "userId" FROM referrals GROUP BY user_id ORDER BY count(*) DESC LIMIT 1',
);
const userId = rows[0]!.userId;
const dashboard = { days: 'all', page: 1, pageSize: 25 } as const;
const cases = {
  dashboard,
  searched: { ...dashboard, search: 'anna', status: 'intro_made' },
  /** Not one of the bench's cases: the search reads all of the user's entries. */
  'searched, no stage': { ...dashboard, search: 'anna' },
} as const;

for (const [name, query] of Object.entries(cases)) {
  const answers = await Promise.all(versions.map(async (v) => JSON.stringify(await v.reads.list(userId, query))));
  if (answers.some((answer) => answer !== answers[0])) throw new Error(`${name}: the answers differ`);
  process.stdout.write(`${name}: ${answers[0]!.length} bytes${versions.length > 1 ? ', the same from each' : ''}\n`);
}

for (let round = 1; round <= rounds; round++) {
  for (const v of versions) {
    for (const [name, query] of Object.entries(cases)) {
      for (let i = 0; i < 100; i++) await v.reads.list(userId, query);
      const backend = backendMicros(v.pid);
      const node = process.cpuUsage();
      for (let i = 0; i < calls; i++) await v.reads.list(userId, query);
      const spent = process.cpuUsage(node);
      process.stdout.write(
        `round ${round}  ${v.repository}  ${name.padEnd(18)}  PostgreSQL ${((backendMicros(v.pid) - backend) / calls).toFixed(0).padStart(5)} us  Node ${((spent.user + spent.system) / calls).toFixed(0).padStart(4)} us per call\n`,
      );
    }
  }
}
for (const v of versions) await v.pool.end();
