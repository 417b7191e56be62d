/**
 * The fault suite: every service and the gateway as separate processes on a NATS server of the test's
 * own, a real SMTP server, fresh databases. While signed-in, verified users keep creating referrals and
 * sending their intro emails, one fault at a time: each service SIGKILLed (then started again), each
 * service SIGSTOPped for a few seconds (then SIGCONT), NATS restarted, SMTP answering 451 for a while.
 * Afterwards: every referral stored once, every intro email sent exactly once, and while a service was
 * down or stopped the gateway answered a JSON 503/504 within its upstream timeout.
 */
import { randomUUID } from 'node:crypto';
import { eventCodec } from '@app/kit';
import { freshDatabase, startMailCatcher, TEST_SECRET, type MailCatcher } from '@app/testing';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedS3, type EmbeddedS3 } from '@app/programs-service';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  serviceAddresses,
  startNatsServer,
  startProcess,
  type NatsServer,
  type RunningProcess,
} from './processes.ts';

const UPSTREAM_TIMEOUT_MS = 2000;
/** A stopped service: the gateway gives up after UPSTREAM_TIMEOUT_MS; this much more is allowed for a slow machine. */
const ANSWER_MARGIN_MS = 1500;
/** Enough users that each sends to a dozen recipients or so: well inside the per-user sending quotas. */
const USERS = 16;
const STOP_MS = 3000;

const services = {
  auth: 'services/auth/src/main.ts',
  mail: 'services/mail/src/main.ts',
  referrals: 'services/referrals/src/main.ts',
  programs: 'services/programs/src/main.ts',
  profiles: 'services/profiles/src/main.ts',
  ai: 'services/ai/src/main.ts',
  gateway: 'gateway/src/main.ts',
} as const;
type Name = keyof typeof services;
type ServiceName = Exclude<Name, 'gateway'>;

/** A request of each service's own, through the gateway, to ask while it is down (mail has no public route). */
const probes: Partial<Record<ServiceName, { method: string; path: string; body?: unknown }>> = {
  auth: { method: 'GET', path: '/api/user' },
  referrals: { method: 'GET', path: '/api/referrals' },
  programs: { method: 'GET', path: '/api/programs/all' },
  profiles: { method: 'GET', path: '/api/vendors/mine' },
  ai: { method: 'POST', path: '/api/search', body: { query: 'Slack' } },
};

let db: Awaited<ReturnType<typeof freshDatabase>>;
let sql: pg.Pool;
let catcher: MailCatcher;
let s3: EmbeddedS3;
let nats: NatsServer;
let gatewayUrl: string;
const running = new Map<Name, RunningProcess>();
const env: Record<string, string> = {};
const ports: Record<string, number> = {};

interface Answer {
  status: number;
  body: { message?: unknown; code?: unknown; [key: string]: unknown } | null;
  raw: string;
  ms: number;
}

/** A cookie-keeping client of the gateway; a request that gets no answer in 15 s is status 0. */
function browser() {
  let cookie = '';
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const started = Date.now();
    try {
      const response = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(cookie ? { cookie } : {}),
          origin: gatewayUrl,
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(15_000),
      });
      const set = response.headers.getSetCookie().find((c) => c.startsWith('sid='));
      if (set) cookie = set.split(';')[0]!;
      const raw = await response.text();
      let parsed: Answer['body'] = null;
      try {
        parsed = JSON.parse(raw) as Answer['body'];
      } catch {
        // not JSON: kept in raw
      }
      return { status: response.status, body: parsed, raw, ms: Date.now() - started };
    } catch (error) {
      return { status: 0, body: null, raw: String(error), ms: Date.now() - started };
    }
  };
}
type Browser = ReturnType<typeof browser>;

/** Every process's output, including the ones killed since. */
const outputs: Array<{ name: Name; output: () => string }> = [];

async function start(name: Name) {
  const process = await startProcess(name, services[name], env, ports[name]!);
  running.set(name, process);
  outputs.push({ name, output: process.output });
}

