import type { EventEnvelope } from '@app/contracts';
import { outboxEvent, sealer, type EventBus } from '@app/kit';
import { freshDatabase, startMailCatcher, TEST_SECRET, testBus, type MailCatcher } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailConfig } from '../src/config.ts';
import { createMailService, type MailService } from '../src/service.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let catcher: MailCatcher;
let sql: pg.Pool;
const services: MailService[] = [];
const tokens = sealer(TEST_SECRET, 'email-verification');

async function start(smtpUrl: string): Promise<EventBus> {
  const bus = await testBus(db.url);
  const config = readMailConfig({
    DATABASE_URL: db.url,
    INTERNAL_SECRET: TEST_SECRET,
    SMTP_URL: smtpUrl,
    PUBLIC_URL: 'https://app.example.com',
    MAIL_FROM: 'Referral Hub <hello@example.com>',
  });
  services.push(await createMailService({ config, bus, logger: false }));
  return bus;
}

function verificationEvent(email: string, token = 'raw-token-value'): EventEnvelope<'email_verification.requested'> {
  const row = outboxEvent('email_verification.requested', {
    userId: '11111111-2222-3333-4444-555555555555',
    email,
    firstName: 'Grace <b>',
    sealedToken: tokens.seal(token),
    expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
  });
  return { id: row.id, name: row.name, payload: row.payload, occurredAt: row.occurredAt.toISOString() };
}

const inbox = (to: string) => catcher.messages.filter((m) => m.to.includes(to));

beforeAll(async () => {
  db = await freshDatabase();
  catcher = await startMailCatcher();
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});
afterAll(async () => {
  for (const service of services) await service.close();
  await catcher.close();
  await sql.end();
  await db.drop();
});

describe('verification email', () => {
  it('sends text and HTML with a link built from PUBLIC_URL', async () => {
    const bus = await start(catcher.url);
    await bus.publish(verificationEvent('grace@example.com', 'tok_ABC-123'));
    const [message] = inbox('grace@example.com');
    expect(message).toBeDefined();
    expect(message!.subject).toBe('Verify your email for Referral Hub');
    expect(message!.from).toContain('hello@example.com');
    const link = 'https://app.example.com/verify-email?token=tok_ABC-123&userId=11111111-2222-3333-4444-555555555555';
    expect(message!.text).toContain(link);
    expect(message!.html).toContain(link.replace('&', '&amp;'));
    // User-provided text is escaped in the HTML part.
    expect(message!.html).toContain('Grace &lt;b&gt;');
    expect(message!.html).not.toContain('Grace <b>');
  });

  it('sends once when the same event is delivered twice, or twice at the same time', async () => {
    const bus = await start(catcher.url);
    const twice = verificationEvent('twice@example.com');
    await bus.publish(twice);
    await bus.publish(twice);
    expect(inbox('twice@example.com')).toHaveLength(1);

    const concurrent = verificationEvent('concurrent@example.com');
    const results = await Promise.allSettled([
      bus.publish(concurrent),
      bus.publish(concurrent),
      bus.publish(concurrent),
    ]);
    // Deliveries that found another one mid-send fail and are retried later; that retry finds it sent.
    await bus.publish(concurrent);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    expect(inbox('concurrent@example.com')).toHaveLength(1);
    const { rows } = await sql.query("SELECT status FROM mail.sent_emails WHERE recipient = 'concurrent@example.com'");
    expect(rows).toEqual([{ status: 'sent' }]);
  });

  it('records a failed send and sends it when the event comes again', async () => {
    const down = await start('smtp://127.0.0.1:1');
    const event = verificationEvent('retry@example.com');
    await expect(down.publish(event)).rejects.toThrow();
    const { rows } = await sql.query('SELECT status, last_error FROM mail.sent_emails WHERE event_id = $1', [event.id]);
    expect(rows[0].status).toBe('failed');
    expect(rows[0].last_error).toMatch(/ECONNREFUSED/);

    const up = await start(catcher.url);
    await up.publish(event);
    expect(inbox('retry@example.com')).toHaveLength(1);
    const after = await sql.query('SELECT status, attempts FROM mail.sent_emails WHERE event_id = $1', [event.id]);
    expect(after.rows[0]).toEqual({ status: 'sent', attempts: 2 });
  });

  it('re-sends after a process died mid-send (stale claim), with the same Message-ID', async () => {
    const bus = await start(catcher.url);
    const event = verificationEvent('stale@example.com');
    await sql.query(
      "INSERT INTO mail.sent_emails (id, event_id, kind, recipient, subject, status, claimed_at) VALUES (gen_random_uuid(), $1, 'email-verification', 'stale@example.com', 's', 'sending', now() - interval '5 minutes')",
      [event.id],
    );
    await bus.publish(event);
    const [message] = inbox('stale@example.com');
    expect(message?.messageId).toBe(`<${event.id}@example.com>`);
  });
});

