/**
 * `node bench/impact.ts`: does the Impact dashboard (GET /api/referral-impact) stay fast at scale? Its
 * p99 for a user with 10,000 referrals in a table of 1,000,000, as a ratio to the same call for a user
 * with 100, against the real referrals service on a throwaway PostgreSQL database seeded in bulk SQL
 * (dropped after). The service runs in a child process, autocannon in this one. See bench/README.md.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchDatabase, withoutIndexes } from './lib/database.ts';
import { STAGE_RANK } from '@app/domain';
import autocannon from 'autocannon';
import pg from 'pg';
import { numberEnv } from './lib/env.ts';

const settings = {
  pgUrl: process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  total: numberEnv('BENCH_TOTAL_REFERRALS', 1_000_000),
  bigUser: numberEnv('BENCH_USER_REFERRALS', 10_000),
  smallUser: numberEnv('BENCH_SMALL_USER_REFERRALS', 100),
  connections: numberEnv('BENCH_CONNECTIONS', 10),
  durationSeconds: numberEnv('BENCH_DURATION', 5),
  warmupSeconds: numberEnv('BENCH_WARMUP', 2),
  rounds: numberEnv('BENCH_ROUNDS', 2),
};

/** Issue 15's target: p99 for 10,000 referrals over p99 for 100. */
const TARGET_RATIO = 2;

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The child: the referrals service alone, listening on a free port. */
async function runService() {
  const { createReferralsService, readReferralsConfig } = await import('@app/referrals-service');
  const { inProcessBus } = await import('@app/kit');
  const env = {
    DATABASE_URL: process.env.DATABASE_URL,
    INTERNAL_SECRET: process.env.INTERNAL_SECRET,
    LOG_LEVEL: 'warn',
  };
  const referrals = await createReferralsService({
    config: readReferralsConfig(env),
    bus: await inProcessBus({ databaseUrl: env.DATABASE_URL!, secret: env.INTERNAL_SECRET! }),
    logger: false,
  });
  const url = await referrals.app.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', async (message: { type: string }) => {
    if (message.type !== 'close') return;
    await referrals.close();
    process.exit(0);
  });
  process.send?.({ type: 'ready', url });
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

const BIG = 'bench-big-user';
const SMALL = 'bench-small-user';

