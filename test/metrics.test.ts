/**
 * Metrics (issue 13): every service and the gateway as separate processes, each with its own METRICS_PORT.
 * After a small journey (sign up, the verification email, verify, create a referral, its intro draft from
 * a model whose output is refused) each process is scraped and the named series are there with the values
 * the journey explains. The gateway's public port never answers /metrics with the web app.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  deleteStream,
  eventually,
  freshDatabase,
  natsUrl,
  startFakeOpenAi,
  startMailCatcher,
  TEST_SECRET,
  uniqueId,
  type FakeOpenAi,
  type MailCatcher,
} from '@app/testing';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startEmbeddedS3, type EmbeddedS3 } from '@app/programs-service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, gatewayBrowser, startProcess, type RunningProcess } from './processes.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let catcher: MailCatcher;
let s3: EmbeddedS3;
let model: FakeOpenAi;
let gatewayUrl: string;
const namespace = uniqueId('metrics').replace(/-/g, '_');
const running: RunningProcess[] = [];

const processes = {
  auth: { entry: 'services/auth/src/main.ts', portVariable: 'AUTH_PORT' },
  mail: { entry: 'services/mail/src/main.ts', portVariable: 'MAIL_PORT' },
  referrals: { entry: 'services/referrals/src/main.ts', portVariable: 'REFERRALS_PORT' },
  programs: { entry: 'services/programs/src/main.ts', portVariable: 'PROGRAMS_PORT' },
  profiles: { entry: 'services/profiles/src/main.ts', portVariable: 'PROFILES_PORT' },
  ai: { entry: 'services/ai/src/main.ts', portVariable: 'AI_PORT' },
  gateway: { entry: 'gateway/src/main.ts', portVariable: 'PORT' },
} as const;
type Name = keyof typeof processes;
const names = Object.keys(processes) as Name[];
const ports = {} as Record<Name, number>;
const metricsPorts = {} as Record<Name, number>;
const env: Record<string, string> = {};

beforeAll(async () => {
  db = await freshDatabase();
  catcher = await startMailCatcher();
  model = await startFakeOpenAi();
  s3 = await startEmbeddedS3(mkdtempSync(join(tmpdir(), 'metrics-s3-')));
  for (const name of names) {
    ports[name] = await freePort();
    metricsPorts[name] = await freePort();
  }
  gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
  // A built web app: an unknown page path answers its index.html, /metrics must not.
  const web = mkdtempSync(join(tmpdir(), 'metrics-web-'));
  mkdirSync(web, { recursive: true });
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>app</title>');
  Object.assign(env, {
    DATABASE_URL: db.url,
    NATS_URL: await natsUrl(),
    NATS_NAMESPACE: namespace,
    SMTP_URL: catcher.url,
    MAIL_FROM: 'Referral Hub <hello@referrals.test>',
    PUBLIC_URL: gatewayUrl,
    INTERNAL_SECRET: TEST_SECRET,
    WEB_DIST: web,
    OPENAI_API_KEY: model.apiKey,
    OPENAI_BASE_URL: model.url,
    OPENAI_MAX_RETRIES: '0',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  });
  for (const name of names) {
    env[processes[name].portVariable] = String(ports[name]);
    if (name !== 'gateway') env[`${name.toUpperCase()}_URL`] = `http://127.0.0.1:${ports[name]}`;
  }
  const start = async (name: Name) =>
    running.push(
      await startProcess(
        name,
        processes[name].entry,
        { ...env, METRICS_PORT: String(metricsPorts[name]) },
        ports[name],
      ),
    );
  // One at a time: on a busy machine, six Node processes starting together each take long to be healthy.
  for (const name of names) await start(name);
}, 180_000);

afterAll(async () => {
  await Promise.all(running.map((p) => p.kill('SIGTERM')));
  await catcher?.close();
  await model?.close();
  await s3?.close();
  await deleteStream(namespace.toUpperCase());
  await deleteStream(`${namespace.toUpperCase()}_DEAD`);
  await db?.drop();
});

/** One sample of a scrape: its labels and value. */
interface Sample {
  labels: Record<string, string>;
  value: number;
}

