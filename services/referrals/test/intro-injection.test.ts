import type { Referral } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counts, referralInput, startReferrals, testUser, type TestContext, type TestUser } from './helpers.ts';

// The intro email the referrer edits: its recipients are the addresses shown to the referrer and nothing
// else, its subject one line; the event the mail service sends from carries them as they were checked.

let ctx: TestContext;
const app = () => ctx.service.app;

beforeAll(async () => {
  ctx = await startReferrals();
});
afterAll(async () => {
  await ctx?.close();
});

async function created(user: TestUser, overrides: Record<string, unknown> = {}): Promise<Referral> {
  const response = await app().inject({
    method: 'POST',
    url: '/api/referrals',
    headers: user.headers,
    payload: referralInput(overrides),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const sendEmail = (user: TestUser, id: number, payload: unknown) =>
  app().inject({
    method: 'POST',
    url: `/api/referrals/${id}/send-email`,
    headers: user.headers,
    payload: JSON.stringify(payload),
  });

async function introEvents(userId: string) {
  const { rows } = await ctx.sql.query(
    `SELECT o.payload FROM referrals.outbox_events o
       JOIN referrals.referrals r ON r.id = (o.payload->>'referralId')::int
      WHERE o.name = 'referral.intro_email_requested' AND r.user_id = $1`,
    [userId],
  );
  return rows.map((row) => row.payload as Record<string, unknown>);
}

describe('the recipients of an intro email', () => {
  // Each has the spec's shape (text, at sign, text, dot, text, no spaces); a mailer reads another recipient
  // in each (nodemailer: `jo@globex.test<root>` is delivered to the relay's local "root").
  it.each([
    ['to', 'jo@globex.test<root>'],
    ['to', 'boss<evil@attacker.test'],
    ['cc', 'staff:postmaster;@globex.test'],
    ['cc', 'root;jo@globex.test'],
    ['bcc', 'jo@globex.test(evil'],
    ['bcc', '"jo"@globex.test'],
    ['to', 'jo@globex.test>root'],
    ['to', 'jo@[127.0.0.1]'],
  ])('refuse %s %s: 400 next to the field, nothing stored or sent', async (field, address) => {
    const user = testUser('smuggle');
    const { id } = await created(user);
    const before = await counts(ctx.sql);
    const recipients = { to: ['jo@globex.test'], cc: [], bcc: [], [field]: [address] };
    const response = await sendEmail(user, id, { subject: 'Meet Acme', body: 'Hi', recipients });
    expect([response.statusCode, response.json()]).toEqual([
      400,
      { message: 'Invalid recipient email address', code: 'VALIDATION_FAILED', field: `recipients.${field}.0` },
    ]);
    expect(await counts(ctx.sql)).toEqual(before);
    expect(await introEvents(user.userId)).toEqual([]);
  });

  it('go to the mail service exactly as shown, a comma-separated field split into plain addresses', async () => {
    const user = testUser('plain');
    // The referrer lets their name be used: replies go to them (sending.test.ts covers a private referrer).
    const { id } = await created(user, { canUseReferrerName: true });
    const response = await sendEmail(user, id, {
      subject: 'Meet Acme',
      body: 'Hi <b>Jo</b>,\n\nMeet Acme.',
      recipients: { to: "Jo@Globex.test, o'neil+intro@globex.test", cc: ['kim@globex.test'], bcc: [] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [event] = await introEvents(user.userId);
    expect(event).toMatchObject({
      to: ['jo@globex.test', "o'neil+intro@globex.test"],
      cc: ['kim@globex.test'],
      bcc: [],
      replyTo: user.email,
      subject: 'Meet Acme',
      body: 'Hi <b>Jo</b>,\n\nMeet Acme.',
    });
  });

  it('cannot take a subject on two lines (no header from it)', async () => {
    const user = testUser('subject');
    const { id } = await created(user);
    const response = await sendEmail(user, id, {
      subject: 'Meet Acme\r\nBcc: evil@attacker.test',
      body: 'Hi',
      recipients: { to: ['jo@globex.test'] },
    });
    expect([response.statusCode, response.json().field]).toEqual([400, 'subject']);
    expect(await introEvents(user.userId)).toEqual([]);
  });
});
