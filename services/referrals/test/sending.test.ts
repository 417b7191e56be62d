import { randomUUID } from 'node:crypto';
import { INTRO_RECIPIENT_LIMITS, type Referral } from '@app/contracts';
import { identitySigner } from '@app/kit';
import { TEST_SECRET } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counts,
  deliver,
  referralInput,
  startReferrals,
  testUser,
  type TestContext,
  type TestUser,
} from './helpers.ts';

// Issue 11, item 1: bulk email from unverified accounts, lists of recipients, and a display name that
// poses as a known company. Small quotas so that parallel sends attack them.
const PER_HOUR = 12;
const PER_DAY = 20;

let ctx: TestContext;
const app = () => ctx.service.app;

beforeAll(async () => {
  ctx = await startReferrals({ SEND_RECIPIENTS_PER_HOUR: String(PER_HOUR), SEND_RECIPIENTS_PER_DAY: String(PER_DAY) });
});
afterAll(async () => {
  await ctx?.close();
});

/** The same user as the gateway would vouch for them with their email not verified. */
function unverified(user: TestUser): TestUser {
  const identity = identitySigner(TEST_SECRET).sign(
    { userId: user.userId, sessionId: randomUUID(), email: user.email, isAdmin: false, emailVerified: false },
    600,
  );
  return { ...user, headers: { ...user.headers, 'x-identity': identity } };
}

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

const addresses = (n: number, prefix = 'r') => Array.from({ length: n }, (_, i) => `${prefix}${i}@client.example`);
const email = (recipients: { to: string[]; cc?: string[]; bcc?: string[] }) => ({
  subject: 'Meet Grace',
  body: 'Grace, meet Slack.',
  recipients,
});

async function introEvents(userIds: string[] = []) {
  const { rows } = await ctx.sql.query(
    `SELECT o.payload FROM referrals.outbox_events o
       JOIN referrals.referrals r ON r.id = (o.payload->>'referralId')::int
      WHERE o.name = 'referral.intro_email_requested' AND r.user_id = ANY($1)`,
    [userIds],
  );
  return rows.map(
    (row) => row.payload as { to: string[]; cc: string[]; bcc: string[]; fromName: string; replyTo: string },
  );
}

const recipientsOf = (events: Array<{ to: string[]; cc: string[]; bcc: string[] }>) =>
  events.reduce((sum, e) => sum + e.to.length + e.cc.length + e.bcc.length, 0);

describe('an unverified account', () => {
  it('cannot create a referral: 403 EMAIL_NOT_VERIFIED, nothing stored or announced', async () => {
    const user = unverified(testUser('fresh'));
    const before = await counts(ctx.sql);
    const response = await app().inject({
      method: 'POST',
      url: '/api/referrals',
      headers: user.headers,
      payload: referralInput(),
    });
    expect([response.statusCode, response.json()]).toEqual([
      403,
      {
        message: 'Email Verification Required – Please verify your email address before proceeding.',
        code: 'EMAIL_NOT_VERIFIED',
      },
    ]);
    expect(await counts(ctx.sql)).toEqual(before);
  });

  it('cannot send an intro email, even for a referral it made while verified', async () => {
    const verified = testUser('lapsed');
    const { id } = await created(verified);
    const before = await counts(ctx.sql);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => sendEmail(unverified(verified), id, email({ to: addresses(5) }))),
    );
    for (const response of responses) {
      expect([response.statusCode, response.json().code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    }
    expect(await counts(ctx.sql)).toEqual(before);
    expect(await introEvents([verified.userId])).toEqual([]);
  });

  it('is not refused the dry run, which emails nobody', async () => {
    const verified = testUser('dry');
    const { id } = await created(verified);
    const before = await counts(ctx.sql);
    const response = await app().inject({
      method: 'POST',
      url: `/api/referrals/${id}/automate`,
      headers: verified.headers,
      payload: '{}',
    });
    expect(response.statusCode).toBe(200);
    expect(await counts(ctx.sql)).toEqual(before);
  });
});

