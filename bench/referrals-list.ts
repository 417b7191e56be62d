/**
 * `node bench/referrals-list.ts`: is the Tee ups dashboard's list call still fast for a user with 10,000
 * referrals? Measures GET /api/referrals (plain and filtered) next to GET /api/user of the auth service,
 * in the same run, against the real services on a throwaway PostgreSQL database seeded in bulk.
 * The services run in a child process, the load generator (autocannon) in this one. See bench/README.md.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDatabase, withoutIndexes } from './lib/database.ts';
import { cpuMicros } from './lib/processes.ts';
import autocannon from 'autocannon';
import pg from 'pg';
import { numberEnv } from './lib/env.ts';

const settings = {
  pgUrl: process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  userReferrals: numberEnv('BENCH_USER_REFERRALS', 10_000),
  otherReferrals: numberEnv('BENCH_OTHER_REFERRALS', 990_000),
  connections: numberEnv('BENCH_CONNECTIONS', 20),
  durationSeconds: numberEnv('BENCH_DURATION', 8),
  warmupSeconds: numberEnv('BENCH_WARMUP', 2),
  rounds: numberEnv('BENCH_ROUNDS', 2),
  /** Measures in a database an earlier run kept (BENCH_KEEP_DB) instead of seeding a new one, and keeps it. */
  reuseDb: process.env.BENCH_REUSE_DB,
  /** Writes a V8 CPU profile of the services' process into this folder. */
  cpuProfileDir: process.env.BENCH_CPU_PROF_DIR,
  /** Writes each case's answer into this folder (`list-dashboard.json`...): `bench/compression.ts` reads them. */
  saveAnswersDir: process.env.BENCH_SAVE_ANSWERS,
};

/** Issue 15's target: a list call's p99 over GET /api/user's. */
const TARGET_RATIO = 3;

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The child: the referrals and auth services sharing an in-process bus, as `npm start` runs them. */
async function runServices() {
  const { createAuthService, readAuthConfig } = await import('@app/auth-service');
  const { createReferralsService, readReferralsConfig } = await import('@app/referrals-service');
  const { inProcessBus } = await import('@app/kit');
  const env = {
    DATABASE_URL: process.env.DATABASE_URL,
    INTERNAL_SECRET: process.env.INTERNAL_SECRET,
    LOG_LEVEL: 'warn',
  };
  const bus = await inProcessBus({ databaseUrl: env.DATABASE_URL!, secret: env.INTERNAL_SECRET! });
  const auth = await createAuthService({ config: readAuthConfig(env), bus, logger: false });
  const referrals = await createReferralsService({ config: readReferralsConfig(env), bus, logger: false });
  const authUrl = await auth.app.listen({ host: '127.0.0.1', port: 0 });
  const referralsUrl = await referrals.app.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', async (message: { type: string }) => {
    if (message.type !== 'close') return;
    await referrals.close();
    await auth.close();
    process.exit(0);
  });
  process.send?.({ type: 'ready', authUrl, referralsUrl });
}

interface Case {
  name: string;
  /** Where BENCH_SAVE_ANSWERS writes its answer. */
  file: string;
  url: string;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  /** CPU time per request of the services' process and of the database's PostgreSQL backends, in us. */
  nodeUs: number;
  pgUs: number;
}

/** CPU time (us) of each process now; a process gone since counts for nothing. */
function cpuOf(pids: number[]): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      cpu.set(pid, cpuMicros(pid));
    } catch {
      // ended (a pool connection closed)
    }
  }
  return cpu;
}

/**
 * What a case costs in CPU whatever else runs on the machine: the services' process and the PostgreSQL
 * backends of the bench database (the server runs on this host), before and after the case.
 */
