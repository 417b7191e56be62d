import type { EventEnvelope, EventName } from '@app/contracts';
import { randomUUID } from 'node:crypto';
import { createLogger, createPool, inProcessBus, outboxEvent, sealer, type EventBus } from '@app/kit';
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
import { adminMailWithheld } from '../src/catcher.ts';
import { readMailConfig } from '../src/config.ts';
import { sentEmails } from '../src/repository.ts';
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
    secret: TEST_SECRET,
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
        fromName: 'Ada Lovelace via Referral Hub',
        replyTo: 'referrer@agency.test',
        to: ['client@acme.test'],
        cc: ['referrer@agency.test'],
        bcc: ['audit@agency.test'],
        subject: 'Intro: Acme <> Slack',
        body: 'Hi Jo,\n\nMeet Slack.\nThey can help.\n\n<script>x</script>',
      }),
    );

  it("goes out once, from the referrer's name at our address, replying to the referrer, to every recipient", async () => {
    const buses = await startMail();
    const messages = await deliverTwice(buses, introEvent(), (m) => m.subject === 'Intro: Acme <> Slack');
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.from).toBe('"Ada Lovelace via Referral Hub" <hello@example.com>');
    expect(message!.to.sort()).toEqual(['audit@agency.test', 'client@acme.test', 'referrer@agency.test']);
    expect(message!.replyTo).toBe('referrer@agency.test');
    expect(message!.cc).toBe('referrer@agency.test');
    expect(message!.text.trim()).toBe('Hi Jo,\n\nMeet Slack.\nThey can help.\n\n<script>x</script>');
    expect(message!.html).toContain('<p>Meet Slack.<br>They can help.</p>');
    expect(message!.html).toContain('&lt;script&gt;');
  });
});

