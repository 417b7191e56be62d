/**
 * The first slice on the real architecture: every service and the gateway as separate processes,
 * events over NATS JetStream, email over SMTP to a server this test runs, all driven over HTTP.
 */
import {
  deleteStream,
  freshDatabase,
  natsUrl,
  startMailCatcher,
  TEST_SECRET,
  uniqueId,
  type MailCatcher,
} from '@app/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedS3, type EmbeddedS3 } from '@app/programs-service';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, gatewayBrowser, startProcess, type RunningProcess } from './processes.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let catcher: MailCatcher;
let s3: EmbeddedS3;
let gatewayUrl: string;
const namespace = uniqueId('journey').replace(/-/g, '_');
const running = new Map<string, RunningProcess>();
/** Every process started, restarted ones included: their output is searched for secrets at the end. */
const started: RunningProcess[] = [];
const env: Record<string, string> = {};
const ports: Record<string, number> = {};

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

async function start(name: Name) {
  const process = await startProcess(name, services[name], env, ports[name]!);
  running.set(name, process);
  started.push(process);
}

/** Every session cookie the journey's browsers were given: none may appear in a log. */
const sessionTokens: string[] = [];

/** A browser; every session token it is given is kept, to look for in the logs. */
const browser = () => gatewayBrowser(gatewayUrl, (token) => sessionTokens.push(token));

const linkIn = (text: string) => new URL(/https?:\/\/\S+verify-email\S+/.exec(text)![0]);

beforeAll(async () => {
  db = await freshDatabase();
  catcher = await startMailCatcher();
  s3 = await startEmbeddedS3(mkdtempSync(join(tmpdir(), 'journey-s3-')));
  for (const name of Object.keys(services)) ports[name] = await freePort();
  gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
  Object.assign(env, {
    DATABASE_URL: db.url,
    NATS_URL: await natsUrl(),
    NATS_NAMESPACE: namespace,
    SMTP_URL: catcher.url,
    MAIL_FROM: 'Referral Hub <hello@referrals.test>',
    PUBLIC_URL: gatewayUrl,
    INTERNAL_SECRET: TEST_SECRET,
    // Every request is logged (LOG_LEVEL=info): the last test searches these logs for secrets.
    LOG_LEVEL: 'info',
    ADMIN_EMAILS: 'admin@journey.test',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AUTH_PORT: String(ports.auth),
    MAIL_PORT: String(ports.mail),
    REFERRALS_PORT: String(ports.referrals),
    PROGRAMS_PORT: String(ports.programs),
    PROFILES_PORT: String(ports.profiles),
    AI_PORT: String(ports.ai),
    PORT: String(ports.gateway),
    AUTH_URL: `http://127.0.0.1:${ports.auth}`,
    MAIL_URL: `http://127.0.0.1:${ports.mail}`,
    REFERRALS_URL: `http://127.0.0.1:${ports.referrals}`,
    PROGRAMS_URL: `http://127.0.0.1:${ports.programs}`,
    PROFILES_URL: `http://127.0.0.1:${ports.profiles}`,
    AI_URL: `http://127.0.0.1:${ports.ai}`,
  });
  // Auth first: it applies its migrations; the others start side by side.
  await start('auth');
  await Promise.all((['mail', 'referrals', 'programs', 'profiles', 'ai', 'gateway'] as const).map(start));
}, 180_000);

afterAll(async () => {
  await Promise.all([...running.values()].map((p) => p.kill('SIGTERM')));
  await catcher?.close();
  await s3?.close();
  await deleteStream(namespace.toUpperCase());
  await db?.drop();
});

