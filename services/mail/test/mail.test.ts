import type { EventEnvelope, EventName } from '@app/contracts';
import { createLogger, inProcessBus, outboxEvent, sealer, type EventBus } from '@app/kit';
import {
  eventually,
  freshDatabase,
  startMailCatcher,
  TEST_SECRET,
  type CaughtMessage,
  type MailCatcher,
} from '@app/testing';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readMailConfig } from '../src/config.ts';
import { createMailService, type MailService } from '../src/service.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let catcher: MailCatcher;
let sql: pg.Pool;
const tokens = sealer(TEST_SECRET, 'email-verification');

/** What runs now: stopped after each test, so a test's deliveries go to its own instances only. */
const running: Array<{ service: MailService; bus: EventBus }> = [];
/** Every bus schema used, for `settled`. */
const streams = new Set<string>();

/** A bus on the test database in its own schema: a stream of its own, as quick to retry as the test bus. */
function bus(schema: string, retryMs = 50): Promise<EventBus> {
  streams.add(schema);
  return inProcessBus({
    databaseUrl: db.url,
    schema,
    logger: createLogger('bus', 'silent'),
    retryDelay: (attempt) => Math.min(1000, retryMs * attempt),
  });
}

const baseEnv = () => ({
  DATABASE_URL: db.url,
  INTERNAL_SECRET: TEST_SECRET,
  SMTP_URL: catcher.url,
  PUBLIC_URL: 'https://app.example.com',
  MAIL_FROM: 'Referral Hub <hello@example.com>',
});

async function startInstance(
  eventBus: EventBus,
  env: Record<string, string> = {},
  catcherForInbox?: MailCatcher,
): Promise<MailService> {
  const config = readMailConfig({ ...baseEnv(), ...env });
  const service = await createMailService({ config, bus: eventBus, logger: false, catcher: catcherForInbox });
  running.push({ service, bus: eventBus });
  return service;
}

/**
 * The mail service on `count` streams (one instance each, one configuration). Publishing one event on
 * two of them delivers it twice to the same mail database, as a redelivery would: a bus itself drops a
 * second publish of one event id.
 */
async function startMail(env: Record<string, string> = {}, count = 2): Promise<EventBus[]> {
  const buses: EventBus[] = [];
  for (let i = 0; i < count; i++) {
    const eventBus = await bus(i === 0 ? 'bus' : `bus_${i}`);
    await startInstance(eventBus, env);
    buses.push(eventBus);
  }
  return buses;
}