describe('recipients of one intro email', () => {
  it.each([
    [
      'more than 5 in To',
      { to: addresses(INTRO_RECIPIENT_LIMITS.perField + 1) },
      'recipients.to',
      'At most 5 addresses per field',
    ],
    [
      'more than 5 in Cc',
      { to: addresses(1), cc: addresses(6, 'c') },
      'recipients.cc',
      'At most 5 addresses per field',
    ],
    [
      'more than 5 in Bcc',
      { to: addresses(1), bcc: addresses(50, 'b') },
      'recipients.bcc',
      'At most 5 addresses per field',
    ],
    [
      'more than 10 together',
      { to: addresses(5), cc: addresses(5, 'c'), bcc: addresses(1, 'b') },
      'recipients.bcc',
      'At most 10 recipients per intro email (To, Cc and Bcc together)',
    ],
    [
      'more than 10 together, without Bcc',
      { to: addresses(5), cc: addresses(5, 'c').concat(['x@client.example']) },
      'recipients.cc',
      'At most 5 addresses per field',
    ],
  ])('are refused with %s: 400 next to the field, nothing sent', async (_case, recipients, field, message) => {
    const user = testUser('many');
    const { id } = await created(user);
    const before = await counts(ctx.sql);
    const response = await sendEmail(user, id, email(recipients));
    expect([response.statusCode, response.json()]).toEqual([400, { message, code: 'VALIDATION_FAILED', field }]);
    expect(await counts(ctx.sql)).toEqual(before);
  });

  it('may be 10 (5 To + 5 Cc)', async () => {
    const user = testUser('ten');
    const { id } = await created(user);
    const response = await sendEmail(user, id, email({ to: addresses(5), cc: addresses(5, 'c') }));
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('the recipient quotas of a user', () => {
  it(`hold against parallel sends: at most ${PER_HOUR} an hour and ${PER_DAY} a day, 429 and nothing sent beyond`, async () => {
    const user = testUser('bulk');
    const other = testUser('bystander');
    const referrals = await Promise.all(Array.from({ length: 8 }, () => created(user)));
    const otherReferral = await created(other);

    // 8 sends of 3 recipients at once: 24 asked, 12 an hour allowed, so exactly 4 go.
    const burst = await Promise.all(
      referrals.map((r, i) => sendEmail(user, r.id, email({ to: addresses(2, `h${i}-`), bcc: [`b${i}@x.example`] }))),
    );
    expect(burst.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    for (const refused of burst.filter((r) => r.statusCode === 429)) {
      expect(refused.json()).toEqual({
        message: `You can send intro emails to at most ${PER_HOUR} recipients per hour. Please try again later.`,
        code: 'SEND_QUOTA_EXCEEDED',
      });
    }
    expect(recipientsOf(await introEvents([user.userId]))).toBe(PER_HOUR);
    const { rows: unsent } = await ctx.sql.query(
      'SELECT count(*)::int n FROM referrals.referrals WHERE user_id = $1 AND email_sent_at IS NULL',
      [user.userId],
    );
    expect(unsent[0].n).toBe(4);

    // Another user's quota is their own.
    expect((await sendEmail(other, otherReferral.id, email({ to: addresses(3, 'o') }))).statusCode).toBe(200);

    // An hour later the hourly quota is free again, the daily one is not: 8 of the day's 20 are left.
    await ctx.sql.query(
      "UPDATE referrals.intro_sends SET sent_at = sent_at - interval '61 minutes' WHERE user_id = $1",
      [user.userId],
    );
    const waiting = referrals.filter((_, i) => burst[i]!.statusCode === 429);
    const later = await Promise.all(
      waiting.map((r, i) => sendEmail(user, r.id, email({ to: addresses(3, `d${i}-`) }))),
    );
    expect(later.map((r) => r.statusCode).sort()).toEqual([200, 200, 429, 429]);
    expect(later.find((r) => r.statusCode === 429)!.json()).toEqual({
      message: `You can send intro emails to at most ${PER_DAY} recipients per day (2 left now). Please try again later or with fewer recipients.`,
      code: 'SEND_QUOTA_EXCEEDED',
    });
    expect(recipientsOf(await introEvents([user.userId]))).toBe(PER_HOUR + 6);

    // A smaller email still fits what is left of the day.
    const last = waiting.find((_, i) => later[i]!.statusCode === 429)!;
    expect((await sendEmail(user, last.id, email({ to: addresses(2, 'z') }))).statusCode).toBe(200);
    expect(recipientsOf(await introEvents([user.userId]))).toBe(PER_DAY);
  });

  it("do not count the vendor's lead inbox the platform copies, and count an address once", async () => {
    const user = testUser('inbox');
    const { id } = await created(user);
    const response = await sendEmail(
      user,
      id,
      email({ to: ['a@client.example'], cc: ['A@client.example', 'b@client.example'], bcc: ['b@client.example'] }),
    );
    expect(response.statusCode).toBe(200);
    const { rows } = await ctx.sql.query('SELECT recipients FROM referrals.intro_sends WHERE referral_id = $1', [id]);
    expect(rows).toEqual([{ recipients: 2 }]);
  });
});

describe('the sender name of an intro email', () => {
  it("is the referrer's own name, stripped of what makes it pass for an address; never the product's", async () => {
    const user = testUser('spoof');
    await deliver(ctx, 'user.registered', {
      userId: user.userId,
      email: user.email,
      firstName: '"PayPal Security <security@paypal.com>"\r\nBcc: x@y.example',
      lastName: '\u202eＥｖｉｌ\u200b',
      companyName: 'Spoofers',
    });
    const { id } = await created(user, {
      product: 'PayPal Security <security@paypal.com>',
      company: '"PayPal" <security@paypal.com>',
      canUseReferrerName: true,
    });
    const draft = await app().inject({ method: 'GET', url: `/api/referrals/${id}/email-draft`, headers: user.headers });
    expect(draft.statusCode).toBe(404); // no draft yet: sending does not need one
    const response = await sendEmail(user, id, email({ to: ['jo@client.example'] }));
    expect(response.statusCode).toBe(200);
    const [event] = await introEvents([user.userId]);
    expect(event!.fromName).toBe('PayPal Security security paypal.com Bcc: x y.example Evil via Referral Hub');
    expect(event!.fromName).not.toMatch(/[<>@"\r\n\u202e\u200b]/);
  });

  it("falls back to the email's name when nothing is left of the name, and is capped", async () => {
    const blank = testUser('blank');
    await deliver(ctx, 'user.registered', {
      userId: blank.userId,
      email: blank.email,
      firstName: '<@>',
      lastName: '""',
      companyName: '',
    });
    const long = testUser('long');
    await deliver(ctx, 'user.registered', {
      userId: long.userId,
      email: long.email,
      firstName: 'A'.repeat(150),
      lastName: 'B',
      companyName: '',
    });
    for (const user of [blank, long]) {
      const { id } = await created(user, { canUseReferrerName: true });
      expect((await sendEmail(user, id, email({ to: ['jo@client.example'] }))).statusCode).toBe(200);
    }
    const [fromBlank] = await introEvents([blank.userId]);
    expect(fromBlank!.fromName).toBe(`${blank.email.split('@')[0]} via Referral Hub`);
    const [fromLong] = await introEvents([long.userId]);
    expect(fromLong!.fromName).toBe(`${'A'.repeat(64)} via Referral Hub`);
  });

  it('names nobody when the referrer did not allow their name: from Referral Hub, no reply to them', async () => {
    const user = testUser('private');
    await deliver(ctx, 'user.registered', {
      userId: user.userId,
      email: user.email,
      firstName: 'Paula',
      lastName: 'Private',
      companyName: 'Quiet Agency',
    });
    const { id } = await created(user, { canUseReferrerName: false });
    const draftEvent = {
      referralId: id,
      subject: 'An introduction to Slack',
      body: 'Someone in your network thought Slack could help.',
      recipients: { to: ['jo@client.example'], cc: [], bcc: [user.email] },
      source: 'template' as const,
    };
    await deliver(ctx, 'referral.draft_generated', draftEvent);
    const draft = await app().inject({ method: 'GET', url: `/api/referrals/${id}/email-draft`, headers: user.headers });
    // Slack is not a workspace here: no lead inbox, so no Reply-To (replies reach the platform's address).
    expect(draft.json()).toMatchObject({ from: 'Referral Hub', replyTo: '', alwaysCc: [] });
    const response = await sendEmail(user, id, email({ to: ['jo@client.example'], bcc: [user.email] }));
    expect(response.statusCode).toBe(200);
    const [event] = await introEvents([user.userId]);
    expect(event).toMatchObject({ fromName: 'Referral Hub', replyTo: '', bcc: [user.email] });
    expect(JSON.stringify({ from: event!.fromName, replyTo: event!.replyTo })).not.toMatch(/Paula|Private|private-/);
  });
});