describe('sign up, verify, sign in, sign out across processes', () => {
  it('walks the whole journey over HTTP', async () => {
    const ada = browser();
    const email = 'ada@journey.test';
    const registered = await ada('POST', '/api/register', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Engines Ltd',
      email,
      password: 's3cret pass',
    });
    expect(registered).toEqual({ status: 201, body: { message: expect.any(String), emailVerificationSent: true } });
    // No session at sign-up (the answer is the same for a taken address): the emailed link signs in.
    expect((await ada('GET', '/api/user')).status).toBe(401);

    const message = await catcher.waitFor((m) => m.to.includes(email), 15_000);
    expect(message.subject).toContain('Verify your email');
    expect(message.html).toContain('verify-email?token=');
    const link = linkIn(message.text);
    expect(link.origin).toBe(gatewayUrl); // built from PUBLIC_URL

    const visitor = browser();
    expect((await visitor('POST', '/api/login', { email, password: 's3cret pass' })).body.message).toContain(
      'Email not verified',
    );
    const verified = await visitor('GET', `/api/verify-email${link.search}`);
    expect(verified.status).toBe(200);
    // The link signed this browser in.
    expect((await visitor('GET', '/api/user')).body).toMatchObject({ email, emailVerified: true });
    expect((await visitor('GET', `/api/verify-email${link.search}`)).status).toBe(400);

    const login = await visitor('POST', '/api/login', { email, password: 's3cret pass' });
    expect(login).toEqual({ status: 200, body: { message: 'Logged in successfully', emailVerificationSent: false } });
    expect((await visitor('GET', '/api/user')).body).toMatchObject({ email, emailVerified: true, firstName: 'Ada' });
    expect((await visitor('POST', '/api/logout')).status).toBe(200);
    expect((await visitor('GET', '/api/user')).status).toBe(401);

    // Each verification email went out once.
    await new Promise((r) => setTimeout(r, 500));
    expect(catcher.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('loses no email while the mail service is down, and sends it once when it is back', async () => {
    await running.get('mail')!.kill('SIGKILL');
    const email = 'offline@journey.test';
    const registered = await browser()('POST', '/api/register', {
      firstName: 'O',
      lastName: 'F',
      companyName: 'C',
      email,
      password: 'pw',
    });
    expect(registered.status).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    expect(catcher.messages.filter((m) => m.to.includes(email))).toHaveLength(0);

    await start('mail');
    await catcher.waitFor((m) => m.to.includes(email), 15_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(catcher.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('loses no email when the auth service is killed right after a sign-up', async () => {
    const emails = ['k1@journey.test', 'k2@journey.test', 'k3@journey.test'];
    const results = await Promise.all(
      emails.map((email) =>
        browser()('POST', '/api/register', { firstName: 'K', lastName: 'L', companyName: 'C', email, password: 'pw' }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    await running.get('auth')!.kill('SIGKILL'); // the outbox relay may not have run yet
    await start('auth');
    for (const email of emails) await catcher.waitFor((m) => m.to.includes(email), 15_000);
    await new Promise((r) => setTimeout(r, 1000));
    for (const email of emails) expect(catcher.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('refuses cross-site writes and serves the API documentation', async () => {
    const response = await fetch(`${gatewayUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: '{}',
    });
    expect(response.status).toBe(403);
    const docs = (await fetch(`${gatewayUrl}/api/openapi.json`).then((r) => r.json())) as { paths: object };
    expect(Object.keys(docs.paths)).toContain('/api/verify-email');
    const ready = (await fetch(`${gatewayUrl}/readyz`).then((r) => r.json())) as { status: string };
    expect(ready.status).toBe('ready');
  });
});

describe('an email change', () => {
  it('reaches every copy of the user: auth, referrals and profiles read the new address back', async () => {
    const grace = browser();
    const [oldEmail, newEmail] = ['grace@journey.test', 'grace.hopper@journey.test'];
    await grace('POST', '/api/register', {
      firstName: 'Grace',
      lastName: 'Hopper',
      companyName: 'Navy',
      email: oldEmail,
      password: 'c0bol rules',
    });
    const verification = await catcher.waitFor((m) => m.to.includes(oldEmail), 15_000);
    expect((await grace('GET', `/api/verify-email${linkIn(verification.text).search}`)).status).toBe(200);
    const { id: userId } = (await grace('GET', '/api/user')).body as { id: string };

    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    const copies = async () => {
      const [referrer, profile] = await Promise.all([
        sql.query<{ email: string }>('SELECT email FROM referrals.referrers WHERE user_id = $1', [userId]),
        sql.query<{ email: string }>('SELECT email FROM profiles.users WHERE user_id = $1', [userId]),
      ]);
      return { referrals: referrer.rows[0]?.email, profiles: profile.rows[0]?.email };
    };
    try {
      await expect.poll(copies, { timeout: 15_000 }).toEqual({ referrals: oldEmail, profiles: oldEmail });

      expect((await grace('POST', '/api/account/email', { newEmail, password: 'c0bol rules' })).status).toBe(200);
      const change = await catcher.waitFor((m) => m.to.includes(newEmail), 15_000);
      expect((await grace('GET', `/api/verify-email${linkIn(change.text).search}`)).status).toBe(200);

      expect((await grace('GET', '/api/user')).body).toMatchObject({ email: newEmail });
      await expect.poll(copies, { timeout: 15_000 }).toEqual({ referrals: newEmail, profiles: newEmail });
      // The old address was told of the request and of the change.
      await expect
        .poll(() => catcher.messages.filter((m) => m.to.includes(oldEmail)).length, { timeout: 15_000 })
        .toBe(3);
    } finally {
      await sql.end();
    }
  });
});

describe('logs', () => {
  it('hold no token, password, session or secret of a whole journey', async () => {
    const bea = browser();
    const email = 'bea@journey.test';
    const password = 'first pass phrase 1';
    const newPassword = 'second pass phrase 2';
    expect(
      (await bea('POST', '/api/register', { firstName: 'Bea', lastName: 'B', companyName: 'C', email, password }))
        .status,
    ).toBe(201);
    const link = linkIn((await catcher.waitFor((m) => m.to.includes(email), 15_000)).text);
    const token = link.searchParams.get('token')!;
    expect(token.length).toBeGreaterThan(20);
    expect((await bea('GET', `/api/verify-email${link.search}`)).status).toBe(200);
    expect((await bea('POST', '/api/login', { email, password })).status).toBe(200);
    expect(
      (
        await bea('POST', '/api/account/password', {
          currentPassword: password,
          newPassword,
          confirmPassword: newPassword,
        })
      ).status,
    ).toBe(200);
    expect((await bea('POST', '/api/login', { email, password: newPassword })).status).toBe(200);

    const referral = await bea('POST', '/api/referrals', {
      referredFirstName: 'Cleo',
      referredLastName: 'Client',
      referredEmail: 'cleo@client.journey.test',
      referralReason: 'They are choosing a tool like this one this quarter and asked me for an introduction.',
      isReferralAware: true,
      canUseReferrerName: true,
      product: 'HubSpot',
      company: 'HubSpot',
      website: 'hubspot.com',
      description: 'CRM',
      client: { name: 'Client Org', website: 'client.journey.test', country: 'Germany' },
      notes: '',
    });
    expect(referral.status).toBe(201);
    const id = referral.body.id as number;
    let draft = await bea('GET', `/api/referrals/${id}/email-draft`);
    for (let i = 0; i < 100 && draft.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      draft = await bea('GET', `/api/referrals/${id}/email-draft`);
    }
    expect(draft.status).toBe(200);
    const sent = await bea('POST', `/api/referrals/${id}/send-email`, {
      subject: 'Introduction',
      body: 'Hello Cleo, meet HubSpot.',
      recipients: { to: ['cleo@client.journey.test'] },
    });
    expect(sent.status).toBe(200);
    await catcher.waitFor((m) => m.to.includes('cleo@client.journey.test'), 15_000);
    await new Promise((r) => setTimeout(r, 500)); // the last log lines

    const logs = started.map((p) => p.output()).join('\n');
    expect(logs).toContain('"url":"/api/verify-email?[redacted]"'); // the requests were logged, redacted
    const secrets = {
      password,
      newPassword,
      token,
      link: link.href,
      'link query': link.search,
      INTERNAL_SECRET: TEST_SECRET,
      ...Object.fromEntries(sessionTokens.map((t, i) => [`session ${i}`, t])),
    };
    expect(sessionTokens.length).toBeGreaterThan(0);
    for (const [name, secret] of Object.entries(secrets)) {
      const at = logs.indexOf(secret);
      expect(at, `${name} appears in the logs: ${logs.slice(Math.max(0, at - 300), at + 50)}`).toBe(-1);
      expect(logs.includes(encodeURIComponent(secret)), `${name} (encoded) appears in the logs`).toBe(false);
    }
  });
});