function cpuMeter(servicesPid: number, monitor: pg.Client, database: string) {
  const backends = async () =>
    (
      await monitor.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      )
    ).rows.map((row) => row.pid);
  return async () => {
    const node = cpuMicros(servicesPid);
    const before = cpuOf(await backends());
    return async () => {
      const nodeSpent = cpuMicros(servicesPid) - node;
      let pgSpent = 0;
      // A backend opened during the case counts from its start.
      for (const [pid, now] of cpuOf(await backends())) pgSpent += now - (before.get(pid) ?? 0);
      return { nodeSpent, pgSpent };
    };
  };
}

async function main() {
  const started = Date.now();
  const secret = randomBytes(32).toString('hex');
  const database = settings.reuseDb
    ? reusedDatabase(settings.pgUrl, settings.reuseDb)
    : await benchDatabase(settings.pgUrl, 'bench_referrals', log);
  const url = database.url;
  let child: ChildProcess | undefined;
  const cleanup = () => database.cleanup(child);
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));

  try {
    const spawned = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_ROLE: 'services', DATABASE_URL: url.href, INTERNAL_SECRET: secret },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: settings.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.cpuProfileDir}`] : [],
    });
    child = spawned;
    const { authUrl, referralsUrl } = await new Promise<{ authUrl: string; referralsUrl: string }>(
      (resolve, reject) => {
        spawned.once('exit', (code) => reject(new Error(`the services exited with code ${code}`)));
        spawned.on(
          'message',
          (message: { type: string; authUrl: string; referralsUrl: string }) =>
            message.type === 'ready' && resolve(message),
        );
      },
    );

    const db = new pg.Client({ connectionString: url.href });
    await db.connect();
    const user = settings.reuseDb ? await benchUserOf(db) : await registerUser(authUrl, db);
    const seededIn = settings.reuseDb ? 0 : await seed(db, user.userId);
    const { rows } = await db.query<{ mine: number; all: number; changes: number }>(
      `SELECT (SELECT count(*)::int FROM referrals.referrals WHERE user_id = $1) mine, (SELECT count(*)::int FROM referrals.referrals) "all",
              (SELECT count(*)::int FROM referrals.referral_status_changes) changes`,
      [user.userId],
    );
    await db.end();
    log(
      `${settings.reuseDb ? `Reusing ${settings.reuseDb}:` : 'Seeded'} ${rows[0]!.mine} referrals for the bench user, ${rows[0]!.all} in all, ${rows[0]!.changes} status changes (${(seededIn / 1000).toFixed(1)} s)`,
    );

    const { identitySigner } = await import('@app/kit');
    const identity = identitySigner(secret).sign(
      { userId: user.userId, sessionId: randomUUID(), email: user.email, isAdmin: false, emailVerified: true },
      3600,
    );
    const headers = { 'x-identity': identity };
    const cases: Case[] = [
      {
        name: 'list (dashboard)',
        file: 'list-dashboard.json',
        url: `${referralsUrl}/api/referrals?days=all&page=1&pageSize=25`,
      },
      {
        name: 'list filtered',
        file: 'list-filtered.json',
        url: `${referralsUrl}/api/referrals?days=all&page=1&pageSize=25&search=anna&status=intro_made`,
      },
      { name: 'GET /api/user', file: 'user.json', url: `${authUrl}/api/user` },
    ];
    for (const c of cases) {
      const response = await fetch(c.url, { headers });
      const body = (await response.json()) as { total?: number; referrals?: unknown[] };
      if (response.status !== 200) throw new Error(`${c.name}: ${response.status} ${JSON.stringify(body)}`);
      const size = Buffer.byteLength(JSON.stringify(body));
      if (settings.saveAnswersDir) {
        mkdirSync(settings.saveAnswersDir, { recursive: true });
        writeFileSync(join(settings.saveAnswersDir, c.file), JSON.stringify(body));
      }
      log(
        `  ${c.name.padEnd(17)} ${response.status}, ${(size / 1024).toFixed(1)} KB${body.total === undefined ? '' : `, total ${body.total}, ${body.referrals?.length} on the page`}`,
      );
    }

    // On a shared machine other sessions' work shows up here: compare runs only when it is low.
    log(`\n${cpus().length} CPUs, load average (1 min) before measuring: ${loadavg()[0]!.toFixed(2)}`);
    log(
      `Warm-up ${settings.warmupSeconds} s per case, then ${settings.rounds} interleaved rounds of ${settings.durationSeconds} s, ${settings.connections} connections`,
    );
    const monitor = new pg.Client({ connectionString: url.href });
    await monitor.connect();
    const meter = cpuMeter(spawned.pid!, monitor, url.pathname.slice(1));
    for (const c of cases) await load(c.url, headers, settings.warmupSeconds, meter);
    const results = new Map<string, Measured[]>(cases.map((c) => [c.name, []]));
    for (let round = 1; round <= settings.rounds; round++) {
      for (const c of cases) {
        const measured = await load(c.url, headers, settings.durationSeconds, meter);
        results.get(c.name)!.push(measured);
        log(
          `  round ${round}  ${c.name.padEnd(17)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50.toFixed(1).padStart(6)} ms  p99 ${measured.p99.toFixed(1).padStart(6)} ms  CPU ${measured.nodeUs.toFixed(0)} + ${measured.pgUs.toFixed(0)} us/req${measured.failures ? `  ${measured.failures} failed` : ''}`,
        );
      }
    }
    await monitor.end();
    report(results, cases);
    log(`Load average (1 min) after: ${loadavg()[0]!.toFixed(2)}`);
    log(`\nTotal time ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await cleanup();
  }
}