const linkIn = (text: string) => new URL(/https?:\/\/\S+verify-email\S+/.exec(text)![0]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Register, verify through the emailed link, sign in: works whether or not sign-up opens a session. */
async function signedInUser(index: number): Promise<Browser> {
  const email = `user${index}@faults.test`;
  const password = 'fault suite pass 1';
  const client = browser();
  const registered = await client('POST', '/api/register', {
    firstName: 'User',
    lastName: `Number${index}`,
    companyName: 'Faults Ltd',
    email,
    password,
  });
  expect(registered.status, registered.raw).toBe(201);
  const message = await catcher.waitFor((m) => m.to.includes(email), 30_000);
  expect((await client('GET', `/api/verify-email${linkIn(message.text).search}`)).status).toBe(200);
  const login = await client('POST', '/api/login', { email, password });
  expect(login.status, login.raw).toBe(200);
  return client;
}

interface Attempt {
  marker: string;
  user: number;
  created?: Answer;
  referralId?: number;
  sent?: Answer;
}
const attempts: Attempt[] = [];
const downAnswers: Array<{ service: ServiceName; fault: 'killed' | 'stopped'; answer: Answer }> = [];
let users: Browser[] = [];

const sendBody = (attempt: Attempt) => ({
  subject: `Intro ${attempt.marker}`,
  body: `Hello, meet our friends (${attempt.marker}).`,
  recipients: { to: [`${attempt.marker}@client.test`] },
});

/** One referral created and its intro sent; whatever the answers were is recorded. */
async function referAndSend(attempt: Attempt) {
  const client = users[attempt.user]!;
  attempt.created = await client('POST', '/api/referrals', {
    referredFirstName: 'Grace',
    referredLastName: 'Hopper',
    referredEmail: `${attempt.marker}@client.test`,
    referralReason: `Needs a compiler (${attempt.marker})`,
    isReferralAware: true,
    product: 'Slack',
    company: 'Salesforce, Inc.',
    client: { name: 'US Navy' },
  });
  if (attempt.created.status !== 201) return;
  attempt.referralId = Number(attempt.created.body!.id);
  attempt.sent = await client('POST', `/api/referrals/${attempt.referralId}/send-email`, sendBody(attempt));
}

/** The stream: `workers` users' worth of referrals and sends, one after another each, until stopped. */
function stream(workers: number) {
  let stopped = false;
  let next = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (!stopped) {
      const index = next++;
      const attempt: Attempt = { marker: `r${index}x${Date.now().toString(36)}`, user: index % USERS };
      attempts.push(attempt);
      await referAndSend(attempt);
      await sleep(250);
    }
  });
  return async () => {
    stopped = true;
    await Promise.all(loops);
  };
}

/** Asks the service's probe route through the gateway while the service is not answering. */
async function probe(service: ServiceName, fault: 'killed' | 'stopped') {
  const request = probes[service];
  if (!request) return;
  const answer = await users[0]!(request.method, request.path, request.body);
  downAnswers.push({ service, fault, answer });
}