/** Every delivery to the mail subscribers, on every stream, acknowledged: handled, retries included. */
const settled = () =>
  eventually(
    async () => {
      for (const schema of streams) {
        const { rows } = await sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${schema}.deliveries WHERE subscriber LIKE 'mail-%'`,
        );
        if (rows[0]!.n > 0) return false;
      }
      return true;
    },
    10_000,
    'every delivery handled',
  );

const inbox = (to: string) => catcher.messages.filter((m) => m.to.includes(to));
const arrived = (to: string) => catcher.waitFor((m) => m.to.includes(to));

/**
 * Publishes the event (twice: the bus keeps one), waits for its email, delivers it again through a second
 * stream and, once every delivery is handled, answers the emails that match.
 */
async function deliverTwice(
  [first, second]: EventBus[],
  event: EventEnvelope,
  match: (message: CaughtMessage) => boolean,
): Promise<CaughtMessage[]> {
  await first!.publish(event);
  await first!.publish(event);
  await catcher.waitFor(match);
  await second!.publish(event);
  await settled();
  return catcher.messages.filter(match);
}

function envelope<N extends EventName>(row: ReturnType<typeof outboxEvent<N>>): EventEnvelope<N> {
  return { id: row.id, name: row.name, payload: row.payload, occurredAt: row.occurredAt.toISOString() };
}

function verificationEvent(email: string, token = 'raw-token-value'): EventEnvelope<'email_verification.requested'> {
  return envelope(
    outboxEvent('email_verification.requested', {
      userId: '11111111-2222-3333-4444-555555555555',
      email,
      firstName: 'Grace <b>',
      sealedToken: tokens.seal(token),
      expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
    }),
  );
}

beforeAll(async () => {
  db = await freshDatabase();
  catcher = await startMailCatcher();
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});
afterEach(async () => {
  // Stop consuming first, then the service, as a process does.
  for (const { service, bus: eventBus } of running.splice(0)) {
    await eventBus.close();
    await service.close();
  }
});
afterAll(async () => {
  await catcher.close();
  await sql.end();
  await db.drop();
});

describe('verification email', () => {
  it('sends text and HTML with a link built from PUBLIC_URL', async () => {
    const [eventBus] = await startMail({}, 1);
    await eventBus!.publish(verificationEvent('grace@example.com', 'tok_ABC-123'));
    const message = await arrived('grace@example.com');
    expect(message.subject).toBe('Verify your email for Referral Hub');
    expect(message.from).toContain('hello@example.com');
    const link = 'https://app.example.com/verify-email?token=tok_ABC-123&userId=11111111-2222-3333-4444-555555555555';
    expect(message.text).toContain(link);
    expect(message.html).toContain(link.replace('&', '&amp;'));
    // User-provided text is escaped in the HTML part.
    expect(message.html).toContain('Grace &lt;b&gt;');
    expect(message.html).not.toContain('Grace <b>');
  });

  it('sends once when the same event is delivered twice, or three times at the same time', async () => {
    const buses = await startMail({}, 3);
    expect(
      await deliverTwice(buses, verificationEvent('twice@example.com'), (m) => m.to.includes('twice@example.com')),
    ).toHaveLength(1);

    // Three deliveries at once: one claims and sends; the others find it mid-send, fail, and are retried
    // later, when they find it sent.
    const concurrent = verificationEvent('concurrent@example.com');
    await Promise.all(buses.map((eventBus) => eventBus.publish(concurrent)));
    await arrived('concurrent@example.com');
    await settled();
    expect(inbox('concurrent@example.com')).toHaveLength(1);
    const { rows } = await sql.query(
      "SELECT status, attempts FROM mail.sent_emails WHERE recipient = 'concurrent@example.com'",
    );
    expect(rows).toEqual([{ status: 'sent', attempts: 1 }]);
  });

  it('records a failed send and sends it when the event comes again', async () => {
    // SMTP down; the retry is due a second later, by when this instance is gone.
    const downBus = await bus('bus', 1000);
    await startInstance(downBus, { SMTP_URL: 'smtp://127.0.0.1:1' });
    const event = verificationEvent('retry@example.com');
    await downBus.publish(event);
    const failed = await eventually(
      async () =>
        (await sql.query('SELECT status, last_error FROM mail.sent_emails WHERE event_id = $1', [event.id])).rows.find(
          (row: { status: string }) => row.status === 'failed',
        ),
      10_000,
      'the failed send recorded',
    );
    expect(failed.last_error).toMatch(/ECONNREFUSED/);
    const down = running.splice(0);
    for (const instance of down) {
      await instance.bus.close();
      await instance.service.close();
    }

    // Restarted with SMTP up: the bus delivers the event again.
    await startMail({}, 1);
    await arrived('retry@example.com');
    await settled();
    expect(inbox('retry@example.com')).toHaveLength(1);
    const after = await sql.query('SELECT status, attempts FROM mail.sent_emails WHERE event_id = $1', [event.id]);
    expect(after.rows[0]).toEqual({ status: 'sent', attempts: 2 });
  });

  it('re-sends after a process died mid-send (stale claim), with the same Message-ID', async () => {
    const [eventBus] = await startMail({}, 1);
    const event = verificationEvent('stale@example.com');
    await sql.query(
      "INSERT INTO mail.sent_emails (id, event_id, kind, recipient, subject, status, claimed_at) VALUES (gen_random_uuid(), $1, 'email-verification', 'stale@example.com', 's', 'sending', now() - interval '5 minutes')",
      [event.id],
    );
    await eventBus!.publish(event);
    const message = await arrived('stale@example.com');
    expect(message.messageId).toBe(`<${event.id}@example.com>`);
  });
});

describe('referral intro email', () => {
  const introEvent = () =>
    envelope(
      outboxEvent('referral.intro_email_requested', {
        referralId: 7,
        fromName: 'Slack via Referral Hub',
        replyTo: 'referrer@agency.test',
        to: ['client@acme.test'],
        cc: ['referrer@agency.test'],
        bcc: ['audit@agency.test'],
        subject: 'Intro: Acme <> Slack',
        body: 'Hi Jo,\n\nMeet Slack.\nThey can help.\n\n<script>x</script>',
      }),
    );

  it("goes out once, from the product's name at our address, replying to the referrer, to every recipient", async () => {
    const buses = await startMail();
    const messages = await deliverTwice(buses, introEvent(), (m) => m.subject === 'Intro: Acme <> Slack');
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.from).toBe('"Slack via Referral Hub" <hello@example.com>');
    expect(message!.to.sort()).toEqual(['audit@agency.test', 'client@acme.test', 'referrer@agency.test']);
    expect(message!.replyTo).toBe('referrer@agency.test');
    expect(message!.cc).toBe('referrer@agency.test');
    expect(message!.text.trim()).toBe('Hi Jo,\n\nMeet Slack.\nThey can help.\n\n<script>x</script>');
    expect(message!.html).toContain('<p>Meet Slack.<br>They can help.</p>');
    expect(message!.html).toContain('&lt;script&gt;');
  });
});

describe('demo request email', () => {
  it('goes once to SALES_EMAIL with every detail, text and escaped HTML, replying to the requester', async () => {
    const buses = await startMail({ SALES_EMAIL: 'deals@example.com' });
    const event = envelope(
      outboxEvent('demo_request.submitted', {
        requestId: '99999999-2222-3333-4444-555555555555',
        firstName: 'Grace',
        lastName: 'Hopper <script>',
        email: 'grace@navy.example',
        phone: '+1 555 0100',
        website: 'navy.example',
        referralSource: 'Industry Event',
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.to.includes('deals@example.com'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.subject).toBe('Demo request: Grace Hopper <script> (navy.example)');
    expect(message!.replyTo).toBe('grace@navy.example');
    expect(message!.from).toContain('hello@example.com');
    for (const detail of [
      'Grace Hopper <script>',
      'grace@navy.example',
      '+1 555 0100',
      'navy.example',
      'Industry Event',
    ])
      expect(message!.text).toContain(detail);
    expect(message!.html).toContain('Grace Hopper &lt;script&gt;');
    expect(message!.html).not.toContain('<script>');
    const { rows } = await sql.query('SELECT kind, status FROM mail.sent_emails WHERE event_id = $1', [event.id]);
    expect(rows).toEqual([{ kind: 'demo-request', status: 'sent' }]);
  });

  it('defaults SALES_EMAIL to sales@referralhub.local', () => {
    expect(
      readMailConfig({ DATABASE_URL: db.url, INTERNAL_SECRET: TEST_SECRET, SMTP_URL: catcher.url }).SALES_EMAIL,
    ).toBe('sales@referralhub.local');
  });
});

describe('account emails', () => {
  it('sends the email-change link to the new address, built from PUBLIC_URL, once', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('email_change.requested', {
        userId: '11111111-2222-3333-4444-555555555555',
        newEmail: 'new-address@example.com',
        firstName: 'Ada <i>',
        sealedToken: tokens.seal('change_TOKEN'),
        expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.to.includes('new-address@example.com'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.subject).toBe('Confirm your new email address');
    const link = 'https://app.example.com/verify-email?token=change_TOKEN&userId=11111111-2222-3333-4444-555555555555';
    expect(message!.text).toContain(link);
    expect(message!.html).toContain(link.replace('&', '&amp;'));
    expect(message!.html).toContain('Ada &lt;i&gt;');
    expect(message!.text).not.toContain('raw-token');
  });

  it('sends a password-change notice to the account address, once', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('password.changed', {
        userId: '11111111-2222-3333-4444-555555555555',
        email: 'changed@example.com',
        firstName: 'Linus',
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.to.includes('changed@example.com'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.subject).toBe('Your Referral Hub password was changed');
    expect(message!.text).toContain('Hi Linus');
    expect(message!.text).toMatch(/If it was not you, contact support at support@referralhub\.local/);
    expect(message!.text).toContain('https://app.example.com/login');
  });
});

describe('development inbox', () => {
  it('shows what the built-in catcher caught, newest first, as a page and as JSON', async () => {
    const eventBus = await bus('bus');
    const service = await startInstance(eventBus, {}, catcher);
    await eventBus.publish(verificationEvent('inbox-first@example.com', 'tok_first'));
    await arrived('inbox-first@example.com');
    await eventBus.publish(verificationEvent('inbox-second@example.com', 'tok_second'));
    await arrived('inbox-second@example.com');

    const json = await service.app.inject({ method: 'GET', url: '/dev/inbox/messages' });
    expect(json.statusCode).toBe(200);
    const caught = json.json<Array<{ id: number; to: string[] }>>();
    expect(caught.map((m) => m.id)).toEqual([...catcher.messages].reverse().map((m) => m.id));
    const mine = caught.filter((m) => m.to[0]?.startsWith('inbox-')).map((m) => m.to[0]);
    expect(mine).toEqual(['inbox-second@example.com', 'inbox-first@example.com']);

    const page = await service.app.inject({ method: 'GET', url: '/dev/inbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<h1 style="font-size:22px">Development inbox</h1>');
    expect(page.body.indexOf('inbox-second@example.com')).toBeLessThan(page.body.indexOf('inbox-first@example.com'));
    // The email's text, escaped, with its link clickable.
    expect(page.body).toContain('Hi Grace &lt;b&gt;,');
    expect(page.body).not.toContain('Grace <b>');
    const link = 'https://app.example.com/verify-email?token=tok_first&amp;userId=11111111-2222-3333-4444-555555555555';
    expect(page.body).toContain(`<a href="${link}">${link}</a>`);
  });

  it('is not there when the service sends through a real SMTP server', async () => {
    await startMail({}, 1);
    const { service } = running[0]!;
    for (const url of ['/dev/inbox', '/dev/inbox/messages']) {
      const response = await service.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    }
  });
});