async function scrape(name: Name): Promise<{ text: string; samples: (metric: string) => Sample[] }> {
  const response = await fetch(`http://127.0.0.1:${metricsPorts[name]}/metrics`);
  expect(response.status, name).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const samples = (metric: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith(`${metric}{`) || line.startsWith(`${metric} `))
      .map((line) => {
        const match = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line)!;
        const labels = Object.fromEntries(
          [...(match[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
        );
        return { labels, value: Number(match[2]) };
      });
  return { text, samples };
}

const sum = (samples: Sample[], labels: Record<string, string>) =>
  samples
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((total, sample) => total + sample.value, 0);

const browser = () => gatewayBrowser(gatewayUrl);

describe('metrics on every process', () => {
  it('are not on the public port: the gateway answers /metrics with a JSON 404, not the web app', async () => {
    const page = await fetch(`${gatewayUrl}/some/page`);
    expect(await page.text()).toContain('<title>app</title>'); // client-side routes do load the app
    const response = await fetch(`${gatewayUrl}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: expect.any(String), code: 'NOT_FOUND' });
    // The metrics port serves nothing else either.
    const other = await fetch(`http://127.0.0.1:${metricsPorts.auth}/healthz`);
    expect(other.status).toBe(404);
  });

  it('count a small journey in each process', async () => {
    const ada = browser();
    const email = 'ada@metrics.test';
    const registered = await ada('POST', '/api/register', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Engines Ltd',
      email,
      password: 's3cret pass',
    });
    expect(registered.status).toBe(201);
    const message = await catcher.waitFor((m) => m.to.includes(email), 15_000);
    const link = new URL(/https?:\/\/\S+verify-email\S+/.exec(message.text)![0]);
    expect((await ada('GET', `/api/verify-email${link.search}`)).status).toBe(200);
    expect((await ada('GET', '/api/referrals/999999')).status).toBe(404);
    const referral = await ada('POST', '/api/referrals', {
      referredFirstName: 'Cleo',
      referredLastName: 'Client',
      referredEmail: 'cleo@client.metrics.test',
      referralReason: 'They are choosing a tool like this one this quarter and asked me for an introduction.',
      isReferralAware: true,
      canUseReferrerName: true,
      product: 'HubSpot',
      company: 'HubSpot',
      website: 'hubspot.com',
      description: 'CRM',
      client: { name: 'Client Org', website: 'client.metrics.test', country: 'Germany' },
      notes: '',
    });
    expect(referral.status).toBe(201);
    // The draft comes from the template: the fake model's answer is not a draft, refused twice.
    await eventually(
      async () => (await ada('GET', `/api/referrals/${referral.body.id as number}/email-draft`)).status === 200,
      15_000,
      'the intro draft',
    );

    // A message no producer signed, on a subject two services consume: each dead-letters it.
    const nc = await connect({ servers: env.NATS_URL });
    await jetstream(nc).publish(`${namespace}.user.registered`, JSON.stringify({ id: randomUUID(), name: 'x' }));
    await nc.close();

    // Gateway: per route template, method and status class; process defaults.
    const gateway = await scrape('gateway');
    const gatewayHttp = gateway.samples('http_request_duration_seconds_count');
    expect(sum(gatewayHttp, { service: 'gateway', method: 'POST', route: '/api/register', status_class: '2xx' })).toBe(
      1,
    );
    expect(
      sum(gatewayHttp, { service: 'gateway', method: 'GET', route: '/api/referrals/:id', status_class: '4xx' }),
    ).toBe(1);
    expect(sum(gatewayHttp, { route: '/metrics' })).toBe(0);
    expect(sum(gatewayHttp, { route: 'unmatched', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(gateway.samples('http_request_duration_seconds_bucket').length).toBeGreaterThan(0);
    expect(gateway.samples('process_cpu_seconds_total')[0]!.value).toBeGreaterThan(0);
    expect(gateway.samples('process_resident_memory_bytes')[0]!.value).toBeGreaterThan(0);
    expect(gateway.samples('nodejs_eventloop_lag_seconds')).toHaveLength(1);

    // Auth: its own HTTP series, outbox backlog (drained), pools.
    const auth = await scrape('auth');
    expect(
      sum(auth.samples('http_request_duration_seconds_count'), {
        service: 'auth',
        method: 'POST',
        route: '/api/register',
        status_class: '2xx',
      }),
    ).toBe(1);
    await eventually(
      async () => sum((await scrape('auth')).samples('outbox_backlog_events'), { service: 'auth' }) === 0,
      10_000,
      'the auth outbox to drain',
    );
    expect(auth.samples('outbox_backlog_events').map((s) => s.labels)).toEqual([{ service: 'auth' }]);
    expect(
      auth
        .samples('db_pool_max_connections')
        .map((s) => s.labels.pool)
        .sort(),
    ).toEqual(['pg', 'prisma']);
    expect(sum(auth.samples('db_pool_connections'), { service: 'auth', pool: 'prisma' })).toBeGreaterThan(0);
    expect(auth.samples('db_pool_waiting_queries').length).toBe(2);

    // Mail: the verification email was sent once; its consumers have nothing left.
    const mail = await scrape('mail');
    expect(sum(mail.samples('emails_sent_total'), {})).toBeGreaterThanOrEqual(1);
    expect(mail.samples('emails_failed_total')).toEqual([]);
    const mailPending = mail.samples('consumer_pending_events');
    expect(mailPending.length).toBeGreaterThanOrEqual(10); // one per subscriber
    expect(mailPending.map((s) => s.labels.subscriber)).toContain('mail-verification-email');
    expect(sum(mailPending, {})).toBe(0);
    expect(mail.samples('consumer_unacknowledged_events').length).toBe(mailPending.length);
    expect(mail.text).toContain('# TYPE consumer_redeliveries_total counter');

    // ai: two refused model answers for the intro draft, then the template (a fallback).
    const ai = await scrape('ai');
    expect(sum(ai.samples('model_call_duration_seconds_count'), { purpose: 'intro-draft', outcome: 'invalid' })).toBe(
      2,
    );
    expect(sum(ai.samples('model_fallbacks_total'), { purpose: 'intro-draft', reason: 'invalid_output' })).toBe(1);

    // Referrals: the referral's routes; the refused message dead-lettered by its user.registered subscriber.
    const referrals = await scrape('referrals');
    expect(
      sum(referrals.samples('http_request_duration_seconds_count'), {
        service: 'referrals',
        method: 'POST',
        route: '/api/referrals',
        status_class: '2xx',
      }),
    ).toBe(1);
    for (const name of ['referrals', 'profiles'] as const) {
      const deadLetters = await eventually(
        async () => {
          const found = (await scrape(name)).samples('consumer_dead_letters_total');
          return found.length ? found : undefined;
        },
        10_000,
        `${name} to dead-letter the refused message`,
      );
      expect(deadLetters).toEqual([
        { labels: { subscriber: expect.stringMatching(/^\w+-/), reason: 'unsigned' }, value: 1 },
      ]);
    }

    // Every process answers with its own series.
    for (const name of names) {
      const { samples } = await scrape(name);
      const services = new Set(samples('http_request_duration_seconds_count').map((s) => s.labels.service));
      expect([...services], name).toEqual([name]);
    }
  });
});