beforeAll(async () => {
  db = await freshDatabase();
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  catcher = await startMailCatcher({ keep: 10_000 });
  s3 = await startEmbeddedS3(mkdtempSync(join(tmpdir(), 'faults-s3-')));
  nats = await startNatsServer();
  for (const name of Object.keys(services)) ports[name] = await freePort();
  gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
  Object.assign(env, {
    DATABASE_URL: db.url,
    NATS_URL: nats.url,
    SMTP_URL: catcher.url,
    MAIL_FROM: 'Referral Hub <hello@referrals.test>',
    PUBLIC_URL: gatewayUrl,
    INTERNAL_SECRET: TEST_SECRET,
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    RATE_LIMIT_AUTH_MAX: '10000',
    UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    UPSTREAM_MODEL_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    ...serviceAddresses(Object.fromEntries(Object.entries(ports).filter(([name]) => name !== 'gateway'))),
    PORT: String(ports.gateway),
  });
  await start('auth');
  await Promise.all((['mail', 'referrals', 'programs', 'profiles', 'ai', 'gateway'] as const).map(start));

  users = [];
  for (let i = 0; i < USERS; i += 4) {
    users.push(...(await Promise.all([i, i + 1, i + 2, i + 3].map(signedInUser))));
  }

  const stop = stream(2);
  await sleep(1000);
  const all = Object.keys(probes).concat('mail') as ServiceName[];
  for (const service of all) {
    await running.get(service)!.kill('SIGKILL');
    await probe(service, 'killed');
    await sleep(500);
    await start(service);
    await sleep(500);
  }
  for (const service of all) {
    const { child } = running.get(service)!;
    child.kill('SIGSTOP');
    const resume = sleep(STOP_MS).then(() => child.kill('SIGCONT'));
    await probe(service, 'stopped');
    await resume;
    await sleep(500);
  }
  await nats.restart();
  await sleep(3000);
  catcher.refuse(451);
  await sleep(4000);
  catcher.refuse(null);
  await sleep(1000);
  await stop();

  // A send that got no answer (a fault in its way) is asked again, as the user would: 200, or 409 if it went.
  for (const attempt of attempts) {
    if (attempt.referralId === undefined || attempt.sent?.status === 200) continue;
    const deadline = Date.now() + 30_000;
    for (;;) {
      attempt.sent = await users[attempt.user]!(
        'POST',
        `/api/referrals/${attempt.referralId}/send-email`,
        sendBody(attempt),
      );
      if (attempt.sent.status === 200 || attempt.sent.status === 409 || Date.now() > deadline) break;
      await sleep(500);
    }
  }
  const summary = {
    attempts: attempts.length,
    created: created().length,
    smtpRefused: catcher.refused(),
    down: downAnswers.map(({ service, fault, answer }) => `${service} ${fault}: ${answer.status} in ${answer.ms} ms`),
  };
  console.info(`fault suite: ${JSON.stringify(summary, null, 1)}`);
}, 300_000);

afterAll(async () => {
  await Promise.all([...running.values()].map((p) => p.kill('SIGKILL')));
  await nats?.stop();
  await catcher?.close();
  await s3?.close();
  await sql?.end();
  await db?.drop();
});

const created = () => attempts.filter((attempt) => attempt.referralId !== undefined);
const introsFor = (marker: string) => catcher.messages.filter((m) => m.subject === `Intro ${marker}`);

