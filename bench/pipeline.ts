/**
 * `npm run bench:pipeline`: how many referrals per second the event pipeline carries, end to end, with the
 * services as separate processes on NATS JetStream:
 *
 *   POST /api/referrals (referrals) -> outbox -> NATS -> ai-intro-draft (ai) -> referral.draft_generated
 *   -> referrals-email-draft (stored draft) -> POST /api/referrals/:id/send-email (referrals) -> outbox
 *   -> NATS -> mail-referral-intro (mail) -> SMTP -> the sink
 *
 * Referrals are offered at BENCH_RATE per second (open loop) by many referrer users; a referral is sent
 * as soon as its draft is stored (as the submitted screen does). Prints sustained created / drafted /
 * emailed per second, p99 end-to-end latency (create -> email at the SMTP sink), lost and duplicated
 * emails, CPU per process (from /proc) and resident memory per process with its slope. See bench/README.md.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import {
  freePort,
  serviceAddresses,
  startNatsServer,
  startProcess,
  type NatsServer,
  type RunningProcess,
} from '../test/processes.ts';
import { benchDatabase } from './lib/database.ts';
import { numberEnv } from './lib/env.ts';
import { cpuMicros, forkHelper, machineBusyMicros, stopHelper } from './lib/processes.ts';
import { rssSampler, slope } from './lib/rss.ts';
import type { Received } from './lib/smtp-sink.ts';

const settings = {
  pgUrl: process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  /** Referrals offered per second. */
  rate: numberEnv('BENCH_RATE', 1000),
  warmupSeconds: numberEnv('BENCH_WARMUP', 10),
  durationSeconds: numberEnv('BENCH_DURATION', 30),
  /** After the measured run, the longest wait for the last emails... */
  drainSeconds: numberEnv('BENCH_DRAIN', 300),
  /** ...given up earlier when none arrived for this long (what is still missing then is lost). */
  stallSeconds: numberEnv('BENCH_STALL', 20),
  /** DATABASE_POOL_MAX of each service; unset: the services' default. */
  poolMax: process.env.BENCH_POOL_MAX,
  users: numberEnv('BENCH_USERS', 1000),
  /** Requests (create or send) in flight at most; past it the offered rate is not held (said). */
  maxInFlight: numberEnv('BENCH_MAX_IN_FLIGHT', 256),
  rssEverySeconds: numberEnv('BENCH_RSS_EVERY', 5),
  /** A process whose RSS slope stays under this (MB per minute) counts as flat. */
  flatMbPerMinute: numberEnv('BENCH_RSS_FLAT', 1),
  /** Comma-separated process names (referrals,ai,mail) to run with --cpu-prof. */
  cpuProf: (process.env.BENCH_CPU_PROF ?? '').split(',').filter(Boolean),
  natsUrl: process.env.BENCH_NATS_URL,
};

const TARGET = 1000;
const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const services = {
  referrals: 'services/referrals/src/main.ts',
  ai: 'services/ai/src/main.ts',
  mail: 'services/mail/src/main.ts',
} as const;
type ServiceName = keyof typeof services;

/** A JSON POST over a keep-alive connection: status and body. */
function post(agent: Agent, url: URL, path: string, headers: Record<string, string>, body: unknown) {
  const data = JSON.stringify(body);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** Each durable consumer's backlog on the bench's stream: which stage is behind. */
async function consumerBacklog(url: string, namespace: string) {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const list: Array<{ name: string; pending: number; unacknowledged: number }> = [];
    for await (const info of jsm.consumers.list(namespace.toUpperCase()))
      list.push({ name: info.name, pending: info.num_pending, unacknowledged: info.num_ack_pending });
    return list.sort((a, b) => b.pending + b.unacknowledged - a.pending - a.unacknowledged);
  } finally {
    await nc.close();
  }
}

interface Referral {
  index: number;
  marker: string;
  createdAt: number; // when the create request started
  /** How long the create took to be answered 201 (the user's wait on the form), ms. */
  createMs?: number;
  id?: number;
  /** How long the send took to be answered 200, ms. */
  sendMs?: number;
  draftedAt?: number;
  sentAt?: number;
  emails: number;
  emailedAt?: number;
}