describe('referral intro email', () => {
  function introEvent(): EventEnvelope<'referral.intro_email_requested'> {
    const row = outboxEvent('referral.intro_email_requested', {
      referralId: 7,
      fromName: 'Slack via Referral Hub',
      replyTo: 'referrer@agency.test',
      to: ['client@acme.test'],
      cc: ['referrer@agency.test'],
      bcc: ['audit@agency.test'],
      subject: 'Intro: Acme <> Slack',
      body: 'Hi Jo,\n\nMeet Slack.\nThey can help.\n\n<script>x</script>',
    });
    return { id: row.id, name: row.name, payload: row.payload, occurredAt: row.occurredAt.toISOString() };
  }

  it("goes out once, from the product's name at our address, replying to the referrer, to every recipient", async () => {
    const bus = await start(catcher.url);
    const event = introEvent();
    await bus.publish(event);
    await bus.publish(event);
    const messages = catcher.messages.filter((m) => m.subject === 'Intro: Acme <> Slack');
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

const envelope = <N extends 'demo_request.submitted' | 'email_change.requested' | 'password.changed'>(
  row: ReturnType<typeof outboxEvent<N>>,
): EventEnvelope<N> => ({
  id: row.id,
  name: row.name,
  payload: row.payload,
  occurredAt: row.occurredAt.toISOString(),
});

describe('demo request email', () => {
  it('goes once to SALES_EMAIL with every detail, text and escaped HTML, replying to the requester', async () => {
    const bus = await testBus(db.url);
    const config = readMailConfig({
      DATABASE_URL: db.url,
      INTERNAL_SECRET: TEST_SECRET,
      SMTP_URL: catcher.url,
      SALES_EMAIL: 'deals@example.com',
      MAIL_FROM: 'Referral Hub <hello@example.com>',
    });
    services.push(await createMailService({ config, bus, logger: false }));
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
    await bus.publish(event);
    await bus.publish(event);
    const messages = inbox('deals@example.com');
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
  it('sends the email-change link to the new address, built from PUBLIC_URL', async () => {
    const bus = await start(catcher.url);
    const event = envelope(
      outboxEvent('email_change.requested', {
        userId: '11111111-2222-3333-4444-555555555555',
        newEmail: 'new-address@example.com',
        firstName: 'Ada <i>',
        sealedToken: tokens.seal('change_TOKEN'),
        expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
      }),
    );
    await bus.publish(event);
    await bus.publish(event);
    const messages = inbox('new-address@example.com');
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
    const bus = await start(catcher.url);
    const event = envelope(
      outboxEvent('password.changed', {
        userId: '11111111-2222-3333-4444-555555555555',
        email: 'changed@example.com',
        firstName: 'Linus',
      }),
    );
    await bus.publish(event);
    await bus.publish(event);
    const messages = inbox('changed@example.com');
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.subject).toBe('Your Referral Hub password was changed');
    expect(message!.text).toContain('Hi Linus');
    expect(message!.text).toMatch(/If it was not you, contact support at support@referralhub\.local/);
    expect(message!.text).toContain('https://app.example.com/login');
  });
});