describe('faults: kills, stops, a NATS restart and SMTP 451 during a stream of referrals and sends', () => {
  it('ran a stream through every fault', () => {
    expect(catcher.refused()).toBeGreaterThan(0);
    expect(created().length).toBeGreaterThan(20);
    // Every request got an answer (no hang, no empty reply), with a JSON { message, code } body when an error.
    const unanswered = attempts.flatMap((a) => [a.created, a.sent]).filter((a) => a?.status === 0);
    expect(unanswered.map((a) => a!.raw)).toEqual([]);
    for (const answer of attempts.flatMap((a) => [a.created, a.sent]).filter((a) => a && a.status >= 400)) {
      expect(answer!.body, answer!.raw).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    }
  });

  it('refused no genuine event: every process signed and checked across kills and the NATS restart', () => {
    for (const { name, output } of outputs) expect(output(), name).not.toMatch(/refused an event/);
  });

  it('the original attack: a forged intro email event published straight on NATS is dead-lettered, not sent', async () => {
    const envelope = (label: string) => ({
      id: randomUUID(),
      name: 'referral.intro_email_requested',
      occurredAt: new Date().toISOString(),
      payload: {
        referralId: 1,
        fromName: 'PayPal Security',
        replyTo: 'attacker@evil.test',
        to: [`victim-${label}@bank.test`],
        cc: [],
        bcc: [],
        subject: `Forged ${label}`,
        body: 'Please confirm your password.',
      },
    });
    const unsigned = envelope('unsigned');
    const forged = envelope('forged');
    const nc = await connect({ servers: nats.url });
    try {
      const js = jetstream(nc);
      await js.publish('events.referral.intro_email_requested', JSON.stringify(unsigned));
      await js.publish(
        'events.referral.intro_email_requested',
        eventCodec('a-guessed-secret-0123456789abcdef-0123456789', 'referrals').encode(forged as never),
      );
      const jsm = await jetstreamManager(nc);
      const dead = async () => {
        if (!(await jsm.streams.info('EVENTS_DEAD').catch(() => null))) return [];
        const { name } = await jsm.consumers.add('EVENTS_DEAD', {
          filter_subject: 'dead.events.mail-referral-intro',
          ack_policy: AckPolicy.None,
          deliver_policy: DeliverPolicy.All,
        });
        const consumer = await js.consumers.get('EVENTS_DEAD', name);
        const pending = (await consumer.info()).num_pending;
        const letters: string[] = [];
        if (!pending) return letters;
        for await (const message of await consumer.fetch({ max_messages: pending, expires: 2000 })) {
          letters.push(`${message.headers?.get('Refused-Reason')}:${(message.json() as { id: string }).id}`);
          if (letters.length === pending) break;
        }
        await jsm.consumers.delete('EVENTS_DEAD', name);
        return letters;
      };
      const deadline = Date.now() + 20_000;
      while ((await dead()).length < 2 && Date.now() < deadline) await sleep(250);
      await sleep(1000);
      expect((await dead()).sort()).toEqual([`forged:${forged.id}`, `unsigned:${unsigned.id}`].sort());
      expect(catcher.messages.filter((m) => m.subject.startsWith('Forged'))).toEqual([]);
      const mail = outputs
        .filter((o) => o.name === 'mail')
        .at(-1)!
        .output();
      expect(mail).toContain(unsigned.id);
      expect(mail).not.toContain('Please confirm your password');
    } finally {
      await nc.close();
    }
  });

  it('stores every referral exactly once: none lost among those answered 201, none doubled', async () => {
    const { rows } = await sql.query<{ id: number; referral_reason: string }>(
      'SELECT id, referral_reason FROM referrals.referrals',
    );
    const byMarker = new Map<string, number[]>();
    for (const row of rows) {
      const marker = /\((r\d+x[a-z0-9]+)\)/.exec(row.referral_reason)?.[1];
      if (marker) byMarker.set(marker, [...(byMarker.get(marker) ?? []), row.id]);
    }
    for (const attempt of attempts) {
      const stored = byMarker.get(attempt.marker) ?? [];
      if (attempt.referralId !== undefined) expect(stored, attempt.marker).toEqual([attempt.referralId]);
      else expect(stored.length, attempt.marker).toBeLessThanOrEqual(1);
    }
  });

  it('sends every intro email exactly once', async () => {
    const sent = created();
    for (const attempt of sent) expect([200, 409], attempt.sent?.raw).toContain(attempt.sent?.status);
    const deadline = Date.now() + 90_000;
    while (sent.some((attempt) => introsFor(attempt.marker).length === 0) && Date.now() < deadline) await sleep(250);
    await sleep(2000); // a double would come now
    const counts = Object.fromEntries(sent.map((attempt) => [attempt.marker, introsFor(attempt.marker).length]));
    expect(
      Object.values(counts).filter((count) => count !== 1),
      JSON.stringify(counts),
    ).toEqual([]);
  }, 100_000);

  it('answers a JSON 503/504 at once while a service is killed', () => {
    const killed = downAnswers.filter((d) => d.fault === 'killed');
    expect(killed.map((d) => d.service).sort()).toEqual(Object.keys(probes).sort());
    for (const { service, answer } of killed) {
      expect([503, 504], `${service}: ${answer.status} ${answer.raw}`).toContain(answer.status);
      expect(answer.body, service).toMatchObject({ message: expect.any(String), code: expect.any(String) });
      expect(answer.ms, service).toBeLessThan(UPSTREAM_TIMEOUT_MS + ANSWER_MARGIN_MS);
    }
  });

  it('answers a JSON 504 within the upstream timeout while a service is stopped', () => {
    const stopped = downAnswers.filter((d) => d.fault === 'stopped');
    expect(stopped.map((d) => d.service).sort()).toEqual(Object.keys(probes).sort());
    for (const { service, answer } of stopped) {
      expect([503, 504], `${service}: ${answer.status} ${answer.raw}`).toContain(answer.status);
      expect(answer.body, service).toMatchObject({ message: expect.any(String), code: expect.any(String) });
      expect(answer.ms, service).toBeLessThan(UPSTREAM_TIMEOUT_MS + ANSWER_MARGIN_MS);
    }
  });
});