describe('emails claimed and marked together', () => {
  it('each claim of one statement is judged alone: new, duplicate, sent, failed and stale, and a bad one alone', async () => {
    await startMail({}, 1); // the schema
    const pool = createPool(db.url, 'mail', 2);
    let statements = 0;
    const counted = new Proxy(pool, {
      get: (target, property) =>
        property === 'query'
          ? (...args: unknown[]) => {
              statements++;
              return (target.query as (...a: unknown[]) => unknown).apply(target, args);
            }
          : Reflect.get(target, property),
    });
    try {
      const sent = sentEmails(counted);
      const claim = (eventId: string) => ({ eventId, kind: 'referral-intro', recipient: 'a@b.test', subject: 's' });
      const [doneId, failedId, staleId, busyId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await sql.query(
        `INSERT INTO mail.sent_emails (id, event_id, kind, recipient, subject, status, claimed_at) VALUES
           (gen_random_uuid(), $1, 'k', 'r', 's', 'sent', now()),
           (gen_random_uuid(), $2, 'k', 'r', 's', 'failed', now()),
           (gen_random_uuid(), $3, 'k', 'r', 's', 'sending', now() - interval '5 minutes'),
           (gen_random_uuid(), $4, 'k', 'r', 's', 'sending', now())`,
        [doneId, failedId, staleId, busyId],
      );
      const fresh = [randomUUID(), randomUUID(), randomUUID()];
      const answers = await Promise.all([
        sent.claim(claim(randomUUID())), // goes alone; the rest wait and go together
        ...fresh.map((id) => sent.claim(claim(id))),
        sent.claim(claim(fresh[0]!)), // the same event twice at once: the second finds it being sent
        sent.claim(claim(doneId)),
        sent.claim(claim(failedId)),
        sent.claim(claim(staleId)),
        sent.claim(claim(busyId)),
      ]);
      const [, a, b, c, again, done, failed, stale, busy] = answers;
      for (const id of [a, b, c, failed, stale]) expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set([a, b, c, failed, stale]).size).toBe(5);
      expect([again, done, busy]).toEqual([null, null, null]);
      // One statement alone, one for the seven that waited together, one for the duplicate held back.
      expect(statements).toBe(3);
      // A claim the statement refuses fails its own caller only; the others of its batch are claimed alone.
      const good = randomUUID();
      const [, bad, goodId] = await Promise.all([
        sent.claim(claim(randomUUID())),
        sent.claim(claim('not-a-uuid')).catch((error: Error) => error.message),
        sent.claim(claim(good)),
      ]);
      expect(bad).toMatch(/invalid input syntax for type uuid/);
      expect(goodId).toMatch(/^[0-9a-f-]{36}$/);
      const { rows } = await sql.query<{ event_id: string; attempts: number; status: string }>(
        'SELECT event_id, attempts, status FROM mail.sent_emails WHERE event_id = ANY($1)',
        [[failedId, staleId, ...fresh]],
      );
      expect(rows.map((row) => [row.event_id, row.status, row.attempts]).sort()).toEqual(
        [[failedId, 'sending', 2], [staleId, 'sending', 2], ...fresh.map((id) => [id, 'sending', 1])].sort(),
      );
      // Marked at once: each row sent.
      await Promise.all([a, b, c, failed, stale].map((id) => sent.markSent(id as string)));
      const marked = await sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM mail.sent_emails WHERE status = 'sent' AND sent_at IS NOT NULL AND id = ANY($1)",
        [[a, b, c, failed, stale]],
      );
      expect(marked.rows[0]!.n).toBe(5);
    } finally {
      await pool.end();
    }
  });

  it('many intro emails asked for at once, some twice: each goes out once and is recorded sent', async () => {
    const buses = await startMail({}, 2);
    const events = Array.from({ length: 40 }, (_, i) =>
      envelope(
        outboxEvent('referral.intro_email_requested', {
          referralId: 1000 + i,
          fromName: 'Ada via Referral Hub',
          replyTo: 'referrer@agency.test',
          to: [`client-${i}@burst.test`],
          cc: [],
          bcc: [],
          subject: `Burst ${i}`,
          body: 'Hi',
        }),
      ),
    );
    await Promise.all(events.map((event) => buses[0]!.publish(event)));
    await Promise.all(events.slice(0, 10).map((event) => buses[1]!.publish(event)));
    await eventually(() => events.every((_, i) => inbox(`client-${i}@burst.test`).length > 0), 20_000);
    await settled();
    for (let i = 0; i < 40; i++) expect(inbox(`client-${i}@burst.test`)).toHaveLength(1);
    const { rows } = await sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM mail.sent_emails WHERE status = 'sent' AND event_id = ANY($1)",
      [events.map((event) => event.id)],
    );
    expect(rows[0]!.n).toBe(40);
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

  it('tells the owner of an address someone tried to register again, once, with the way to log in', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('user.sign_up_attempted', {
        userId: '11111111-2222-3333-4444-555555555555',
        email: 'owner@example.com',
        firstName: 'Ada <i>',
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.to.includes('owner@example.com'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.subject).toBe('Someone tried to create a Referral Hub account with your email');
    expect(message!.text).toContain('You already have an account, so nothing was created and nothing changed.');
    expect(message!.text).toContain('If it was you, log in instead: https://app.example.com/login');
    expect(message!.text).toContain('https://app.example.com/resend-verification');
    expect(message!.html).toContain('Ada &lt;i&gt;');
  });

  it('tells the owner of an address another account asked to move to, once, that nothing changed', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('email_change.taken_notice_requested', {
        userId: '11111111-2222-3333-4444-555555555555',
        email: 'holder@example.com',
        firstName: 'Ada <i>',
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.to.includes('holder@example.com'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.subject).toBe('Someone asked to move another Referral Hub account to your email');
    expect(message!.text).toContain('This address already belongs to your account, so nothing changed');
    expect(message!.text).toContain('log in with this address instead: https://app.example.com/login');
    expect(message!.text).not.toMatch(/verify-email/);
    expect(message!.html).toContain('Ada &lt;i&gt;');
  });

  it('tells the old address of an email change request and of the change, each once', async () => {
    const buses = await startMail();
    const userId = '11111111-2222-3333-4444-555555555555';
    const requested = envelope(
      outboxEvent('email_change.notice_requested', {
        userId,
        email: 'old-address@example.com',
        newEmail: 'attacker@example.net',
        firstName: 'Ada',
      }),
    );
    const [request, ...more] = await deliverTwice(buses, requested, (m) => m.to.includes('old-address@example.com'));
    expect(more).toHaveLength(0);
    expect(request!.subject).toBe('A change of your Referral Hub email address was requested');
    expect(request!.text).toContain('asked to change its email address to attacker@example.net');
    expect(request!.text).toContain('change your password right away from the Account page (this cancels the change');

    const changed = envelope(
      outboxEvent('user.email_changed', {
        userId,
        oldEmail: 'old-address@example.com',
        newEmail: 'new-address-2@example.com',
        firstName: 'Ada',
      }),
    );
    const notices = await deliverTwice(buses, changed, (m) => m.subject.includes('email address was changed'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.to).toEqual(['old-address@example.com']);
    expect(notices[0]!.subject).toBe('Your Referral Hub email address was changed');
    expect(notices[0]!.text).toContain('is now new-address-2@example.com');
    expect(catcher.messages.filter((m) => m.to.includes('new-address-2@example.com'))).toHaveLength(0);
  });
});

describe('development inbox', () => {
  it("withholds administrators' emails (ADMIN_EMAILS) and prints their link once on the terminal instead", async () => {
    const printed: string[] = [];
    const devCatcher = await startMailCatcher(
      adminMailWithheld(' Boss@Example.com, ops@example.com', (line) => printed.push(line)),
    );
    try {
      const eventBus = await bus('bus');
      const service = await startInstance(eventBus, { SMTP_URL: devCatcher.url }, devCatcher);
      // Someone registers the administrator's address first, and someone else an ordinary one.
      await eventBus.publish(verificationEvent('boss@example.com', 'tok_admin'));
      await eventBus.publish(verificationEvent('someone@example.com', 'tok_someone'));
      await devCatcher.waitFor((m) => m.to.includes('someone@example.com'));
      await eventually(() => printed.length > 0, 10_000, 'the printed link');
      await settled();

      const link = 'https://app.example.com/verify-email?token=tok_admin&userId=11111111-2222-3333-4444-555555555555';
      expect(printed).toEqual([
        `Administrator sign-up for boss@example.com: open ${link} (not shown in the dev inbox)`,
      ]);
      expect(devCatcher.messages.map((m) => m.to)).toEqual([['someone@example.com']]);
      for (const url of ['/dev/inbox', '/dev/inbox/messages']) {
        const body = (await service.app.inject({ method: 'GET', url })).body;
        expect(body).toContain('someone@example.com');
        expect(body).not.toContain('boss@example.com');
        expect(body).not.toContain('tok_admin');
      }
      expect(devCatcher.withholds('OPS@example.com')).toBe(true);
      expect(devCatcher.withholds('someone@example.com')).toBe(false);
    } finally {
      for (const { service, bus: eventBus } of running.splice(0)) {
        await eventBus.close();
        await service.close();
      }
      await devCatcher.close();
    }
  });

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
    // A link or an address longer than a phone is wide wraps (without it the page was 631 px wide at 360 px).
    expect(page.body).toMatch(/<p style="[^"]*overflow-wrap:anywhere">To inbox-second@example.com/);
    expect(page.body).toMatch(/<pre style="[^"]*overflow-wrap:anywhere[^"]*">Hi Grace/);
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

describe('vendor emails', () => {
  it('invites to a workspace once: who invited them to which workspace, a link to the workspace screen', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('vendor_invitation.created', {
        invitationId: 'inv-1',
        vendorId: 'vendor-1',
        vendorName: 'Acme <Labs>',
        email: 'invitee@acme.test',
        invitedByName: 'Ana "AJ" <b>Lee</b>',
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.to.includes('invitee@acme.test'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.to).toEqual(['invitee@acme.test']);
    expect(message!.subject).toBe('Ana "AJ" <b>Lee</b> invited you to Acme <Labs> on Referral Hub');
    expect(message!.text).toContain('Ana "AJ" <b>Lee</b> invited you to join the Acme <Labs> workspace');
    expect(message!.text).toContain('with this address, invitee@acme.test,');
    expect(message!.text).toContain('https://app.example.com/vendor\n');
    expect(message!.html).toContain('<a href="https://app.example.com/vendor"');
    expect(message!.html).toContain(
      'Ana &quot;AJ&quot; &lt;b&gt;Lee&lt;/b&gt; invited you to join the Acme &lt;Labs&gt;',
    );
    expect(message!.html).not.toContain('<b>Lee');
    expect(message!.html).not.toContain('<Labs>');
    const { rows } = await sql.query('SELECT kind, recipient, status FROM mail.sent_emails WHERE event_id = $1', [
      event.id,
    ]);
    expect(rows).toEqual([{ kind: 'vendor-invitation', recipient: 'invitee@acme.test', status: 'sent' }]);
  });

  it('tells the lead inbox and every member of a new lead once, with client, product, referrer and the inbox link', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('lead.created', {
        referralId: 41,
        vendorId: 'vendor-1',
        vendorName: 'Acme & Co',
        recipients: ['leads@acme.test', 'ana@acme.test', 'LEADS@acme.test', 'ben@acme.test'],
        referrerName: 'Rita <Referrer>',
        clientName: 'Globex <script>alert(1)</script>',
        productName: 'Acme CRM',
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.subject.startsWith('New lead for Acme & Co'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.to.sort()).toEqual(['ana@acme.test', 'ben@acme.test', 'leads@acme.test']);
    expect(message!.subject).toBe('New lead for Acme & Co: Globex <script>alert(1)</script>');
    expect(message!.text).toContain('Rita <Referrer> referred a new lead to Acme & Co on Referral Hub.');
    for (const line of [
      'Client: Globex <script>alert(1)</script>',
      'Product: Acme CRM',
      'Referred by: Rita <Referrer>',
      'https://app.example.com/vendor/leads',
    ])
      expect(message!.text).toContain(line);
    expect(message!.html).toContain('Globex &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(message!.html).toContain('Acme &amp; Co');
    expect(message!.html).not.toContain('<script>');
    expect(message!.html).toContain('<a href="https://app.example.com/vendor/leads"');
  });

  it('sends nothing for a lead without a recipient, and does not retry it', async () => {
    const buses = await startMail({}, 1);
    const event = envelope(
      outboxEvent('lead.created', {
        referralId: 42,
        vendorId: 'vendor-1',
        vendorName: 'Nobody Home',
        recipients: ['  '],
        referrerName: 'Rita',
        clientName: 'Globex',
        productName: 'Acme CRM',
      }),
    );
    await buses[0]!.publish(event);
    await settled();
    expect(catcher.messages.filter((m) => m.subject.includes('Nobody Home'))).toEqual([]);
    const { rows } = await sql.query('SELECT 1 FROM mail.sent_emails WHERE event_id = $1', [event.id]);
    expect(rows).toEqual([]);
  });

  it('tells the referrer once that the vendor accepted, with a link to Tee ups', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('lead.accepted', {
        referralId: 43,
        vendorName: 'Acme <Labs>',
        referrerEmail: 'rita@agency.test',
        referrerFirstName: 'Rita <i>',
        clientName: 'Globex',
        productName: 'Acme CRM',
      }),
    );
    const messages = await deliverTwice(
      buses,
      event,
      (m) => m.subject === 'Acme <Labs> accepted your referral of Globex',
    );
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.to).toEqual(['rita@agency.test']);
    expect(message!.text).toContain('Hi Rita <i>,');
    expect(message!.text).toContain('Acme <Labs> accepted your referral of Globex for Acme CRM.');
    expect(message!.text).toContain('https://app.example.com/dashboard');
    expect(message!.html).toContain('Hi Rita &lt;i&gt;,');
    expect(message!.html).toContain('Acme &lt;Labs&gt; accepted');
    expect(message!.html).toContain('<a href="https://app.example.com/dashboard"');
  });

  it('tells the referrer once that the vendor declined, with the reason as written', async () => {
    const buses = await startMail();
    const reason = 'Too small for us.\nTry <b>Initech</b> & friends.';
    const event = envelope(
      outboxEvent('lead.declined', {
        referralId: 44,
        vendorName: 'Acme',
        referrerEmail: 'rita@agency.test',
        referrerFirstName: 'Rita',
        clientName: 'Globex',
        productName: 'Acme CRM',
        reason,
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.subject === 'Acme declined your referral of Globex');
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.to).toEqual(['rita@agency.test']);
    expect(message!.text).toContain(`Their reason:\n${reason}`);
    expect(message!.text).toContain('https://app.example.com/dashboard');
    expect(message!.html).toContain('Too small for us.<br>Try &lt;b&gt;Initech&lt;/b&gt; &amp; friends.');
    expect(message!.html).not.toContain('<b>Initech');
    const { rows } = await sql.query('SELECT kind, status FROM mail.sent_emails WHERE event_id = $1', [event.id]);
    expect(rows).toEqual([{ kind: 'lead-declined', status: 'sent' }]);
  });
});

describe('money emails', () => {
  it('asks the lead inbox and every member once to confirm a milestone, with the referrer’s message and the inbox link', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('milestone.confirmation_requested', {
        referralId: 45,
        vendorId: 'vendor-1',
        vendorName: 'Acme & Co',
        recipients: ['leads@acme.test', 'ana@acme.test', ' LEADS@acme.test '],
        milestone: 'meetingHeld',
        referrerName: 'Rita <Referrer>',
        clientName: 'Globex',
        productName: 'Acme CRM',
        message: 'We met on Tuesday.\nSee <b>notes</b>.',
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.subject.startsWith('Rita <Referrer> asks you'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.to.sort()).toEqual(['ana@acme.test', 'leads@acme.test']);
    expect(message!.subject).toBe('Rita <Referrer> asks you to confirm Meeting Held (Intro Occurred) for Globex');
    for (const line of [
      'Rita <Referrer> asks Acme & Co to confirm Meeting Held (Intro Occurred) for Globex on Referral Hub.',
      'Client: Globex',
      'Product: Acme CRM',
      'Milestone: Meeting Held (Intro Occurred)',
      'Their message:\nWe met on Tuesday.\nSee <b>notes</b>.',
      'https://app.example.com/vendor/leads',
    ])
      expect(message!.text).toContain(line);
    expect(message!.html).toContain('We met on Tuesday.<br>See &lt;b&gt;notes&lt;/b&gt;.');
    expect(message!.html).toContain('Rita &lt;Referrer&gt;');
    expect(message!.html).not.toContain('<b>notes');
    expect(message!.html).toContain('<a href="https://app.example.com/vendor/leads"');
  });

  it('tells the lead inbox and every member once that the referrer withdrew a lead, with the inbox link', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('lead.withdrawn', {
        referralId: 46,
        vendorId: 'vendor-1',
        vendorName: 'Acme & Co',
        recipients: ['leads@acme.test', 'ana@acme.test', ' LEADS@acme.test '],
        referrerName: 'Rita <Referrer>',
        clientName: 'Globex',
        productName: 'Acme CRM',
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.subject.startsWith('Rita <Referrer> withdrew'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.to.sort()).toEqual(['ana@acme.test', 'leads@acme.test']);
    expect(message!.subject).toBe('Rita <Referrer> withdrew the referral of Globex');
    for (const line of [
      'Rita <Referrer> withdrew their referral of Globex to Acme & Co on Referral Hub.',
      'Client: Globex',
      'Product: Acme CRM',
      'nothing to accept, decline or confirm',
      'https://app.example.com/vendor/leads',
    ])
      expect(message!.text).toContain(line);
    expect(message!.html).toContain('Rita &lt;Referrer&gt;');
    expect(message!.html).toContain('<a href="https://app.example.com/vendor/leads"');
    const { rows } = await sql.query('SELECT kind, status FROM mail.sent_emails WHERE event_id = $1', [event.id]);
    expect(rows).toEqual([{ kind: 'lead-withdrawn', status: 'sent' }]);
  });

  it('tells the referrer once what a commission earned them: their share to the cent, the milestone, the client', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('commission.created', {
        commissionId: 'commission-1',
        referralId: 46,
        vendorId: 'vendor-1',
        vendorName: 'Acme <Labs>',
        milestone: 'closedWon',
        currency: 'USD',
        grossCents: 1_234_567,
        referrerCents: 864_197,
        referrerEmail: 'rita@agency.test',
        referrerFirstName: 'Rita',
        clientName: 'Globex & Sons',
        createdAt: new Date().toISOString(),
      }),
    );
    const messages = await deliverTwice(buses, event, (m) => m.subject.startsWith('You earned'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.to).toEqual(['rita@agency.test']);
    expect(message!.subject).toBe('You earned $8,641.97 for your referral of Globex & Sons');
    for (const line of [
      'Hi Rita,',
      'Acme <Labs> confirmed Closed-Won for your referral of Globex & Sons: you earned $8,641.97.',
      'Milestone: Closed-Won',
      'Your share: $8,641.97',
      'held in escrow',
      'https://app.example.com/referral-impact',
    ])
      expect(message!.text).toContain(line);
    // The vendor's gross and the platform fee are not the referrer's business here.
    expect(message!.text).not.toContain('12,345.67');
    expect(message!.html).toContain('Acme &lt;Labs&gt;');
    expect(message!.html).toContain('Globex &amp; Sons');
    const { rows } = await sql.query('SELECT kind, recipient, status FROM mail.sent_emails WHERE event_id = $1', [
      event.id,
    ]);
    expect(rows).toEqual([{ kind: 'commission-created', recipient: 'rita@agency.test', status: 'sent' }]);
  });

  it("says when an administrator recorded the milestone on the vendor's behalf", async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('commission.created', {
        commissionId: 'commission-2',
        referralId: 47,
        vendorId: 'vendor-1',
        vendorName: 'Acme',
        milestone: 'meetingHeld',
        currency: 'USD',
        grossCents: 10_000,
        referrerCents: 7_000,
        referrerEmail: 'rita@agency.test',
        referrerFirstName: 'Rita',
        clientName: 'Globex',
        confirmedBy: 'admin',
        createdAt: new Date().toISOString(),
      }),
    );
    const messages = await deliverTwice(
      buses,
      event,
      (m) => m.subject === 'You earned $70.00 for your referral of Globex',
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]!.text).toContain(
      'A Referral Hub administrator recorded Meeting Held (Intro Occurred) on behalf of Acme for your referral of Globex: you earned $70.00.',
    );
    expect(messages[0]!.text).not.toContain('Acme confirmed');
  });

  it('tells the referrer once that a deal was reversed: by whom, why, the milestones and their share lost', async () => {
    const buses = await startMail();
    const reversal = (reversedBy: 'vendor' | 'admin', referralId: number) =>
      envelope(
        outboxEvent('commissions.reversed', {
          referralId,
          vendorId: 'vendor-1',
          vendorName: 'Acme <Labs>',
          clientName: 'Globex & Sons',
          referrerEmail: 'rita@agency.test',
          referrerFirstName: 'Rita',
          reversedBy,
          reason: 'Contract cancelled in week 2',
          milestones: ['qualifiedLead', 'opportunityCreated'],
          currency: 'USD',
          referrerCents: 24_539,
          reversedAt: new Date().toISOString(),
        }),
      );
    const event = reversal('vendor', 47);
    const messages = await deliverTwice(buses, event, (m) => m.subject.includes('was reversed'));
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.to).toEqual(['rita@agency.test']);
    expect(message!.subject).toBe('Your commission for Globex & Sons was reversed');
    for (const line of [
      'Hi Rita,',
      'Acme <Labs> reversed the deal of your referral of Globex & Sons: $245.39 not paid out yet is no longer yours.',
      'Milestones: Qualified Lead (Warm Intro), Opportunity Created (Demo)',
      'Reason: Contract cancelled in week 2',
      'already paid out stay paid',
      'https://app.example.com/referral-impact',
    ])
      expect(message!.text).toContain(line);
    expect(message!.html).toContain('Acme &lt;Labs&gt;');
    const { rows } = await sql.query('SELECT kind, recipient, status FROM mail.sent_emails WHERE event_id = $1', [
      event.id,
    ]);
    expect(rows).toEqual([{ kind: 'commissions-reversed', recipient: 'rita@agency.test', status: 'sent' }]);
    // An administrator's reversal is said to be the platform's.
    await buses[0]!.publish(reversal('admin', 48));
    const byAdmin = await catcher.waitFor(
      (m) => m.subject.includes('was reversed') && m.text.includes('administrator'),
    );
    expect(byAdmin.text).toContain('An administrator of');
  });

  it('tells each referrer paid once, with only their own total, the reference and the date', async () => {
    const buses = await startMail();
    const event = envelope(
      outboxEvent('payout.recorded', {
        payoutId: 'payout-1',
        reference: 'BATCH-2026-11',
        method: 'bank_transfer',
        paidOn: '2026-11-20',
        currency: 'USD',
        referrers: [
          { userId: 'u-rita', email: 'rita@agency.test', firstName: 'Rita', totalCents: 100_005, commissions: 2 },
          { userId: 'u-sam', email: 'sam@agency.test', firstName: 'Sam', totalCents: 7_000, commissions: 1 },
        ],
      }),
    );
    await buses[0]!.publish(event);
    await catcher.waitFor((m) => m.to.includes('sam@agency.test') && m.subject.includes('BATCH-2026-11'));
    await catcher.waitFor((m) => m.to.includes('rita@agency.test') && m.subject.includes('BATCH-2026-11'));
    await buses[1]!.publish(event);
    await settled();
    const paid = catcher.messages.filter((m) => m.subject.includes('BATCH-2026-11'));
    expect(paid).toHaveLength(2);
    const rita = paid.find((m) => m.to.includes('rita@agency.test'))!;
    const sam = paid.find((m) => m.to.includes('sam@agency.test'))!;
    expect(rita.to).toEqual(['rita@agency.test']);
    expect(rita.subject).toBe('Referral Hub paid you $1,000.05 (BATCH-2026-11)');
    for (const line of [
      'Hi Rita,',
      'Referral Hub paid you $1,000.05 for 2 commissions.',
      'Paid on: November 20, 2026',
      'Reference: BATCH-2026-11',
      'Method: Bank transfer',
      'https://app.example.com/referral-impact',
    ])
      expect(rita.text).toContain(line);
    expect(rita.text).not.toContain('$70.00');
    expect(sam.subject).toBe('Referral Hub paid you $70.00 (BATCH-2026-11)');
    expect(sam.text).toContain('for 1 commission.');
    expect(sam.text).not.toContain('1,000.05');
    expect(rita.messageId).not.toBe(sam.messageId);
    const { rows } = await sql.query(
      "SELECT recipient, status FROM mail.sent_emails WHERE kind = 'payout-recorded' ORDER BY recipient",
    );
    expect(rows).toEqual([
      { recipient: 'rita@agency.test', status: 'sent' },
      { recipient: 'sam@agency.test', status: 'sent' },
    ]);
  });
});

describe('the warm intro', () => {
  const intro = (fromName: string, to: string) =>
    envelope(
      outboxEvent('referral.intro_email_requested', {
        referralId: 8,
        fromName,
        replyTo: 'ana@agency.test',
        to: [to],
        cc: ['leads@acme.test'],
        bcc: [],
        subject: `Intro for ${to}`,
        body: 'Hi Jo,\n\nMeet Acme.',
      }),
    );

  it("comes from the referrer's name via Referral Hub, without quotes, at our address, Cc the lead inbox", async () => {
    const [eventBus] = await startMail({}, 1);
    await eventBus!.publish(intro(`Ana "AJ" O'Neil via Referral Hub`, 'jo@globex.test'));
    const message = await arrived('jo@globex.test');
    // As the reader shows it (sender.test.ts checks the header as sent).
    expect(message.from).toBe(`"Ana AJ O'Neil via Referral Hub" <hello@example.com>`);
    expect(message.replyTo).toBe('ana@agency.test');
    expect(message.cc).toBe('leads@acme.test');
    expect(message.to.sort()).toEqual(['jo@globex.test', 'leads@acme.test']);

    await eventBus!.publish(intro('Zoë Ødegård via Referral Hub', 'kim@globex.test'));
    expect((await arrived('kim@globex.test')).from).toBe('"Zoë Ødegård via Referral Hub" <hello@example.com>');
  });

  it('names no referrer who kept their name: from Referral Hub at our address, and no Reply-To when none is given', async () => {
    const [eventBus] = await startMail({}, 1);
    const event = envelope(
      outboxEvent('referral.intro_email_requested', {
        referralId: 10,
        fromName: 'Referral Hub',
        replyTo: '',
        to: ['max@globex.test'],
        cc: [],
        bcc: ['ana@agency.test'],
        subject: 'An introduction to Acme',
        body: 'Hi Max,\n\nSomeone in your network thought Acme could help.',
      }),
    );
    await eventBus!.publish(event);
    const message = await arrived('max@globex.test');
    expect(message.from).toBe('"Referral Hub" <hello@example.com>');
    expect(message.replyTo).toBe(''); // no Reply-To header: replies reach our own address
    // The referrer gets their copy in Bcc: in the envelope, in no header.
    expect(message.to.sort()).toEqual(['ana@agency.test', 'max@globex.test']);
    expect(message.cc).toBe('');
  });

  it('never lets a name add an address or a header', async () => {
    const [eventBus] = await startMail({}, 1);
    const event = intro('Mallory <evil@attacker.test>\r\nBcc: evil@attacker.test\r\nX-Evil: 1', 'lee@globex.test');
    await eventBus!.publish(event);
    const message = await arrived('lee@globex.test');
    expect(message.to.sort()).toEqual(['leads@acme.test', 'lee@globex.test']);
    expect(message.from).toBe('"Mallory evil attacker.test Bcc: evil attacker.test X-Evil: 1" <hello@example.com>');
    expect(message.replyTo).toBe('ana@agency.test');
  });

  it('never shows a name that poses as an address (issue 11), nor a subject on two lines', async () => {
    const [eventBus] = await startMail({}, 1);
    const event = envelope(
      outboxEvent('referral.intro_email_requested', {
        referralId: 9,
        fromName: '"PayPal Security <security@paypal.com>"\u202e\u200b via Referral Hub',
        replyTo: 'ana@agency.test',
        to: ['pat@globex.test'],
        cc: ['leads@acme.test'],
        bcc: [],
        subject: 'Your account\r\nBcc: all@victims.test',
        body: 'Hi Pat',
      }),
    );
    await eventBus!.publish(event);
    const message = await arrived('pat@globex.test');
    expect(message.from).toBe('"PayPal Security security paypal.com via Referral Hub" <hello@example.com>');
    expect(message.from.match(/@/g)).toHaveLength(1);
    expect(message.replyTo).toBe('ana@agency.test');
    expect(message.cc).toBe('leads@acme.test');
    expect(message.to.sort()).toEqual(['leads@acme.test', 'pat@globex.test']);
    expect(message.subject).toBe('Your account Bcc: all@victims.test');
  });
});
