import { randomUUID } from 'node:crypto';
import { ERRORS, Referral, REFERRAL_MESSAGES, type ErrorCode, type EventPayload } from '@app/contracts';
import { internalAuthToken } from '@app/kit';
import { claimAndStoreEmailDrafts } from '../src/repository.ts';
import { eventually, TEST_SECRET } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counts,
  deliver,
  redeliver,
  referralInput,
  saveVendor,
  startAiStub,
  startReferrals,
  testUser,
  websiteOf,
  type AiStub,
  type TestContext,
  type TestUser,
} from './helpers.ts';

let ctx: TestContext;
let ai: AiStub;
const app = () => ctx.service.app;

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

const get = (user: TestUser, url: string) => app().inject({ method: 'GET', url, headers: user.headers });
const referralOf = async (user: TestUser, id: number) =>
  Referral.parse((await get(user, `/api/referrals/${id}`)).json());

const draftEvent = (
  referralId: number,
  source: 'llm' | 'template' | 'enrichment',
  subject = `${source} subject`,
): EventPayload<'referral.draft_generated'> => ({
  referralId,
  subject,
  body: `Hello from the ${source} draft`,
  recipients: { to: ['grace@navy.example'], cc: [], bcc: [] },
  source,
});

const sendEmail = (user: TestUser, id: number, payload: unknown) =>
  app().inject({
    method: 'POST',
    url: `/api/referrals/${id}/send-email`,
    headers: user.headers,
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

const validEmail = {
  subject: 'Meet Grace',
  body: 'Grace, meet Slack.',
  recipients: { to: ['grace@navy.example'], cc: ['boss@navy.example'], bcc: [] },
};

beforeAll(async () => {
  ai = await startAiStub(internalAuthToken(TEST_SECRET));
  ctx = await startReferrals({ AI_URL: ai.url, AI_TIMEOUT_MS: '1000' });
});

afterAll(async () => {
  await ctx?.close();
  await ai?.close();
});

describe('the intro email draft', () => {
  it('is not found until the draft event arrives; checkOnly answers readiness either way', async () => {
    const user = testUser();
    const { id } = await created(user, { canUseReferrerName: true });
    const missing = await get(user, `/api/referrals/${id}/email-draft`);
    expect([missing.statusCode, missing.json()]).toEqual([
      404,
      { message: REFERRAL_MESSAGES.draftNotFound, code: 'DRAFT_NOT_READY' },
    ]);
    expect((await get(user, `/api/referrals/${id}/email-draft?checkOnly=true`)).json()).toEqual({
      ready: false,
      fromClay: false,
    });

    // Recipients are normalized: comma-separated text inside a list becomes separate addresses.
    await deliver(ctx, 'referral.draft_generated', {
      ...draftEvent(id, 'template'),
      recipients: { to: [' grace@navy.example , ada@x.example'], cc: [''], bcc: [] },
    });
    const ready = await get(user, `/api/referrals/${id}/email-draft`);
    expect(ready.statusCode).toBe(200);
    // Without user.registered, the referrer is named by their email's local part.
    expect(ready.json()).toEqual({
      emailDraft: {
        subject: 'template subject',
        body: 'Hello from the template draft',
        recipients: { to: ['grace@navy.example', 'ada@x.example'], cc: [], bcc: [] },
      },
      fromClay: false,
      from: `${user.email.split('@')[0]} via Referral Hub`,
      replyTo: user.email,
      alwaysCc: [],
      sendTo: { to: ['grace@navy.example', 'ada@x.example'], cc: [], bcc: [] },
    });
    expect((await get(user, `/api/referrals/${id}/email-draft?checkOnly=true`)).json()).toEqual({
      ready: true,
      fromClay: false,
    });
    expect((await get(user, `/api/referrals/${id}/email-draft?checkOnly=false`)).statusCode).toBe(200);
  });

  it('refuses unknown or malformed query parameters', async () => {
    const user = testUser();
    const { id } = await created(user);
    for (const [query, body] of [
      ['checkOnly=maybe', { message: 'checkOnly must be true or false', field: 'checkOnly' }],
      ['checkOnly=true&x=1', { message: 'Unrecognized key: "x"' }],
    ] as const) {
      const response = await get(user, `/api/referrals/${id}/email-draft?${query}`);
      expect([response.statusCode, response.json()]).toEqual([400, { ...body, code: 'VALIDATION_FAILED' }]);
    }
  });

  it('stays out of the Tee ups list (only whether one awaits approval); the referral and the draft endpoint carry it', async () => {
    const user = testUser();
    const { id } = await created(user);
    await deliver(ctx, 'referral.draft_generated', draftEvent(id, 'llm'), randomUUID());
    const item = (await get(user, '/api/referrals?days=all')).json().referrals[0];
    expect(item.id).toBe(id);
    expect(item).not.toHaveProperty('emailDraft');
    expect(item.awaitingApproval).toBe(true);
    expect((await referralOf(user, id)).emailDraft?.subject).toBe('llm subject');
    expect((await get(user, `/api/referrals/${id}/email-draft`)).json().emailDraft.subject).toBe('llm subject');
  });

  it('handles a redelivered event once', async () => {
    const user = testUser();
    const { id } = await created(user);
    const eventId = randomUUID();
    await deliver(ctx, 'referral.draft_generated', draftEvent(id, 'llm'), eventId);
    // Something changed the draft since (here: by hand); the redelivery must not overwrite it.
    await ctx.sql.query(
      `UPDATE referrals.referrals SET email_draft = jsonb_set(email_draft, '{subject}', '"changed"') WHERE id = $1`,
      [id],
    );
    const before = await counts(ctx.sql);
    await deliver(ctx, 'referral.draft_generated', draftEvent(id, 'llm'), eventId);
    await redeliver(ctx, eventId);
    expect(await counts(ctx.sql)).toEqual(before);
    expect((await referralOf(user, id)).emailDraft?.subject).toBe('changed');
    const { rows } = await ctx.sql.query('SELECT subscriber FROM referrals.processed_events WHERE event_id = $1', [
      eventId,
    ]);
    expect(rows).toEqual([{ subscriber: 'referrals-email-draft' }]);
  });

  it('prefers an enrichment draft: it replaces a template one and is never replaced by one', async () => {
    const user = testUser();
    const { id } = await created(user);
    await deliver(ctx, 'referral.draft_generated', draftEvent(id, 'template'));
    await deliver(ctx, 'referral.draft_generated', draftEvent(id, 'llm'));
    expect((await referralOf(user, id)).emailDraft?.subject).toBe('llm subject');
    await deliver(ctx, 'referral.draft_generated', draftEvent(id, 'enrichment'));
    expect((await get(user, `/api/referrals/${id}/email-draft?checkOnly=true`)).json()).toEqual({
      ready: true,
      fromClay: true,
    });
    await deliver(ctx, 'referral.draft_generated', draftEvent(id, 'template', 'late template'));
    const referral = await referralOf(user, id);
    expect([referral.emailDraft?.subject, referral.fromClay]).toEqual(['enrichment subject', true]);
    await deliver(ctx, 'referral.draft_generated', draftEvent(id, 'enrichment', 'newer enrichment'));
    expect((await referralOf(user, id)).emailDraft?.subject).toBe('newer enrichment');
  });

  it('never replaces the draft of an email already sent, and never stores an invalid draft', async () => {
    const user = testUser();
    const { id } = await created(user);
    await deliver(ctx, 'referral.draft_generated', { ...draftEvent(id, 'llm'), subject: '   ' });
    await deliver(ctx, 'referral.draft_generated', {
      ...draftEvent(id, 'llm'),
      recipients: { to: ['not an address'], cc: [], bcc: [] },
    });
    expect((await referralOf(user, id)).emailDraft).toBeNull();
    expect((await sendEmail(user, id, validEmail)).statusCode).toBe(200);
    await deliver(ctx, 'referral.draft_generated', draftEvent(id, 'enrichment'));
    expect((await referralOf(user, id)).emailDraft?.subject).toBe('Meet Grace');
    // An event for a referral that does not exist is consumed without effect.
    await deliver(ctx, 'referral.draft_generated', draftEvent(2_000_000, 'llm'));
  });
});

describe('intro email drafts arriving together', () => {
  it('are claimed and stored by one statement with the rules of one alone, each answered on its own', async () => {
    const user = testUser();
    const [fresh, sent, enriched, before, upgraded] = await Promise.all([1, 2, 3, 4, 5].map(() => created(user)));
    expect((await sendEmail(user, sent!.id, validEmail)).statusCode).toBe(200);
    await deliver(ctx, 'referral.draft_generated', draftEvent(enriched!.id, 'enrichment'));
    const handledBefore = await deliver(ctx, 'referral.draft_generated', draftEvent(before!.id, 'llm', 'first'));
    await deliver(ctx, 'referral.draft_generated', draftEvent(upgraded!.id, 'llm'));
    const one = (referralId: number, source: 'llm' | 'template' | 'enrichment', eventId: string = randomUUID()) => {
      const { subject, body, recipients } = draftEvent(referralId, source);
      return {
        subscriber: 'referrals-email-draft',
        eventId,
        referralId,
        draft: { subject, body, recipients },
        fromEnrichment: source === 'enrichment',
      };
    };
    const answers = await claimAndStoreEmailDrafts(ctx.service.pool, [
      one(fresh!.id, 'llm'),
      one(sent!.id, 'enrichment'), // the email left: its draft is what was sent
      one(enriched!.id, 'template'), // an enrichment draft is kept
      one(before!.id, 'llm', handledBefore), // a redelivery
      one(2_000_000, 'llm'), // no such referral
      one(upgraded!.id, 'enrichment'),
    ]);
    expect(answers).toEqual([
      { claimed: true, stored: true },
      { claimed: true, stored: false },
      { claimed: true, stored: false },
      { claimed: false, stored: false },
      { claimed: true, stored: false },
      { claimed: true, stored: true },
    ]);
    const subjects = await Promise.all(
      [fresh, sent, enriched, before, upgraded].map(async (r) => {
        const referral = await referralOf(user, r!.id);
        return [referral.emailDraft?.subject, referral.fromClay];
      }),
    );
    expect(subjects).toEqual([
      ['llm subject', false],
      ['Meet Grace', false],
      ['enrichment subject', true],
      ['first', false],
      ['enrichment subject', true],
    ]);
  });

  it('many at once, two of them for one referral: every draft stored, the enrichment one kept', async () => {
    const user = testUser();
    const referrals = await Promise.all(Array.from({ length: 30 }, () => created(user)));
    const [twice] = referrals;
    await Promise.all([
      ...referrals.map((r) => deliver(ctx, 'referral.draft_generated', draftEvent(r.id, 'llm', `draft ${r.id}`))),
      deliver(ctx, 'referral.draft_generated', draftEvent(twice!.id, 'enrichment')),
    ]);
    for (const r of referrals.slice(1))
      expect((await referralOf(user, r.id)).emailDraft?.subject).toBe(`draft ${r.id}`);
    // Whichever came first, the enrichment draft is the one kept.
    expect((await referralOf(user, twice!.id)).emailDraft?.subject).toBe('enrichment subject');
  });
});

describe('POST /api/referrals/:id/send-email', () => {
  it('records the sent draft and asks the mail service once: from the referrer via Referral Hub, reply to them', async () => {
    const user = testUser('sender');
    await deliver(ctx, 'user.registered', {
      userId: user.userId,
      email: user.email,
      firstName: 'Sam',
      lastName: 'Sender',
      companyName: 'Senders Ltd',
    });
    const { id } = await created(user, { canUseReferrerName: true });
    const response = await sendEmail(user, id, {
      ...validEmail,
      recipients: { to: 'grace@navy.example, second@navy.example', cc: '["boss@navy.example"]' },
    });
    expect([response.statusCode, response.json()]).toEqual([
      200,
      { success: true, message: REFERRAL_MESSAGES.emailSent },
    ]);
    const referral = await referralOf(user, id);
    expect(referral.emailDraft).toEqual({
      subject: 'Meet Grace',
      body: 'Grace, meet Slack.',
      recipients: { to: ['grace@navy.example', 'second@navy.example'], cc: ['boss@navy.example'], bcc: [] },
    });
    expect(Date.parse(referral.emailSentAt!)).toBeGreaterThan(Date.now() - 60_000);
    const event = await eventually(
      () =>
        ctx.published.find(
          (e) => e.name === 'referral.intro_email_requested' && (e.payload as { referralId: number }).referralId === id,
        ),
      5000,
      'intro email event',
    );
    expect(event.payload).toEqual({
      referralId: id,
      // A warm intro from the referrer, never signed or named as the vendor (nor the product).
      fromName: 'Sam Sender via Referral Hub',
      replyTo: user.email,
      to: ['grace@navy.example', 'second@navy.example'],
      cc: ['boss@navy.example'],
      bcc: [],
      subject: 'Meet Grace',
      body: 'Grace, meet Slack.',
    } satisfies EventPayload<'referral.intro_email_requested'>);

    const before = await counts(ctx.sql);
    const again = await sendEmail(user, id, validEmail);
    expect([again.statusCode, again.json()]).toEqual([
      409,
      { message: REFERRAL_MESSAGES.alreadySent, code: 'EMAIL_ALREADY_SENT' },
    ]);
    expect(await counts(ctx.sql)).toEqual(before);
  });

  it('sends once when two sends race', async () => {
    const user = testUser();
    const { id } = await created(user);
    const responses = await Promise.all([
      sendEmail(user, id, validEmail),
      sendEmail(user, id, { ...validEmail, subject: 'Other' }),
      sendEmail(user, id, validEmail),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const { rows } = await ctx.sql.query(
      "SELECT count(*)::int n FROM referrals.outbox_events WHERE name = 'referral.intro_email_requested' AND (payload->>'referralId')::int = $1",
      [id],
    );
    expect(rows[0].n).toBe(1);
  });

  it.each([
    ['malformed JSON', '{"subject":', 'Malformed JSON body'],
    ['no recipient', { ...validEmail, recipients: { to: [] } }, 'At least one recipient is required'],
    ['blank recipients', { ...validEmail, recipients: { to: ' , ' } }, 'At least one recipient is required'],
    ['an invalid recipient', { ...validEmail, recipients: { to: ['nope'] } }, 'Invalid recipient email address'],
    ['a missing subject', { ...validEmail, subject: undefined }, 'Subject is required'],
    ['a blank body', { ...validEmail, body: ' ' }, 'Email body is required'],
    ['a wrong type', { ...validEmail, subject: 7 }, 'Subject is required'],
    ['an unknown field', { ...validEmail, from: 'ceo@example.com' }, 'Unrecognized key: "from"'],
    ['an overlong subject', { ...validEmail, subject: 'x'.repeat(301) }, 'Subject must be at most 300 characters'],
    [
      'too many recipients',
      { ...validEmail, recipients: { to: Array.from({ length: 6 }, (_, i) => `r${i}@x.example`) } },
      'At most 5 addresses per field',
    ],
  ])('answers %s with a clear 400 and sends nothing', async (_case, payload, message) => {
    const user = testUser();
    const { id } = await created(user);
    const before = await counts(ctx.sql);
    const response = await sendEmail(user, id, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(ERRORS[response.json().code as ErrorCode].status).toBe(400);
    expect(await counts(ctx.sql)).toEqual(before);
    expect((await referralOf(user, id)).emailSentAt).toBeNull();
  });
});

describe('PUT /api/referrals/:id/status', () => {
  const setStatus = (user: TestUser, id: number, payload: unknown) =>
    app().inject({
      method: 'PUT',
      url: `/api/referrals/${id}/status`,
      headers: user.headers,
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('records every change with its time, in any order, and announces it', async () => {
    const user = testUser();
    const { id, projectId } = await created(user);
    for (const status of ['intro_made', 'became_customer', 'declined', 'pending'] as const) {
      const response = await setStatus(user, id, { status });
      expect(response.statusCode).toBe(200);
      expect(Referral.parse(response.json()).status).toBe(status);
    }
    const referral = await referralOf(user, id);
    expect(referral.history.map((h) => [h.from, h.to])).toEqual([
      [null, 'pending'],
      ['pending', 'intro_made'],
      ['intro_made', 'became_customer'],
      ['became_customer', 'declined'],
      ['declined', 'pending'],
    ]);
    expect(referral.history.map((h) => h.at)).toEqual([...referral.history.map((h) => h.at)].sort());
    const events = await eventually(
      () => {
        const found = ctx.published.filter(
          (e) => e.name === 'referral.status_changed' && (e.payload as { referralId: number }).referralId === id,
        );
        return found.length === 4 && found;
      },
      5000,
      'four status events',
    );
    expect(events[0]!.payload).toMatchObject({
      referralId: id,
      userId: user.userId,
      projectId,
      from: 'pending',
      to: 'intro_made',
    });
  });

  it('keeps the summary figures exact under concurrent changes (and they never deadlock)', async () => {
    const user = testUser();
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await created(user, { company: `Company ${i % 2}` })).id);
    const stages = ['pending', 'intro_made', 'became_customer', 'declined'] as const;
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        setStatus(user, ids[i % 4]!, { status: stages[(i * 7 + Math.floor(i / 4)) % 4] }),
      ),
    );
    expect(responses.map((r) => r.statusCode).every((code) => code === 200)).toBe(true);
    const list = (await get(user, '/api/referrals?days=all')).json();
    const { rows } = await ctx.sql.query<{ status: string; n: number }>(
      'SELECT status::text, count(*)::int n FROM referrals.referrals WHERE user_id = $1 GROUP BY status',
      [user.userId],
    );
    const actual = Object.fromEntries(rows.map((row) => [row.status, row.n]));
    expect(list.summary).toEqual({
      total: 4,
      inFlight: 4 - (actual.became_customer ?? 0) - (actual.declined ?? 0),
      closedWon: actual.became_customer ?? 0,
      declined: actual.declined ?? 0,
    });
    expect(list.companies).toEqual(['Company 0', 'Company 1']);
    // Every recorded change starts where the previous one ended.
    for (const id of ids) {
      const history = (await referralOf(user, id)).history;
      history.slice(1).forEach((change, i) => expect(change.from).toBe(history[i]!.to));
    }
  });

  it('counts concurrent creates (and changes) exactly: the kept figures equal the referrals counted', async () => {
    const users = [testUser(), testUser()];
    const products = [0, 1, 2].map((i) => `Figures ${randomUUID()} ${i}`);
    const tag = randomUUID().slice(0, 8);
    const companies = [`Acme${tag}`, `Beta${tag} Corp`, `Gamma${tag}`];
    // Two of the three are vendor workspaces: their referrals are counted to them too.
    await saveVendor(ctx, { name: companies[0]! });
    await saveVendor(ctx, { name: companies[2]! });
    const to = (company: string) => ({ company, website: websiteOf(company) });
    // Stage changes of the same users' referrals meanwhile: each locks figures and stage rows a create also
    // locks, so a create taking them in another order deadlocks (it did, with its counts in its insert).
    const first = await Promise.all(
      Array.from({ length: 8 }, (_, i) => created(users[i % 2]!, { product: products[0], ...to(companies[0]!) })),
    );
    const creates = Array.from({ length: 24 }, (_, i) =>
      created(users[i % 2]!, { product: products[i % 3], ...to(companies[Math.floor(i / 3) % 3]!) }),
    );
    const changes = first.map((referral, i) => setStatus(users[i % 2]!, referral.id, { status: 'intro_made' }));
    const [, statuses] = await Promise.all([Promise.all(creates), Promise.all(changes)]);
    expect(statuses.map((response) => response.statusCode)).toEqual(first.map(() => 200));
    const userIds = users.map((user) => user.userId);
    const { rows } = await ctx.sql.query(
      `SELECT (SELECT json_agg(k ORDER BY k.user_id, k.status) FROM (
                SELECT user_id, status::text, count FROM referrals.referrer_stage_counts
                 WHERE user_id = ANY($1) AND count <> 0) k) AS stages_kept,
              (SELECT json_agg(c ORDER BY c.user_id, c.status) FROM (
                SELECT user_id, status::text, count(*)::int AS count FROM referrals.referrals
                 WHERE user_id = ANY($1) GROUP BY 1, 2) c) AS stages_counted,
              (SELECT json_agg(k ORDER BY k.vendor_id) FROM (
                SELECT vendor_id, count FROM referrals.vendor_lead_counts
                 WHERE vendor_id IN (SELECT vendor_id FROM referrals.referrals WHERE user_id = ANY($1))) k) AS vendors_kept,
              (SELECT json_agg(c ORDER BY c.vendor_id) FROM (
                SELECT vendor_id, count(*)::int AS count FROM referrals.referrals
                 WHERE vendor_id IN (SELECT vendor_id FROM referrals.referrals WHERE user_id = ANY($1)) GROUP BY 1) c) AS vendors_counted,
              (SELECT json_agg(k ORDER BY k.user_id, k.company) FROM (
                SELECT user_id, company FROM referrals.referrer_companies WHERE user_id = ANY($1)) k) AS companies_kept,
              (SELECT json_agg(c ORDER BY c.user_id, c.company) FROM (
                SELECT DISTINCT user_id, company FROM referrals.referrals
                 WHERE user_id = ANY($1) AND company <> '') c) AS companies_counted`,
      [userIds],
    );
    const figures = rows[0];
    expect(figures.stages_counted).toHaveLength(4);
    expect(figures.stages_kept).toEqual(figures.stages_counted);
    expect(figures.vendors_counted).toHaveLength(2);
    expect(figures.vendors_kept).toEqual(figures.vendors_counted);
    expect(figures.companies_counted).toHaveLength(6);
    expect(figures.companies_kept).toEqual(figures.companies_counted);
  });

  it('treats setting the current status again as a no-op', async () => {
    const user = testUser();
    const { id } = await created(user);
    await setStatus(user, id, { status: 'intro_accepted' });
    const before = await counts(ctx.sql);
    const again = await setStatus(user, id, { status: 'intro_accepted' });
    expect(again.statusCode).toBe(200);
    expect(again.json().history).toHaveLength(2);
    expect(await counts(ctx.sql)).toEqual(before);
  });

  it.each([
    ['malformed JSON', '{"status"', 'Malformed JSON body'],
    ['an unknown status', { status: 'won' }, 'Unknown referral status'],
    ['a wrong type', { status: 3 }, 'Unknown referral status'],
    ['a missing status', {}, 'Unknown referral status'],
    ['an unknown field', { status: 'declined', at: '2020-01-01' }, 'Unrecognized key: "at"'],
    ['an overlong value', { status: 'x'.repeat(10_000) }, 'Unknown referral status'],
  ])('answers %s with a clear 400 and changes nothing', async (_case, payload, message) => {
    const user = testUser();
    const { id } = await created(user);
    const before = await counts(ctx.sql);
    const response = await setStatus(user, id, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(ERRORS[response.json().code as ErrorCode].status).toBe(400);
    expect(await counts(ctx.sql)).toEqual(before);
  });
});

describe('GET /api/products/:projectId/referral-program', () => {
  const program = (user: TestUser, projectId: string) =>
    get(user, `/api/products/${encodeURIComponent(projectId)}/referral-program`);
  const callsFor = (productName: string) => ai.calls.filter((c) => c.productName === productName).length;

  it("answers the project's known program without asking the AI", async () => {
    const user = testUser();
    const { projectId } = await created(user, { product: 'Known' });
    await ctx.sql.query(
      "UPDATE referrals.projects SET referral_program = 'Known program: $500 per customer' WHERE id = $1",
      [projectId],
    );
    const response = await program(user, projectId);
    expect([response.statusCode, response.json()]).toEqual([
      200,
      { referralProgram: 'Known program: $500 per customer' },
    ]);
    expect(callsFor('Known')).toBe(0);
  });

  it('asks the AI service (internal credential) and keeps a program it found', async () => {
    const user = testUser();
    const { projectId, id } = await created(user, { product: 'Programmed' });
    expect((await program(user, projectId)).json()).toEqual({
      referralProgram: 'Partners earn 20% of first-year revenue.',
    });
    expect((await program(testUser(), projectId)).json()).toEqual({
      referralProgram: 'Partners earn 20% of first-year revenue.',
    });
    expect(ai.calls.filter((c) => c.productName === 'Programmed')).toEqual([
      {
        productName: 'Programmed',
        authorized: true,
        question: expect.objectContaining({ productName: 'Programmed', vendorWebsite: null, programWebsite: null }),
      },
    ]);
    expect((await referralOf(user, id)).project.referralProgram).toBe('Partners earn 20% of first-year revenue.');
  });

  it("answers 'NO...' when the AI knows none, and does not ask again at once", async () => {
    const user = testUser();
    const { projectId } = await created(user, { product: 'Nameless' });
    expect((await program(user, projectId)).json()).toEqual({ referralProgram: REFERRAL_MESSAGES.noProgram });
    expect((await program(user, projectId)).json()).toEqual({ referralProgram: REFERRAL_MESSAGES.noProgram });
    expect(callsFor('Nameless')).toBe(1);
    expect(REFERRAL_MESSAGES.noProgram.startsWith('NO')).toBe(true);
  });

  it.each([
    ['fails', 'Broken'],
    ['is too slow', 'Slow'],
  ])(
    "answers 503 'couldn't check' (never 'NO') when the AI service %s, within AI_TIMEOUT_MS, and asks again next time",
    async (_case, product) => {
      const user = testUser();
      const { projectId } = await created(user, { product });
      for (let i = 0; i < 2; i++) {
        const started = Date.now();
        const response = await program(user, projectId);
        // Bounded by AI_TIMEOUT_MS (1 s here), long before the stub's 5 s.
        expect(Date.now() - started).toBeLessThan(3000);
        expect([response.statusCode, response.json()]).toEqual([
          503,
          {
            message: "We couldn't check this vendor's referral program right now. Please try again.",
            code: 'PROGRAM_CHECK_UNAVAILABLE',
          },
        ]);
      }
      expect(callsFor(product)).toBe(2);
      const { rows } = await ctx.sql.query(
        'SELECT referral_program, program_checked_at FROM referrals.projects WHERE id = $1',
        [projectId],
      );
      expect(rows[0]).toEqual({ referral_program: null, program_checked_at: null });
    },
  );

  it("answers 'NO...' when the AI answers text the web reads as no program, and remembers it", async () => {
    const user = testUser();
    const { projectId } = await created(user, { product: 'Denied' });
    for (let i = 0; i < 2; i++) {
      const response = await program(user, projectId);
      expect([response.statusCode, response.json()]).toEqual([200, { referralProgram: REFERRAL_MESSAGES.noProgram }]);
    }
    expect(callsFor('Denied')).toBe(1);
    const { rows } = await ctx.sql.query('SELECT referral_program FROM referrals.projects WHERE id = $1', [projectId]);
    expect(rows[0].referral_program).toBeNull();
  });

  it("answers 503 'couldn't check' quickly when the AI service is down (nothing listens)", async () => {
    const down = await startReferrals({ AI_URL: 'http://127.0.0.1:9', AI_TIMEOUT_MS: '300' });
    try {
      const user = testUser();
      const response = await down.service.app.inject({
        method: 'POST',
        url: '/api/referrals',
        headers: user.headers,
        payload: referralInput({ product: 'Unreachable' }),
      });
      const started = Date.now();
      const answer = await down.service.app.inject({
        method: 'GET',
        url: `/api/products/${response.json().projectId}/referral-program`,
        headers: user.headers,
      });
      expect(Date.now() - started).toBeLessThan(3000);
      expect([answer.statusCode, answer.json().code]).toEqual([503, 'PROGRAM_CHECK_UNAVAILABLE']);
    } finally {
      await down.close();
    }
  });

  it("answers 404 'Product not found' for an unknown project", async () => {
    // (Fastify itself refuses path parameters over 100 characters, with 414.)
    for (const projectId of ['no-such-product', 'x'.repeat(100)]) {
      const response = await program(testUser(), projectId);
      expect([response.statusCode, response.json()]).toEqual([
        404,
        { message: 'Product not found', code: 'PRODUCT_NOT_FOUND' },
      ]);
    }
  });

  it("answers 'NO...' without an AI service configured", async () => {
    const bare = await startReferrals();
    try {
      const user = testUser();
      const response = await bare.service.app.inject({
        method: 'POST',
        url: '/api/referrals',
        headers: user.headers,
        payload: referralInput({ product: 'Programmed' }),
      });
      const answer = await bare.service.app.inject({
        method: 'GET',
        url: `/api/products/${response.json().projectId}/referral-program`,
        headers: user.headers,
      });
      expect(answer.json()).toEqual({ referralProgram: REFERRAL_MESSAGES.noProgram });
    } finally {
      await bare.close();
    }
  });
});

describe('POST /api/referrals/:id/automate', () => {
  const automate = (user: TestUser, id: number, payload?: unknown) =>
    app().inject({
      method: 'POST',
      url: `/api/referrals/${id}/automate`,
      headers: payload === undefined ? { 'x-identity': user.headers['x-identity']! } : user.headers,
      payload: payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('runs a mock dry run only, submitting and recording nothing', async () => {
    const user = testUser();
    const { id } = await created(user, { product: 'Acme Forms' });
    const before = await counts(ctx.sql);
    for (const payload of [{ dryRun: true }, {}, undefined]) {
      const response = await automate(user, id, payload);
      expect([response.statusCode, response.json()]).toEqual([
        200,
        {
          success: true,
          message: 'Mock dry run: the referral form for Acme Forms was filled but not submitted.',
          // No website known for the product, its vendor or a program: the preview plays the generic form.
          website: null,
        },
      ]);
    }
    expect(await counts(ctx.sql)).toEqual(before);
  });

  it.each([
    ['a real run', { dryRun: false }, 'Only dry runs are supported'],
    ['a wrong type', { dryRun: 'yes' }, 'dryRun: Invalid input'],
    ['an unknown field', { dryRun: true, submit: true }, 'Unrecognized key: "submit"'],
    ['malformed JSON', '{"dryRun":', 'Malformed JSON body'],
  ])('refuses %s with a clear 400', async (_case, payload, message) => {
    const user = testUser();
    const { id } = await created(user);
    const before = await counts(ctx.sql);
    const response = await automate(user, id, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(ERRORS[response.json().code as ErrorCode].status).toBe(400);
    expect(await counts(ctx.sql)).toEqual(before);
  });
});