/** A database kept by an earlier run (BENCH_REUSE_DB): its services' process is stopped at the end, the database kept. */
function reusedDatabase(pgUrl: string, name: string) {
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return {
    url,
    async cleanup(child: ChildProcess | undefined) {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The bench user of a kept database: the one registered account. */
async function benchUserOf(db: pg.Client): Promise<{ userId: string; email: string }> {
  const { rows } = await db.query<{ userId: string; email: string }>(
    `SELECT id AS "userId", email FROM auth.users WHERE email LIKE 'bench-%@example.com' LIMIT 1`,
  );
  if (!rows[0]) throw new Error('no bench user in the database to reuse');
  return rows[0];
}

/** A real account through the auth service's own route; user.registered gives referrals its profile. */
async function registerUser(authUrl: string, db: pg.Client): Promise<{ userId: string; email: string }> {
  const email = `bench-${randomUUID()}@example.com`;
  const response = await fetch(`${authUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Bench',
      lastName: 'User',
      companyName: 'Bench Co',
      email,
      password: 'bench-password-123',
    }),
  });
  if (response.status !== 201)
    throw new Error(`registering the bench user failed: ${response.status} ${await response.text()}`);
  const { rows } = await db.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [email]);
  const userId = rows[0]!.id;
  for (let tries = 0; ; tries++) {
    const { rowCount } = await db.query('SELECT 1 FROM referrals.referrers WHERE user_id = $1', [userId]);
    if (rowCount) break;
    if (tries > 100) throw new Error('user.registered never reached the referrals service');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { userId, email };
}

/**
 * Bulk SQL shaped like what the service writes: 500 products of 150 vendors (10 of them the bench user's
 * own company, a workspace they are a member of, for "received"), referrals spread over a year in every stage, most with an intro draft,
 * and their status history. Returns the time it took.
 */
async function seed(db: pg.Client, userId: string): Promise<number> {
  const started = Date.now();
  await db.query('SELECT setseed(0.42)');
  await db.query(`
    INSERT INTO referrals.projects (id, product_name, company_name, company_key, description)
    SELECT 'bench-product-' || n, 'Product ' || n, c.name, lower(c.name), 'What product ' || n || ' does, in a sentence or two.'
      FROM generate_series(1, 500) n,
           LATERAL (SELECT CASE WHEN n <= 10 THEN 'Bench' ELSE 'Vendor ' || (n % 150) END AS name) c`);
  // The bench user's own company, a verified workspace they are a member of: others' referrals to its products
  // are routed to it, and so "received" by the user.
  await db.query(
    `INSERT INTO referrals.vendors (id, version, name, domain, company_key, lead_inbox, verified, members)
     VALUES ('vendor-bench', 1, 'Bench', 'bench.example', 'bench', 'leads@bench.example', true,
             jsonb_build_array(jsonb_build_object('userId', $1::text, 'email', 'bench@example.com', 'name', 'Bench', 'role', 'owner')))`,
    [userId],
  );
  // Bulk loading is faster without the secondary indexes (rebuilt after, as a restore would).
  await withoutIndexes(db, ['referrals', 'referral_status_changes'], async () => {
    // One insert in time order, as a live table grows: ids rise with created_at and the bench user's rows
    // are spread among everyone else's (no flattering heap locality).
    await db.query(
      `WITH source AS (
         SELECT n, user_id, 'bench-product-' || (1 + (n::bigint * 7919) % 500) AS project_id,
                (ARRAY['Anna','Ben','Carla','Dmitri','Elena','Farid','Grace','Hiro','Ines','Jonas','Kofi','Lena','Mateo','Nora','Omar','Priya','Quinn','Rosa','Sven','Tara'])[1 + n % 20] AS first_name,
                (ARRAY['Smith','Garcia','Müller','Rossi','Tanaka','Okafor','Dubois','Novak','Silva','Kim'])[1 + (n / 20) % 10] AS last_name,
                (ARRAY['pending','intro_made','intro_accepted','intro_occurred','became_customer','declined'])[1 + floor(random() * 6)::int]::referrals.referral_status AS status,
                now() - random() * interval '365 days' AS created_at
           FROM (SELECT n, $1::text AS user_id FROM generate_series(1, $2::int) n
                 UNION ALL
                 SELECT n, 'other-user-' || (n % 9900) FROM generate_series(1, $3::int) n) users),
       shaped AS (
         SELECT s.*, p.company_name AS company, lower(s.first_name || '.' || s.last_name || s.n || '@client' || (s.n % 97) || '.example') AS email,
                'They need ' || p.product_name || ' for their ' || (ARRAY['sales','support','finance','marketing','ops'])[1 + s.n % 5] || ' team of ' || (5 + s.n % 200) || ' people.' AS reason
           FROM source s JOIN referrals.projects p ON p.id = s.project_id)
       INSERT INTO referrals.referrals (user_id, project_id, status, referred_first_name, referred_last_name, referred_email, referral_reason,
                                        is_referral_aware, can_use_referrer_name, company, vendor_id, lead_status, search_text, email_draft, created_at, updated_at)
       SELECT user_id, project_id, status, first_name, last_name, email, reason, n % 2 = 0, n % 3 = 0, company,
              CASE WHEN company = 'Bench' AND user_id <> $1 THEN 'vendor-bench' END,
              CASE WHEN company = 'Bench' AND user_id <> $1 THEN 'new'::referrals.lead_status END,
              lower(concat_ws(E'\\x1f', first_name || ' ' || last_name, email, company, company, reason)),
              CASE WHEN n % 10 <> 0 THEN jsonb_build_object(
                'subject', 'Introduction: ' || first_name || ' ' || last_name || ' <> ' || company,
                'body', 'Hi ' || first_name || E',\\n\\n' || repeat('I would like to introduce you to a team that fits what you are looking for. ', 10) || E'\\n\\nBest regards',
                'recipients', jsonb_build_object('to', jsonb_build_array(email), 'cc', '[]'::jsonb, 'bcc', '[]'::jsonb)) END,
              created_at, created_at
         FROM shaped ORDER BY created_at`,
      [userId, settings.userReferrals, settings.otherReferrals],
    );
    await db.query(
      `INSERT INTO referrals.referral_status_changes (referral_id, from_status, to_status, at) SELECT id, NULL, 'pending', created_at FROM referrals.referrals`,
    );
    await db.query(`INSERT INTO referrals.referral_status_changes (referral_id, from_status, to_status, at)
                    SELECT id, 'pending', status, created_at + interval '2 days' FROM referrals.referrals WHERE status <> 'pending'`);
  });
  // The figures the use cases keep in the same transactions (services/referrals/src/figures.ts).
  await db.query(
    `INSERT INTO referrals.referrer_stage_counts (user_id, status, count) SELECT user_id, status, count(*) FROM referrals.referrals GROUP BY 1, 2`,
  );
  await db.query(
    `INSERT INTO referrals.referrer_companies (user_id, company) SELECT DISTINCT user_id, company FROM referrals.referrals WHERE company <> ''`,
  );
  await db.query(
    `INSERT INTO referrals.vendor_lead_counts (vendor_id, count) SELECT vendor_id, count(*) FROM referrals.referrals WHERE vendor_id IS NOT NULL GROUP BY 1`,
  );
  // What autovacuum would have done by now on a live table: statistics and the visibility map.
  await db.query(`VACUUM ANALYZE referrals.referrals, referrals.referral_status_changes, referrals.projects, referrals.referrers,
                                  referrals.referrer_stage_counts, referrals.referrer_companies`);
  return Date.now() - started;
}

async function load(
  url: string,
  headers: Record<string, string>,
  durationSeconds: number,
  meter: ReturnType<typeof cpuMeter>,
): Promise<Measured> {
  const spent = await meter();
  const result = await autocannon({
    url,
    headers,
    connections: settings.connections,
    duration: durationSeconds,
    pipelining: 1,
  });
  const { nodeSpent, pgSpent } = await spent();
  const requests = Math.max(1, result.requests.total);
  return {
    nodeUs: nodeSpent / requests,
    pgUs: pgSpent / requests,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function report(results: Map<string, Measured[]>, cases: Case[]) {
  const summary = cases.map((c) => {
    const runs = results.get(c.name)!;
    return {
      name: c.name,
      rps: median(runs.map((r) => r.rps)),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      failures: runs.reduce((n, r) => n + r.failures, 0),
      cpu: median(runs.map((r) => r.nodeUs + r.pgUs)),
      nodeUs: median(runs.map((r) => r.nodeUs)),
      pgUs: median(runs.map((r) => r.pgUs)),
    };
  });
  const user = summary.find((s) => s.name === 'GET /api/user')!;
  if (summary.some((s) => s.failures > 0)) {
    log('! some requests failed (non-2xx, errors or timeouts): the figures are not valid');
    process.exitCode = 1;
  }
  log(
    `\nMedian of ${settings.rounds} rounds (${settings.userReferrals} referrals for the user, ${settings.userReferrals + settings.otherReferrals} in the table):\n`,
  );
  log(
    `| case              |  req/s | p50 ms | p99 ms | p99 / user p99 | Node us/req | PostgreSQL us/req | CPU / user CPU | failed |`,
  );
  log(
    `|-------------------|-------:|-------:|-------:|---------------:|------------:|------------------:|---------------:|-------:|`,
  );
  for (const s of summary) {
    log(
      `| ${s.name.padEnd(17)} | ${s.rps.toFixed(0).padStart(6)} | ${s.p50.toFixed(1).padStart(6)} | ${s.p99.toFixed(1).padStart(6)} | ${(s.p99 / user.p99).toFixed(2).padStart(14)} | ${s.nodeUs.toFixed(0).padStart(11)} | ${s.pgUs.toFixed(0).padStart(17)} | ${(s.cpu / user.cpu).toFixed(2).padStart(14)} | ${String(s.failures).padStart(6)} |`,
    );
  }
  // Issue 15: each list call's p99 at most 3 times GET /api/user's, in the same run.
  log('');
  for (const s of summary.filter((s) => s !== user)) {
    const ratio = s.p99 / user.p99;
    log(
      `${s.name}: p99 ${ratio.toFixed(2)}x GET /api/user, target <= ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`,
    );
  }
}

// Last, so every declaration above is initialized before it runs.
if (process.env.BENCH_ROLE === 'services') await runServices();
else await main();