async function main() {
  const started = Date.now();
  const secret = randomBytes(32).toString('hex');
  const database = await benchDatabase(settings.pgUrl, 'bench_impact', log);
  const url = database.url;
  let child: ChildProcess | undefined;
  const cleanup = () => database.cleanup(child);
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));

  try {
    // The service migrates the database; seeding starts once it listens.
    const spawned = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_ROLE: 'service', DATABASE_URL: url.href, INTERNAL_SECRET: secret },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child = spawned;
    const serviceUrl = await new Promise<string>((resolve, reject) => {
      spawned.once('exit', (code) => reject(new Error(`the service exited with code ${code}`)));
      spawned.on(
        'message',
        (message: { type: string; url: string }) => message.type === 'ready' && resolve(message.url),
      );
    });

    const db = new pg.Client({ connectionString: url.href });
    db.on('error', () => {}); // ended by the database drop when seeding failed
    await db.connect();
    const timings = await seed(db);
    const { rows } = await db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM referrals.referrals) AS referrals, (SELECT count(*)::int FROM referrals.referral_status_changes) AS changes,
              (SELECT count(*)::int FROM referrals.commissions) AS commissions,
              (SELECT count(*)::int FROM referrals.referrals WHERE user_id = '${BIG}') AS big, (SELECT count(*)::int FROM referrals.referrals WHERE user_id = '${SMALL}') AS small`,
    );
    await db.end();
    const sizes = rows[0]!;
    log(
      `Seeded ${sizes.referrals} referrals (${sizes.big} for the big user, ${sizes.small} for the small one), ${sizes.changes} status changes, ${sizes.commissions} commissions`,
    );
    log(`  ${timings.map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);

    const { identitySigner } = await import('@app/kit');
    const headersOf = (userId: string) => ({
      'x-identity': identitySigner(secret).sign(
        { userId, sessionId: randomUUID(), email: `${userId}@example.com`, isAdmin: false, emailVerified: true },
        3600,
      ),
    });
    const cases = [
      { name: `impact, ${sizes.big} referrals`, url: `${serviceUrl}/api/referral-impact`, headers: headersOf(BIG) },
      { name: `impact, ${sizes.small} referrals`, url: `${serviceUrl}/api/referral-impact`, headers: headersOf(SMALL) },
      // A filter every referral passes: the same answer computed from the big user's rows, not the kept
      // figures (what the unfiltered call cost before them), measured in the same run.
      {
        name: `impact from rows, big`,
        url: `${serviceUrl}/api/referral-impact?from=1970-01-01`,
        headers: headersOf(BIG),
      },
      {
        name: `impact filtered, big`,
        url: `${serviceUrl}/api/referral-impact?from=2026-01-01&partner=Vendor%207`,
        headers: headersOf(BIG),
      },
    ];
    const answers: string[] = [];
    for (const c of cases) {
      const response = await fetch(c.url, { headers: c.headers });
      const body = (await response.json()) as {
        totalReferrals?: number;
        giveGetScore?: { received: number };
        payoutSummary?: { earnedCents: number };
      };
      if (response.status !== 200) throw new Error(`${c.name}: ${response.status} ${JSON.stringify(body)}`);
      log(
        `  ${c.name.padEnd(26)} 200, totalReferrals ${body.totalReferrals}, received ${body.giveGetScore?.received}, earned (cents) ${body.payoutSummary?.earnedCents}`,
      );
      answers.push(JSON.stringify(body));
    }
    // The kept figures answer exactly what the rows do.
    if (answers[0] !== answers[2])
      throw new Error(`the figures' answer differs from the rows': ${answers[0]} ${answers[2]}`);
    log("  the big user's answer from the figures equals the one from the rows");

    log(`\n${cpus().length} CPUs, load average (1 min) before measuring: ${loadavg()[0]!.toFixed(2)}`);
    log(
      `Warm-up ${settings.warmupSeconds} s per case, then ${settings.rounds} interleaved rounds of ${settings.durationSeconds} s, ${settings.connections} connections`,
    );
    for (const c of cases) await load(c.url, c.headers, settings.warmupSeconds);
    const results = new Map<string, Measured[]>(cases.map((c) => [c.name, []]));
    for (let round = 1; round <= settings.rounds; round++) {
      for (const c of cases) {
        const measured = await load(c.url, c.headers, settings.durationSeconds);
        results.get(c.name)!.push(measured);
        log(
          `  round ${round}  ${c.name.padEnd(26)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50.toFixed(1).padStart(6)} ms  p99 ${measured.p99.toFixed(1).padStart(6)} ms${measured.failures ? `  ${measured.failures} failed` : ''}`,
        );
      }
    }
    const summary = cases.map((c) => {
      const runs = results.get(c.name)!;
      return {
        name: c.name,
        rps: median(runs.map((r) => r.rps)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        failures: runs.reduce((n, r) => n + r.failures, 0),
      };
    });
    if (summary.some((s) => s.failures > 0)) {
      log('! some requests failed (non-2xx, errors or timeouts): the figures are not valid');
      process.exitCode = 1;
    }
    const small = summary[1]!;
    log(`\nMedian of ${settings.rounds} rounds, ${sizes.referrals} referrals in the table:\n`);
    log(`| case                       |  req/s | p50 ms | p99 ms | p99 / small p99 | failed |`);
    log(`|----------------------------|-------:|-------:|-------:|----------------:|-------:|`);
    for (const s of summary) {
      log(
        `| ${s.name.padEnd(26)} | ${s.rps.toFixed(0).padStart(6)} | ${s.p50.toFixed(1).padStart(6)} | ${s.p99.toFixed(1).padStart(6)} | ${(s.p99 / small.p99).toFixed(2).padStart(15)} | ${String(s.failures).padStart(6)} |`,
      );
    }
    // Issue 15: the big user's call at most twice the small user's, in the same run.
    const ratio = summary[0]!.p99 / small.p99;
    log(
      `\nimpact, ${sizes.big} referrals: p99 ${ratio.toFixed(2)}x the user with ${sizes.small}, target <= ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`,
    );
    log(`Load average (1 min) after: ${loadavg()[0]!.toFixed(2)}`);
    log(`\nTotal time ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    log(`! ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

/**
 * Bulk SQL shaped like what the service writes: 1,000 products of 300 vendors (10 of them the big user's
 * own company "Bench", a workspace they are a member of, so ~1 % of everyone's referrals are "received" by it), referrals over a year in
 * every stage (deal values on Closed-Won and half of the in-flight ones), their status history (the
 * Tee-up row plus the move to the current stage), a closedWon commission per Closed-Won referral
 * (some paid out), the stage counters, and the 300 vendors as verified workspaces with bounties (their
 * referrals routed to them, as the leaderboard and CSV join them). Returns the time of each step.
 */
async function seed(db: pg.Client): Promise<Array<[string, number]>> {
  const timings: Array<[string, number]> = [];
  const step = async (name: string, sql: string, params: unknown[] = []) => {
    const t = Date.now();
    await db.query(sql, params);
    timings.push([name, Date.now() - t]);
  };
  await db.query('SELECT setseed(0.42)');
  // Bulk loading is faster without the secondary indexes (rebuilt after, as a restore would). Not those of
  // commission_entries: its trigger looks up a commission's settling entries by index for every 'paid' row.
  const rebuilt = await withoutIndexes(db, ['referrals', 'referral_status_changes', 'commissions'], async () => {
    const others = settings.total - settings.bigUser - settings.smallUser;
    await step(
      'projects+referrers',
      `INSERT INTO referrals.projects (id, product_name, company_name, company_key, description)
       SELECT 'bench-product-' || n, 'Product ' || n, c.name, lower(c.name), 'What product ' || n || ' does.'
         FROM generate_series(1, 1000) n, LATERAL (SELECT CASE WHEN n <= 10 THEN 'Bench' ELSE 'Vendor ' || (n % 300) END AS name) c;
       INSERT INTO referrals.referrers (user_id, email, company_name, company_key)
       SELECT 'other-user-' || n, 'other' || n || '@example.com', 'Vendor ' || (n % 300), 'vendor ' || (n % 300) FROM generate_series(0, 4999) n;
       INSERT INTO referrals.referrers (user_id, email, company_name, company_key) VALUES ('${BIG}', 'big@example.com', 'Bench', 'bench'), ('${SMALL}', 'small@example.com', 'Small', 'small');
       INSERT INTO referrals.vendors (id, version, name, domain, company_key, lead_inbox, verified, members)
       SELECT 'vendor-' || n, 1, 'Vendor ' || n, 'vendor' || n || '.example', 'vendor ' || n, 'leads@vendor' || n || '.example', true, '[]'
         FROM generate_series(0, 299) n;
       -- The big user's own company, a verified workspace they are a member of: what it is sent, they receive.
       INSERT INTO referrals.vendors (id, version, name, domain, company_key, lead_inbox, verified, members)
       VALUES ('vendor-bench', 1, 'Bench', 'bench.example', 'bench', 'leads@bench.example', true, '[{"userId":"${BIG}","email":"big@example.com","name":"Big","role":"owner"}]');
       INSERT INTO referrals.vendor_bounties (vendor_id, version, bounties)
       SELECT 'vendor-' || n, 1, '{"qualifiedLead":{"enabled":false},"meetingHeld":{"enabled":false},"opportunityCreated":{"enabled":false},"closedWon":{"enabled":true,"type":"percentage_arr","amount":20},"retentionBonus":{"enabled":false}}'
         FROM generate_series(0, 299) n`,
    );
    // One insert in time order, as a live table grows: the benched users' rows are spread among everyone's.
    await step(
      'referrals',
      `WITH source AS (
         SELECT n, user_id, 'bench-product-' || (1 + floor(random() * 1000)::int) AS project_id,
                (ARRAY['pending','intro_made','intro_accepted','intro_occurred','became_customer','declined'])[1 + floor(random() * 6)::int]::referrals.referral_status AS status,
                now() - random() * interval '365 days' AS created_at
           FROM (SELECT n, '${BIG}'::text AS user_id FROM generate_series(1, $1::int) n
                 UNION ALL SELECT n, '${SMALL}' FROM generate_series(1, $2::int) n
                 UNION ALL SELECT n, 'other-user-' || (n % 5000) FROM generate_series(1, $3::int) n) users)
       INSERT INTO referrals.referrals (user_id, project_id, status, referred_first_name, referred_last_name, referred_email, referral_reason,
                                        company, vendor_id, lead_status, search_text, created_at, updated_at, deal_value_cents, expected_value_cents, furthest_stage, closed_won_at)
       SELECT s.user_id, s.project_id, s.status, 'Anna', 'Smith' || s.n, 'anna' || s.n || '@client.example', 'They need it.', p.company_name,
              CASE WHEN p.company_key LIKE 'vendor %' THEN 'vendor-' || split_part(p.company_key, ' ', 2) ELSE 'vendor-bench' END,
              'new'::referrals.lead_status,
              'anna smith' || s.n, s.created_at, s.created_at,
              CASE WHEN s.status = 'became_customer' THEN (1000 + (s.n % 99) * 1000) * 100 END,
              CASE WHEN s.status IN ('intro_made', 'intro_accepted', 'intro_occurred', 'became_customer') AND s.n % 2 = 0 THEN (1000 + (s.n % 99) * 1000) * 100 END,
              CASE s.status ${Object.entries(STAGE_RANK)
                .map(([stage, rank]) => `WHEN '${stage}' THEN ${rank}`)
                .join(' ')} END,
              CASE WHEN s.status = 'became_customer' THEN s.created_at + interval '2 days' END
         FROM source s JOIN referrals.projects p ON p.id = s.project_id ORDER BY s.created_at`,
      [settings.bigUser, settings.smallUser, others],
    );
    // Statistics for the joins below (autovacuum may not have looked yet: a nested loop over stale
    // estimates took minutes on a busy machine).
    await step('analyze', 'ANALYZE referrals.referrals, referrals.projects');
    await step(
      'status changes',
      `INSERT INTO referrals.referral_status_changes (referral_id, user_id, from_status, to_status, at)
       SELECT id, user_id, NULL::referrals.referral_status, 'pending'::referrals.referral_status, created_at FROM referrals.referrals
       UNION ALL
       SELECT id, user_id, 'pending'::referrals.referral_status, status, created_at + interval '2 days' FROM referrals.referrals WHERE status <> 'pending'
       ORDER BY 5`,
    );
    await step(
      'commissions',
      // Confirmed Closed-Won: 20% of the deal, 70% of it the referrer's; a third paid (ledger entries, cents).
      `INSERT INTO referrals.milestone_confirmations (referral_id, milestone, actor, actor_name, deal_value_cents, confirmed_at)
       SELECT r.id, 'closedWon', 'vendor', 'Bench', r.deal_value_cents, r.closed_won_at
         FROM referrals.referrals r JOIN referrals.projects p ON p.id = r.project_id
        WHERE r.status = 'became_customer' AND p.company_key LIKE 'vendor %';
       INSERT INTO referrals.commissions (referral_id, user_id, vendor_id, milestone, gross_cents, referrer_cents, fee_cents, deal_value_cents, currency, earned_at)
       SELECT r.id, r.user_id, r.vendor_id, 'closedWon', r.deal_value_cents / 5, round(r.deal_value_cents / 5 * 0.7), r.deal_value_cents / 5 - round(r.deal_value_cents / 5 * 0.7),
              r.deal_value_cents, 'USD', r.closed_won_at
         FROM referrals.referrals r JOIN referrals.projects p ON p.id = r.project_id
        WHERE r.status = 'became_customer' AND p.company_key LIKE 'vendor %';
       INSERT INTO referrals.commission_entries (commission_id, referral_id, user_id, kind, amount_cents, actor, actor_name, at)
       SELECT id, referral_id, user_id, 'earned', referrer_cents, 'vendor', 'Bench', earned_at FROM referrals.commissions;
       INSERT INTO referrals.payouts (id, reference, method, paid_on, currency, recorded_by)
       VALUES ('00000000-0000-0000-0000-000000000001', 'BENCH-1', 'bank_transfer', '2026-01-01', 'USD', 'Bench');
       INSERT INTO referrals.commission_entries (commission_id, referral_id, user_id, kind, amount_cents, actor, actor_name, payout_id, at)
       SELECT id, referral_id, user_id, 'paid', -referrer_cents, 'admin', 'Bench', '00000000-0000-0000-0000-000000000001', earned_at + interval '30 days'
         FROM referrals.commissions WHERE referral_id % 3 = 0`,
    );
  });
  timings.push(['indexes', rebuilt]);
  await step(
    'counters',
    `INSERT INTO referrals.referrer_stage_counts (user_id, status, count) SELECT user_id, status, count(*) FROM referrals.referrals GROUP BY 1, 2;
     INSERT INTO referrals.referrer_companies (user_id, company) SELECT DISTINCT user_id, company FROM referrals.referrals;
     INSERT INTO referrals.vendor_lead_counts (vendor_id, count) SELECT vendor_id, count(*) FROM referrals.referrals WHERE vendor_id IS NOT NULL GROUP BY 1`,
  );
  // What autovacuum would have done by now on a live table: statistics and the visibility map.
  await step(
    'vacuum analyze',
    `VACUUM ANALYZE referrals.referrals, referrals.referral_status_changes, referrals.projects, referrals.referrers, referrals.commissions, referrals.commission_entries, referrals.milestone_confirmations,
            referrals.referrer_month_figures, referrals.referrer_project_figures, referrals.referrer_pending_figures`,
  );
  return timings;
}

async function load(url: string, headers: Record<string, string>, durationSeconds: number): Promise<Measured> {
  const result = await autocannon({
    url,
    headers,
    connections: settings.connections,
    duration: durationSeconds,
    pipelining: 1,
  });
  return {
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

// Last, so every declaration above is initialized before it runs.
if (process.env.BENCH_ROLE === 'service') await runService();
else await main();
