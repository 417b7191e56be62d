import type { EventEnvelope, EventName } from '@app/contracts';
import { createLogger, inProcessBus, outboxEvent, type EventBus } from '@app/kit';
import { eventually, freshDatabase, startMailCatcher, TEST_SECRET, type MailCatcher } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailConfig } from '../src/config.ts';
import { createMailService, type MailService } from '../src/service.ts';

// Addresses that have the spec's shape (text, at sign, text, dot, text) but that a mailer reads as another
// recipient, end to end: the event, the mail service, a real SMTP server and what it was asked to deliver to.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let catcher: MailCatcher;
let sql: pg.Pool;
let bus: EventBus;
let service: MailService;

beforeAll(async () => {
  db = await freshDatabase();
  catcher = await startMailCatcher();
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  bus = await inProcessBus({
    databaseUrl: db.url,
    schema: 'bus',
    logger: createLogger('bus', 'silent'),
    secret: TEST_SECRET,
    retryDelay: (attempt) => Math.min(1000, 50 * attempt),
  });
  const config = readMailConfig({
    DATABASE_URL: db.url,
    INTERNAL_SECRET: TEST_SECRET,
    SMTP_URL: catcher.url,
    PUBLIC_URL: 'https://app.example.com',
    MAIL_FROM: 'Referral Hub <hello@example.com>',
    SALES_EMAIL: 'deals@example.com',
  });
  service = await createMailService({ config, bus, logger: false });
});
afterAll(async () => {
  await bus?.close();
  await service?.close();
  await catcher?.close();
  await sql?.end();
  await db?.drop();
});

function envelope<N extends EventName>(row: ReturnType<typeof outboxEvent<N>>): EventEnvelope<N> {
  return { id: row.id, name: row.name, payload: row.payload, occurredAt: row.occurredAt.toISOString() };
}

/** Every delivery to the mail subscribers handled (acknowledged, not waiting for a retry). */
const settled = () =>
  eventually(
    async () =>
      (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM bus.deliveries WHERE subscriber LIKE 'mail-%'`))
        .rows[0]!.n === 0,
    10_000,
    'every delivery handled',
  );

const intro = (to: string[], cc: string[] = [], bcc: string[] = [], replyTo = 'ana@agency.test') =>
  envelope(
    outboxEvent('referral.intro_email_requested', {
      referralId: 5,
      fromName: 'Ana Lee via Referral Hub',
      replyTo,
      to,
      cc,
      bcc,
      subject: `Intro ${to.join(' ')}`,
      body: 'Hi',
    }),
  );

describe('an email whose addresses a mailer reads as other ones', () => {
  it('is not sent, recorded or retried; a plain one goes to exactly its addresses', async () => {
    const smuggled = [
      intro(['jo@globex.test<root>']),
      intro(['kim@globex.test'], ['boss<evil@attacker.test']),
      intro(['lou@globex.test'], [], ['staff:postmaster,;me@agency.test']),
      intro(['max@globex.test'], [], [], 'ana@agency.test<root>'),
      envelope(
        outboxEvent('lead.created', {
          referralId: 6,
          vendorId: 'v1',
          vendorName: 'Acme',
          recipients: ['leads@acme.test<postmaster>', 'member@acme.test'],
          referrerName: 'Ana',
          clientName: 'Globex',
          productName: 'CRM',
        }),
      ),
      envelope(
        outboxEvent('demo_request.submitted', {
          requestId: '99999999-2222-3333-4444-555555555555',
          firstName: 'Grace',
          lastName: 'Hopper',
          email: 'grace@navy.example<root>',
          phone: '+1 555 0100',
          website: 'navy.example',
          referralSource: null,
        }),
      ),
    ];
    for (const event of smuggled) await bus.publish(event);
    const plain = intro(['pat@globex.test'], ['leads@acme.test'], ['me@agency.test']);
    await bus.publish(plain);
    const message = await catcher.waitFor((m) => m.subject === 'Intro pat@globex.test');
    await settled();

    expect(message.to.sort()).toEqual(['leads@acme.test', 'me@agency.test', 'pat@globex.test']);
    expect(message.cc).toBe('leads@acme.test');
    expect(message.replyTo).toBe('ana@agency.test');
    // Nothing else reached the SMTP server: no local "root" or "postmaster", no attacker.
    expect(catcher.messages.map((m) => m.to)).toEqual([message.to]);
    const { rows } = await sql.query('SELECT event_id FROM mail.sent_emails');
    expect(rows).toEqual([{ event_id: plain.id }]);
  });
});