async function main() {
  const started = Date.now();
  const secret = randomBytes(32).toString('hex');
  const runId = randomBytes(3).toString('hex');
  const database = await benchDatabase(settings.pgUrl, 'bench_pipeline', log);
  const profileDir = join(root, 'bench/results/profiles');
  const running = new Map<ServiceName, RunningProcess>();
  let nats: NatsServer | undefined;
  let sink: ChildProcess | undefined;
  const sql = new pg.Pool({ connectionString: database.url.href, max: 2 });
  const cleanup = async () => {
    await Promise.all([...running.values()].map((p) => p.kill('SIGTERM')));
    if (sink) await stopHelper(sink);
    await nats?.stop();
    await sql.end().catch(() => {});
    await database.cleanup(undefined);
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));

  try {
    nats = settings.natsUrl ? undefined : await startNatsServer();
    const natsUrl = settings.natsUrl ?? nats!.url;
    const namespace = `bench_${runId}`;
    const sinkHelper = await forkHelper('smtp-sink.ts', {});
    sink = sinkHelper.child;
    const ports = Object.fromEntries(
      await Promise.all(Object.keys(services).map(async (name) => [name, await freePort()] as const)),
    ) as Record<ServiceName, number>;
    const env: Record<string, string> = {
      DATABASE_URL: database.url.href,
      NATS_URL: natsUrl,
      NATS_NAMESPACE: namespace,
      SMTP_URL: `smtp://127.0.0.1:${sinkHelper.port}`,
      MAIL_FROM: 'Referral Hub <hello@referrals.test>',
      INTERNAL_SECRET: secret,
      // Every referrer sends to one recipient per referral: the quotas are not what this bench measures.
      SEND_RECIPIENTS_PER_HOUR: '1000000',
      SEND_RECIPIENTS_PER_DAY: '1000000',
      ...(settings.poolMax ? { DATABASE_POOL_MAX: settings.poolMax } : {}),
      ...serviceAddresses(ports),
    };
    // Unset: no model (the template draft), no enrichment webhook.
    for (const variable of ['OPENAI_API_KEY', 'ENRICHMENT_WEBHOOK_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT'])
      delete process.env[variable];
    if (settings.cpuProf.length) mkdirSync(profileDir, { recursive: true });
    for (const name of Object.keys(services) as ServiceName[]) {
      const profile: Record<string, string> = settings.cpuProf.includes(name)
        ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir} --cpu-prof-name=pipeline-${name}.cpuprofile` }
        : {};
      running.set(name, await startProcess(name, services[name], { ...env, ...profile }, ports[name]));
    }
    log(
      `Services up (referrals, ai, mail as separate processes; NATS ${settings.natsUrl ? settings.natsUrl : 'own nats-server'}, namespace ${namespace}; database ${database.url.pathname.slice(1)}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    // Referrers known to the referrals service with a name (as user.registered would have left them).
    const users = Array.from({ length: settings.users }, (_, i) => ({
      userId: randomUUID(),
      email: `referrer${i}-${runId}@bench.test`,
    }));
    await sql.query(
      `INSERT INTO referrals.referrers (user_id, email, first_name, last_name, company_name)
       SELECT id, email, 'Bench', 'Referrer', 'Bench Co' FROM unnest($1::text[], $2::text[]) AS u(id, email)`,
      [users.map((u) => u.userId), users.map((u) => u.email)],
    );
    const { identitySigner } = await import('@app/kit');
    const signer = identitySigner(secret);
    const identities = users.map((u) =>
      signer.sign(
        { userId: u.userId, sessionId: randomUUID(), email: u.email, isAdmin: false, emailVerified: true },
        7200,
      ),
    );

    const referralsUrl = new URL(`http://127.0.0.1:${ports.referrals}`);
    const agent = new Agent({ keepAlive: true, maxSockets: settings.maxInFlight });
    const referrals: Referral[] = [];
    const byMarker = new Map<string, Referral>();
    const awaitingDraft = new Map<number, Referral>();
    /** Failed requests by kind and status, with the first answer of each. */
    const failures = new Map<string, { count: number; first: string }>();
    let unknownEmails = 0;
    let inFlight = 0;
    let behind = 0;

    sink.on('message', (message: { type: string; messages?: Received[] }) => {
      if (message.type !== 'received') return;
      for (const email of message.messages!) {
        const marker = email.to.map((address) => /^(p\d+x[0-9a-f]+)@/.exec(address)?.[1]).find(Boolean);
        const referral = marker ? byMarker.get(marker) : undefined;
        if (!referral) {
          unknownEmails++;
          continue;
        }
        referral.emails++;
        referral.emailedAt ??= email.at;
      }
    });

    const fail = (what: string, status: number, body: string) => {
      const kind = `${what} ${status}`;
      const known = failures.get(kind);
      if (known) known.count++;
      else failures.set(kind, { count: 1, first: body.slice(0, 200) });
    };

    async function create(index: number) {
      const marker = `p${index}x${runId}`;
      const referral: Referral = { index, marker, createdAt: Date.now(), emails: 0 };
      const asked = performance.now();
      referrals.push(referral);
      byMarker.set(marker, referral);
      inFlight++;
      try {
        const answer = await post(
          agent,
          referralsUrl,
          '/api/referrals',
          { 'x-identity': identities[index % identities.length]! },
          {
            referredFirstName: 'Grace',
            referredLastName: 'Hopper',
            referredEmail: `${marker}@client.test`,
            referralReason: `Needs a compiler (${marker})`,
            isReferralAware: true,
            product: `Product ${index % 50}`,
            company: `Vendor ${index % 50}`,
            client: { name: 'US Navy' },
          },
        );
        if (answer.status !== 201) return fail('create', answer.status, answer.body);
        referral.createMs = performance.now() - asked;
        referral.id = Number((JSON.parse(answer.body) as { id: number | string }).id);
        awaitingDraft.set(referral.id, referral);
      } catch (error) {
        fail('create', 0, String(error));
      } finally {
        inFlight--;
      }
    }

    async function send(referral: Referral) {
      const asked = performance.now();
      inFlight++;
      try {
        const answer = await post(
          agent,
          referralsUrl,
          `/api/referrals/${referral.id}/send-email`,
          { 'x-identity': identities[referral.index % identities.length]! },
          {
            subject: `Intro ${referral.marker}`,
            body: `Hello, meet our friends (${referral.marker}).`,
            recipients: { to: [`${referral.marker}@client.test`] },
          },
        );
        if (answer.status !== 200) return fail('send', answer.status, answer.body);
        referral.sentAt = Date.now();
        referral.sendMs = performance.now() - asked;
      } catch (error) {
        fail('send', 0, String(error));
      } finally {
        inFlight--;
      }
    }

    // Drafts: read from the database in batches every 100 ms (what the screen's polling would ask the service
    // one by one), on a connection of its own whose backend's CPU is counted apart from the services'.
    const poll = new pg.Client({ connectionString: database.url.href });
    await poll.connect();
    const pollerPid = (await poll.query<{ pid: number }>('SELECT pg_backend_pid() pid')).rows[0]!.pid;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        if (awaitingDraft.size) {
          const { rows } = await poll.query<{ id: number }>(
            'SELECT id FROM referrals.referrals WHERE id = ANY($1::int[]) AND email_draft IS NOT NULL',
            [[...awaitingDraft.keys()].slice(0, 5000)],
          );
          const now = Date.now();
          for (const { id } of rows) {
            const referral = awaitingDraft.get(id)!;
            awaitingDraft.delete(id);
            referral.draftedAt = now;
            void send(referral);
          }
        }
        await sleep(100);
      }
      await poll.end();
    })();

    // Open loop: referral n is due at n / rate seconds; a tick starts whatever is due (within maxInFlight).
    let offering = true;
    const offerStart = Date.now();
    let offered = 0;
    const offer = (async () => {
      while (offering) {
        const due = Math.floor(((Date.now() - offerStart) / 1000) * settings.rate);
        while (offered < due && offering) {
          if (inFlight >= settings.maxInFlight) {
            behind++;
            break;
          }
          void create(offered++);
        }
        await sleep(5);
      }
    })();

    const pids: Record<string, number> = {
      referrals: running.get('referrals')!.child.pid!,
      ai: running.get('ai')!.child.pid!,
      mail: running.get('mail')!.child.pid!,
      'smtp sink': sink.pid!,
      'bench (load + poller)': process.pid,
    };
    if (nats) pids['nats-server'] = nats.pid;
    pids['postgres (bench poller)'] = pollerPid;
    const postgresPids = async () =>
      (
        await sql.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1',
          [pollerPid],
        )
      ).rows.map((row) => row.pid);
    const postgresCpu = (list: number[]) =>
      list.reduce((sum, pid) => {
        try {
          return sum + cpuMicros(pid);
        } catch {
          return sum;
        }
      }, 0);

    const rss = rssSampler(pids, offerStart);
    const sampleRss = () => rss.sample();

    await sleep(settings.warmupSeconds * 1000);
    const window = {
      start: Date.now(),
      cpu: Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMicros(pid)])),
      pg: await postgresPids(),
      machine: machineBusyMicros(),
    };
    const pgCpuStart = postgresCpu(window.pg);
    const transactions = async () =>
      (
        await sql.query<{ commits: string; statements: string }>(
          `SELECT xact_commit::text commits, (tup_inserted + tup_updated + tup_deleted)::text statements
             FROM pg_stat_database WHERE datname = current_database()`,
        )
      ).rows[0]!;
    const transactionsStart = await transactions();
    sampleRss();
    const sampler = setInterval(sampleRss, settings.rssEverySeconds * 1000);
    await sleep(settings.durationSeconds * 1000);
    const windowEnd = Date.now();
    const cpuEnd = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMicros(pid)]));
    const pgEnd = new Set(await postgresPids());
    const transactionsEnd = await transactions();
    const pgCpu = postgresCpu(window.pg.filter((pid) => pgEnd.has(pid))) - pgCpuStart;
    const machine = machineBusyMicros() - window.machine;
    const backlog = await consumerBacklog(natsUrl, namespace);
    const { rows: outboxes } = await sql.query<{ service: string; unpublished: number }>(
      ['referrals', 'ai']
        .map(
          (schema) =>
            `SELECT '${schema}' service, count(*)::int unpublished FROM ${schema}.outbox_events WHERE published_at IS NULL`,
        )
        .join(' UNION ALL '),
    );
    clearInterval(sampler);
    sampleRss();
    offering = false;
    await offer;

    // Drain: wait until every created referral's email arrived, or none came for BENCH_STALL seconds.
    const drainDeadline = Date.now() + settings.drainSeconds * 1000;
    let progress = { waiting: -1, at: Date.now() };
    while (Date.now() < drainDeadline) {
      const waiting = referrals.filter((r) => r.id !== undefined && r.emails === 0).length;
      if (!waiting && !inFlight) break;
      if (waiting !== progress.waiting) progress = { waiting, at: Date.now() };
      else if (Date.now() - progress.at > settings.stallSeconds * 1000) break;
      await sleep(200);
    }
    await sleep(1000); // a late duplicate would show up here
    polling = false;
    await poller;
    const drained = Date.now();

    const seconds = (windowEnd - window.start) / 1000;
    const inWindow = (t: number | undefined) => t !== undefined && t >= window.start && t < windowEnd;
    const created = referrals.filter((r) => r.id !== undefined);
    const createdPerSecond = referrals.filter((r) => r.id !== undefined && inWindow(r.createdAt)).length / seconds;
    const draftedPerSecond = referrals.filter((r) => inWindow(r.draftedAt)).length / seconds;
    const emailedPerSecond = referrals.filter((r) => inWindow(r.emailedAt)).length / seconds;
    const measured = created.filter((r) => inWindow(r.createdAt));
    const endToEnd = measured.filter((r) => r.emailedAt).map((r) => r.emailedAt! - r.createdAt);
    const toDraft = measured.filter((r) => r.draftedAt).map((r) => r.draftedAt! - r.createdAt);
    const createAnswer = measured.flatMap((r) => (r.createMs === undefined ? [] : [r.createMs]));
    const sendAnswer = measured.flatMap((r) => (r.sendMs === undefined ? [] : [r.sendMs]));
    // Lost: sent (answered 200) and never at the sink. A failed request is counted as failed, not lost.
    const lost = created.filter((r) => r.sentAt !== undefined && r.emails === 0).length;
    const neverDrafted = created.filter((r) => r.draftedAt === undefined).length;
    const notSent = created.filter((r) => r.draftedAt !== undefined && r.sentAt === undefined && r.emails === 0).length;
    const duplicated = created.filter((r) => r.emails > 1).length;

    log('');
    log(
      `Offered ${settings.rate} referrals/s for ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured, ${settings.users} referrers, ${cpus().length} cores`,
    );
    log(
      `  created ${createdPerSecond.toFixed(0)}/s, drafted ${draftedPerSecond.toFixed(0)}/s, emailed ${emailedPerSecond.toFixed(0)}/s (in the measured window)`,
    );
    const ms = (values: number[], p: number) => percentile(values, p).toFixed(1);
    log(
      `  create answered (201): p50 ${ms(createAnswer, 50)} ms, p99 ${ms(createAnswer, 99)} ms; send answered (200): p50 ${ms(sendAnswer, 50)} ms, p99 ${ms(sendAnswer, 99)} ms`,
    );
    log(
      `  create -> draft stored: p50 ${percentile(toDraft, 50).toFixed(0)} ms, p99 ${percentile(toDraft, 99).toFixed(0)} ms`,
    );
    log(
      `  create -> email at the SMTP sink: p50 ${percentile(endToEnd, 50).toFixed(0)} ms, p99 ${percentile(endToEnd, 99).toFixed(0)} ms`,
    );
    log(
      `  ${created.length} referrals created in all (${referrals.length - created.length} creates failed), ${neverDrafted} never drafted, ${notSent} sends failed; emails: ${lost} lost, ${duplicated} duplicated, ${unknownEmails} unmatched; drained in ${((drained - windowEnd) / 1000).toFixed(1)} s`,
    );
    log(
      `  consumer backlog at the end of the measured window (pending + unacknowledged): ${backlog.map((c) => `${c.name} ${c.pending}+${c.unacknowledged}`).join(', ')}`,
    );
    const drafted = Math.max(1, draftedPerSecond * seconds);
    log(
      `  PostgreSQL per drafted referral: ${((Number(transactionsEnd.commits) - Number(transactionsStart.commits)) / drafted).toFixed(1)} commits, ${((Number(transactionsEnd.statements) - Number(transactionsStart.statements)) / drafted).toFixed(1)} rows written (every transaction of the database, the bench's polling included)`,
    );
    log(`  outbox rows not yet published then: ${outboxes.map((o) => `${o.service} ${o.unpublished}`).join(', ')}`);
    if (behind)
      log(`  ! ${behind} ticks found ${settings.maxInFlight} requests in flight: the offered rate was not held`);
    for (const [kind, { count, first }] of failures) log(`  ! ${count} x ${kind}, first: ${first}`);
    for (const [name, service] of running) {
      const errors = service
        .output()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line));
      if (errors.length) log(`  ! ${name} logged ${errors.length} errors, first: ${errors[0]!.slice(0, 600)}`);
    }

    const cpuRows = [
      ...Object.keys(pids).map((name) => ({ name, micros: cpuEnd[name]! - window.cpu[name]! })),
      { name: `postgres (services' ${window.pg.length} backends)`, micros: pgCpu },
    ].sort((a, b) => b.micros - a.micros);
    const perReferral = Math.max(1, draftedPerSecond * seconds);
    const others = machine - cpuRows.reduce((sum, row) => sum + row.micros, 0);
    log('');
    log('| process | CPU % of one core | CPU us per drafted referral | RSS MB (end) | RSS slope MB/min |');
    log('|---|--:|--:|--:|--:|');
    // The slope leaves out the first quarter of the measured run: heaps grow to their working size first.
    const settled = window.start + (windowEnd - window.start) / 4;
    const settledMinutes = (settled - offerStart) / 60_000;
    const slopes: Record<string, number> = {};
    for (const row of cpuRows) {
      const points = rss.samples.get(row.name);
      const samples = points ?? [];
      slopes[row.name] = slope(samples.filter(([minutes]) => minutes >= settledMinutes));
      const last = samples.at(-1)?.[1];
      log(
        `| ${row.name} | ${((row.micros / (seconds * 1e6)) * 100).toFixed(0)}% | ${(row.micros / perReferral).toFixed(0)} | ${last === undefined ? '-' : last.toFixed(0)} | ${points ? slopes[row.name]!.toFixed(2) : '-'} |`,
      );
    }
    log(`| others (not this bench) | ${((others / (seconds * 1e6)) * 100).toFixed(0)}% | | | |`);
    const limiting = cpuRows.find((row) => !row.name.includes('bench'))!;
    log('');
    log(
      `Busiest process: ${limiting.name} at ${((limiting.micros / (seconds * 1e6)) * 100).toFixed(0)}% of one core; the machine was ${((machine / (seconds * 1e6 * cpus().length)) * 100).toFixed(0)}% busy (${cpus().length} cores)`,
    );
    const growing = Object.entries(slopes).filter(([, s]) => s > settings.flatMbPerMinute);
    log(
      `Memory (RSS slope over the last ${((windowEnd - settled) / 60_000).toFixed(1)} min of the measured run): ${growing.length ? `GROWING: ${growing.map(([n, s]) => `${n} ${s.toFixed(2)} MB/min`).join(', ')}` : `flat (every slope <= ${settings.flatMbPerMinute} MB/min)`}`,
    );
    const sustained = Math.min(createdPerSecond, draftedPerSecond);
    const backlogged = backlog.reduce((sum, c) => sum + c.pending, 0);
    const kept = createdPerSecond >= 0.95 * settings.rate && draftedPerSecond >= 0.95 * createdPerSecond;
    log(
      `Offered ${settings.rate}/s ${kept && backlogged < settings.rate * 2 ? 'held' : 'NOT held'}: created ${(createdPerSecond / settings.rate).toFixed(2)} of it, drafted ${(draftedPerSecond / Math.max(createdPerSecond, 1)).toFixed(2)} of created, ${backlogged} events pending in the consumers (the ceiling is the highest BENCH_RATE held)`,
    );
    const met = sustained >= TARGET && lost === 0 && duplicated === 0 && neverDrafted === 0;
    log(
      `Target >= ${TARGET} referrals/s created and drafted with no loss: ${met ? 'met' : 'NOT met'} (${sustained.toFixed(0)}/s, ratio ${(sustained / TARGET).toFixed(2)} of the target, ${lost} lost, ${duplicated} duplicated)`,
    );

    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(
      join(root, 'bench/results/pipeline-latest.json'),
      JSON.stringify(
        {
          settings,
          createdPerSecond,
          draftedPerSecond,
          emailedPerSecond,
          p99EndToEndMs: percentile(endToEnd, 99),
          p99ToDraftMs: percentile(toDraft, 99),
          createAnsweredMs: { p50: percentile(createAnswer, 50), p99: percentile(createAnswer, 99) },
          sendAnsweredMs: { p50: percentile(sendAnswer, 50), p99: percentile(sendAnswer, 99) },
          backlog,
          lost,
          duplicated,
          unknownEmails,
          cpu: cpuRows,
          rss: Object.fromEntries(rss.samples),
          slopes,
          neverDrafted,
          notSent,
          failures: Object.fromEntries(failures),
        },
        null,
        1,
      ),
    );
    agent.destroy();
    if (lost || duplicated) process.exitCode = 1;
  } finally {
    await cleanup();
    if (settings.cpuProf.length) log(`CPU profiles in ${profileDir}`);
  }
}

await main();
