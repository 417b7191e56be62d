/**
 * The connection budget, measured (README "Operate"): the six services as separate processes, each under
 * concurrent load (its list reads, its readiness checks, sign-ups whose events reach every subscriber), while
 * pg_stat_activity is sampled. No process ever holds more than DATABASE_POOL_MAX connections, so one replica of
 * each keeps at most 6 x DATABASE_POOL_MAX. The peaks are printed: they are the figures the README quotes.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { operationList } from '@app/contracts';
import { identitySigner } from '@app/kit';
import { startEmbeddedS3, type EmbeddedS3 } from '@app/programs-service';
import { freshDatabase, startMailCatcher, TEST_SECRET, type MailCatcher } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  freePort,
  serviceAddresses,
  startNatsServer,
  startProcess,
  type NatsServer,
  type RunningProcess,
} from './processes.ts';

const SERVICES = {
  auth: 'services/auth/src/main.ts',
  mail: 'services/mail/src/main.ts',
  referrals: 'services/referrals/src/main.ts',
  programs: 'services/programs/src/main.ts',
  profiles: 'services/profiles/src/main.ts',
  ai: 'services/ai/src/main.ts',
} as const;
type Service = keyof typeof SERVICES;
const NAMES = Object.keys(SERVICES) as Service[];
const POOL_MAX = 6; // the default of DATABASE_POOL_MAX, set explicitly so the test says what it measures
const SIGN_UPS = 40;

let db: Awaited<ReturnType<typeof freshDatabase>>;
let nats: NatsServer;
let catcher: MailCatcher;
let s3: EmbeddedS3;
let sql: pg.Pool;
const running: RunningProcess[] = [];
const ports = {} as Record<Service, number>;

beforeAll(async () => {
  db = await freshDatabase();
  sql = new pg.Pool({ connectionString: db.url, max: 1 });
  nats = await startNatsServer();
  catcher = await startMailCatcher({ keep: 1000 });
  s3 = await startEmbeddedS3(mkdtempSync(join(tmpdir(), 'connections-s3-')));
  for (const name of NAMES) ports[name] = await freePort();
  const urls = serviceAddresses(ports);
  const started = await Promise.all(
    NAMES.map((name) => {
      // Each process names itself to PostgreSQL, so pg_stat_activity tells them apart.
      const url = new URL(db.url);
      url.searchParams.set('application_name', name);
      return startProcess(
        name,
        SERVICES[name],
        {
          ...urls,
          DATABASE_URL: url.href,
          DATABASE_POOL_MAX: String(POOL_MAX),
          NATS_URL: nats.url,
          SMTP_URL: catcher.url,
          MAIL_FROM: 'Referral Hub <hello@referrals.test>',
          PUBLIC_URL: 'http://127.0.0.1:3000',
          INTERNAL_SECRET: TEST_SECRET,
          S3_ENDPOINT: s3.endpoint,
          S3_BUCKET: s3.bucket,
          S3_ACCESS_KEY_ID: s3.accessKeyId,
          S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        },
        ports[name],
      ).catch((error: Error) => error);
    }),
  );
  for (const process of started) if (!(process instanceof Error)) running.push(process);
  const failed = started.find((process) => process instanceof Error);
  if (failed) throw failed;
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((process) => process.kill()));
  await catcher?.close();
  await s3?.close();
  await nats?.stop();
  await sql?.end();
  await db?.drop();
});

/** The connections each service holds now, from PostgreSQL's point of view. */
async function connectionsNow(): Promise<Map<string, number>> {
  const { rows } = await sql.query<{ name: string; n: number }>(
    'SELECT application_name AS name, count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 GROUP BY 1',
    [db.name],
  );
  return new Map(rows.map((row) => [row.name, row.n]));
}

it('no service holds more than DATABASE_POOL_MAX connections under load', async () => {
  const signer = identitySigner(TEST_SECRET);
  const identity = signer.sign(
    {
      userId: randomUUID(),
      sessionId: randomUUID(),
      email: 'budget@connections.test',
      isAdmin: true,
      emailVerified: true,
    },
    600,
  );
  // Every read without path parameters that a signed-in administrator may call, per service.
  const reads = operationList.filter(
    (op) => op.method === 'GET' && !op.path.includes('{') && ['user', 'verified', 'admin'].includes(op.access),
  );
  const call = (service: Service, method: string, path: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${ports[service]}${path}`, {
      method,
      headers: { 'x-identity': identity, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).then((response) => response.arrayBuffer().then(() => `${response.status} ${service} ${method} ${path}`));

  const peaks = new Map<string, number>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const [name, n] of await connectionsNow()) peaks.set(name, Math.max(peaks.get(name) ?? 0, n));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();

  /** Each answer as "status service method path", so a failure names its call. */
  const statuses: string[] = [];
  const load = async () => {
    for (let round = 0; round < 15; round++) {
      await Promise.all([
        ...reads.map((op) => call(op.service as Service, 'GET', op.path).then((s) => statuses.push(s))),
        ...NAMES.map((name) => call(name, 'GET', '/readyz').then((s) => statuses.push(s))),
        call('ai', 'POST', '/api/search', { query: 'a CRM for a small sales team' }).then((s) => statuses.push(s)),
      ]);
    }
  };
  const signUps = Array.from({ length: SIGN_UPS }, (_, i) =>
    call('auth', 'POST', '/api/register', {
      firstName: 'Budget',
      lastName: `User${i}`,
      companyName: 'Connections Ltd',
      email: `budget${i}@connections.test`,
      password: 'connection budget pass 1',
    }).then((s) => statuses.push(s)),
  );
  await Promise.all([...Array.from({ length: 20 }, load), ...signUps]);
  // The sign-ups' events reach referrals, profiles and mail: wait for every verification email.
  const deadline = Date.now() + 60_000;
  while (catcher.messages.length < SIGN_UPS && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  sampling = false;
  await sampler;

  expect(catcher.messages.length, 'every sign-up got its verification email').toBeGreaterThanOrEqual(SIGN_UPS);
  expect(
    statuses.filter((s) => s.startsWith('5')),
    'no request failed for want of a connection',
  ).toEqual([]);
  const figures = NAMES.map((name) => `${name} ${peaks.get(name) ?? 0}`).join(', ');
  const total = NAMES.reduce((sum, name) => sum + (peaks.get(name) ?? 0), 0);
  console.log(`Peak PostgreSQL connections per process (DATABASE_POOL_MAX=${POOL_MAX}): ${figures}; sum ${total}`);
  for (const name of NAMES) {
    expect(peaks.get(name) ?? 0, `${name}'s peak`).toBeLessThanOrEqual(POOL_MAX);
    // The load reached both pools of each service: the budget was tested, not idle.
    expect(peaks.get(name) ?? 0, `${name}'s peak`).toBeGreaterThanOrEqual(2);
  }
  expect(total).toBeLessThanOrEqual(NAMES.length * POOL_MAX);
}, 180_000);
