import { ERRORS, Lead, Referral, ReferralList, type EventPayload } from '@app/contracts';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counts,
  deliver,
  referralInput,
  saveCriteria,
  saveVendor,
  startReferrals,
  testUser,
  type TestContext,
  type TestUser,
  type TestVendor,
} from './helpers.ts';

/**
 * The vendor's lead inbox against the real service: members of the verified workspace list, open, accept
 * and decline the leads routed to it; everyone else changes nothing.
 */
let ctx: TestContext;
const app = () => ctx.service.app;

const owner = testUser('owner');
const member = testUser('member');
const stranger = testUser('stranger');
const referrer = testUser('referrer');
let vendor: TestVendor;
let claimed: TestVendor;

const inbox = (user: TestUser, vendorId: string, path = '', method: 'GET' | 'POST' = 'GET', payload?: unknown) =>
  app().inject({
    method,
    url: `/api/vendors/${vendorId}/leads${path}`,
    headers: user.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function lead(user: TestUser, referralId: number): Promise<Lead> {
  const response = await inbox(user, vendor.vendorId, `/${referralId}`);
  expect(response.statusCode, response.body).toBe(200);
  return Lead.parse(response.json());
}

async function referralOf(id: number): Promise<Referral> {
  const response = await app().inject({ method: 'GET', url: `/api/referrals/${id}`, headers: referrer.headers });
  expect(response.statusCode, response.body).toBe(200);
  return Referral.parse(response.json());
}

/** A referral routed to the vendor (by its website). */
async function routed(overrides: Record<string, unknown> = {}): Promise<Referral> {
  const response = await app().inject({
    method: 'POST',
    url: '/api/referrals',
    headers: referrer.headers,
    payload: referralInput({
      website: vendor.domain,
      client: { name: 'Globex GmbH', country: 'Germany', size: '51-200', industry: 'Software' },
      notes: 'Ask for Hans',
      ...overrides,
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return Referral.parse(response.json());
}

/** Every row of the tables a lead decision touches, to prove a refusal changed nothing. */
async function snapshot() {
  const { rows } = await ctx.sql.query(
    `SELECT (SELECT json_agg(r ORDER BY r.id) FROM referrals.referrals r) referrals,
            (SELECT json_agg(t ORDER BY t.id) FROM referrals.referral_timeline t) timeline,
            (SELECT json_agg(c ORDER BY c.user_id, c.status) FROM referrals.referrer_stage_counts c) stage_counts`,
  );
  return { ...(await counts(ctx.sql)), ...rows[0] };
}

const eventsOf = (name: 'lead.accepted' | 'lead.declined', referralId: number) =>
  ctx.published.filter((e) => e.name === name && (e.payload as { referralId: number }).referralId === referralId);

beforeAll(async () => {
  ctx = await startReferrals();
  await deliver(ctx, 'user.registered', {
    userId: referrer.userId,
    email: referrer.email,
    firstName: 'Rita',
    lastName: 'Referrer',
    companyName: 'Referrers Inc',
  });
  vendor = await saveVendor(ctx, { name: 'Acme Analytics', members: [owner, member] });
  await saveCriteria(ctx, vendor.vendorId, { countries: ['Germany'] });
  // The stranger owns an unverified claim of another company.
  claimed = await saveVendor(ctx, { name: 'Claimed Co', members: [stranger], verified: false });
});

afterAll(async () => {
  await ctx?.close();
});

describe('the lead inbox', () => {
  it('shows members the routed leads, newest first, with client, referrer, reason, notes, fit, draft and timeline', async () => {
    const first = await routed({ referredFirstName: 'Old' });
    const second = await routed({ referredFirstName: 'New' });
    const elsewhere = await routed({ website: '', company: 'Not On The Platform' });
    await deliver(ctx, 'referral.draft_generated', {
      referralId: second.id,
      subject: 'Meet Acme',
      body: 'Hello Hans',
      recipients: { to: ['grace@navy.example'], cc: [], bcc: [] },
      source: 'template',
    });
    for (const user of [owner, member]) {
      const response = await inbox(user, vendor.vendorId);
      expect(response.statusCode, response.body).toBe(200);
      const leads = Lead.array().parse(response.json());
      expect(leads.map((l) => l.referralId).slice(0, 2)).toEqual([second.id, first.id]);
      expect(leads.some((l) => l.referralId === elsewhere.id)).toBe(false);
    }
    const one = await lead(member, second.id);
    expect(one).toEqual({
      referralId: second.id,
      createdAt: second.createdAt,
      status: 'new',
      declineReason: null,
      decidedAt: null,
      productName: 'Slack',
      client: { name: 'Globex GmbH', website: '', country: 'Germany', size: '51-200', industry: 'Software' },
      contact: { firstName: 'New', lastName: 'Hopper', email: 'grace@navy.example' },
      referrer: { name: 'Rita Referrer', company: 'Referrers Inc', email: referrer.email },
      reason: 'Needs a compiler for her team',
      notes: 'Ask for Hans',
      fit: { fits: ['Serves Germany'], fails: [], unknown: [] },
      introEmail: { subject: 'Meet Acme', body: 'Hello Hans', sentAt: null },
      timeline: second.timeline,
      stage: 'pending',
      // The vendor sees the same money as the referrer (no bounties saved here: nothing earned or expected).
      money: second.money,
    } satisfies Lead);
    expect(one.money).toMatchObject({ currency: 'USD', earnedCents: 0, expectedCents: null, commissions: [] });
    const filtered = Lead.array().parse((await inbox(owner, vendor.vendorId, '?status=accepted')).json());
    expect(filtered.some((l) => l.referralId === second.id)).toBe(false);
  });

  it('answers 404 for an unknown workspace, a lead of another vendor or a referral that was not routed', async () => {
    const notRouted = await routed({ website: '', company: 'Elsewhere Ltd' });
    const other = await saveVendor(ctx, { name: 'Other Vendor', members: [owner] });
    const theirs = await routed({ website: other.domain });
    const expectations: Array<[string, string, number, string]> = [
      ['00000000-0000-0000-0000-000000000000', '', 404, 'VENDOR_NOT_FOUND'],
      [vendor.vendorId, `/${notRouted.id}`, 404, 'LEAD_NOT_FOUND'],
      [vendor.vendorId, `/${theirs.id}`, 404, 'LEAD_NOT_FOUND'],
      [vendor.vendorId, '/99999999999', 404, 'LEAD_NOT_FOUND'],
      [vendor.vendorId, '/abc', 400, 'VALIDATION_FAILED'],
    ];
    for (const [vendorId, path, status, code] of expectations) {
      const response = await inbox(owner, vendorId, path);
      expect([path, response.statusCode, response.json().code]).toEqual([path, status, code]);
    }
  });

  it('pages from a lead: `limit` of the newest, then those older than `before`, each lead once, in order', async () => {
    for (let n = 0; n < 5; n += 1) await routed({ referredFirstName: `Paged${n}` });
    const all = Lead.array().parse((await inbox(owner, vendor.vendorId)).json());
    expect(all.length).toBeGreaterThanOrEqual(5);
    const pages: number[][] = [];
    let before: number | undefined;
    for (;;) {
      const response = await inbox(owner, vendor.vendorId, `?limit=2${before ? `&before=${before}` : ''}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = Lead.array()
        .parse(response.json())
        .map((l) => l.referralId);
      expect(page.length).toBeLessThanOrEqual(2);
      if (page.length === 0) break;
      pages.push(page);
      before = page.at(-1);
    }
    expect(pages.flat()).toEqual(all.map((l) => l.referralId));
    expect(pages.slice(0, -1).every((page) => page.length === 2)).toBe(true);

    // With a status: the pages of that status only.
    const fresh = all.filter((l) => l.status === 'new').map((l) => l.referralId);
    const firstNew = Lead.array().parse((await inbox(owner, vendor.vendorId, '?status=new&limit=1')).json());
    const nextNew = Lead.array().parse(
      (await inbox(owner, vendor.vendorId, `?status=new&limit=2&before=${fresh[0]}`)).json(),
    );
    expect([...firstNew, ...nextNew].map((l) => l.referralId)).toEqual(fresh.slice(0, 3));
  });

  it("answers nothing from a `before` that is not one of the inbox's leads (another vendor's, not routed, unknown)", async () => {
    const other = await saveVendor(ctx, { name: 'Paging Rival', members: [member] });
    const theirs = await routed({ website: other.domain });
    const notRouted = await routed({ website: '', company: 'Nowhere Ltd' });
    for (const before of [theirs.id, notRouted.id, 2_000_000_000]) {
      const response = await inbox(owner, vendor.vendorId, `?before=${before}`);
      expect([before, response.statusCode, response.json()]).toEqual([before, 200, []]);
    }
  });

  it.each([
    ['a limit of 0', '?limit=0', 'Limit must be a whole number from 1 to 500'],
    ['a limit over 500', '?limit=501', 'Limit must be a whole number from 1 to 500'],
    ['a limit in exponent notation', '?limit=1e2', 'Limit must be a whole number from 1 to 500'],
    [
      'a before that is no number',
      '?before=abc',
      'The lead to page from must be a whole number from 1 to 2,147,483,647',
    ],
    ['a before past the ids', '?before=2147483648', 'The lead to page from must be a whole number'],
    ['an unknown parameter', '?page=2', 'Unrecognized key: "page"'],
  ])('refuses %s with a clear 400', async (_case, query, message) => {
    const response = await inbox(owner, vendor.vendorId, query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining(message) });
  });
});

describe('who may work in the inbox', () => {
  it('refuses non-members (403 NOT_A_MEMBER) and members of an unverified workspace (403 WORKSPACE_NOT_VERIFIED), changing nothing', async () => {
    const referral = await routed();
    const calls = [
      ['', 'GET', undefined],
      [`/${referral.id}`, 'GET', undefined],
      [`/${referral.id}/accept`, 'POST', {}],
      [`/${referral.id}/decline`, 'POST', { reason: 'Not for us' }],
    ] as const satisfies ReadonlyArray<[string, 'GET' | 'POST', unknown]>;
    // A stranger (even one with a workspace of their own), and someone who names the same company.
    const sameName = testUser('same-name');
    await deliver(ctx, 'user.registered', {
      userId: sameName.userId,
      email: sameName.email,
      firstName: 'Same',
      lastName: 'Name',
      companyName: 'ACME ANALYTICS, LLC',
    });
    const before = await snapshot();
    for (const user of [stranger, sameName]) {
      for (const [path, method, payload] of calls) {
        const response = await inbox(user, vendor.vendorId, path, method, payload);
        expect([path, response.statusCode, response.json()]).toEqual([
          path,
          403,
          { code: 'NOT_A_MEMBER', message: ERRORS.NOT_A_MEMBER.message },
        ]);
      }
    }
    // The stranger is a member of an unverified workspace: its inbox stays shut too.
    for (const [path, method, payload] of calls) {
      const response = await inbox(stranger, claimed.vendorId, path, method, payload);
      expect([path, response.statusCode, response.json().code]).toEqual([path, 403, 'WORKSPACE_NOT_VERIFIED']);
    }
    expect(await snapshot()).toEqual(before);
    expect((await referralOf(referral.id)).lead?.status).toBe('new');
  });

  it('shuts the inbox when the workspace loses its verification, and to a member who was removed', async () => {
    const lapsing = await saveVendor(ctx, { name: 'Lapsing Co', members: [owner, member] });
    const referral = await routed({ website: lapsing.domain });
    expect((await inbox(member, lapsing.vendorId, `/${referral.id}`)).statusCode).toBe(200);
    await saveVendor(ctx, { ...lapsing, members: [owner], version: 2 });
    expect((await inbox(member, lapsing.vendorId)).json().code).toBe('NOT_A_MEMBER');
    await saveVendor(ctx, { ...lapsing, members: [owner], verified: false, version: 3 });
    expect((await inbox(owner, lapsing.vendorId)).json().code).toBe('WORKSPACE_NOT_VERIFIED');
  });
});

describe('accepting and declining', () => {
  it('accepts once: the referrer sees it on their timeline and is emailed (lead.accepted)', async () => {
    const referral = await routed();
    const response = await inbox(member, vendor.vendorId, `/${referral.id}/accept`, 'POST', {});
    expect(response.statusCode, response.body).toBe(200);
    const accepted = Lead.parse(response.json());
    expect(accepted).toMatchObject({ status: 'accepted', declineReason: null });
    expect(Date.parse(accepted.decidedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const before = await snapshot();
    for (const path of ['accept', 'decline']) {
      const again = await inbox(owner, vendor.vendorId, `/${referral.id}/${path}`, 'POST', { reason: 'Changed mind' });
      expect([again.statusCode, again.json()]).toEqual([
        409,
        { code: 'LEAD_ALREADY_DECIDED', message: ERRORS.LEAD_ALREADY_DECIDED.message },
      ]);
    }
    expect(await snapshot()).toEqual(before);
    const seen = await referralOf(referral.id);
    // Accepting is the vendor's answer, not a stage: the referral stays where the referrer put it.
    expect(seen.status).toBe('pending');
    expect(seen.lead).toMatchObject({ status: 'accepted', decidedAt: accepted.decidedAt, declineReason: null });
    expect(seen.timeline.at(-1)).toMatchObject({
      actor: 'vendor',
      kind: 'accepted',
      text: 'Acme Analytics accepted the lead',
    });
    // Both sides read the same timeline.
    expect((await lead(owner, referral.id)).timeline).toEqual(seen.timeline);
    const [event] = await eventually(
      () => eventsOf('lead.accepted', referral.id).length === 1 && eventsOf('lead.accepted', referral.id),
      5000,
      'lead.accepted',
    );
    expect(event!.payload).toEqual({
      referralId: referral.id,
      vendorName: 'Acme Analytics',
      referrerEmail: referrer.email,
      referrerFirstName: 'Rita',
      clientName: 'Globex GmbH',
      productName: 'Slack',
    } satisfies EventPayload<'lead.accepted'>);
  });

  it('declines with a reason: the referral becomes Declined (history, figures), the referrer sees why and is emailed', async () => {
    const referral = await routed();
    const list = async () =>
      ReferralList.parse(
        (await app().inject({ method: 'GET', url: '/api/referrals?days=all', headers: referrer.headers })).json(),
      );
    const declinedBefore = (await list()).summary.declined;
    const before = await snapshot();
    for (const payload of [{}, { reason: '   ' }, { reason: 'x'.repeat(1001) }, { reason: 'ok', extra: 1 }]) {
      const refused = await inbox(owner, vendor.vendorId, `/${referral.id}/decline`, 'POST', payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await inbox(owner, vendor.vendorId, `/${referral.id}/decline`, 'POST', {})).json().message).toBe(
      'Please tell the referrer why',
    );
    expect(await snapshot()).toEqual(before);

    const response = await inbox(owner, vendor.vendorId, `/${referral.id}/decline`, 'POST', {
      reason: 'We only serve hospitals',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(Lead.parse(response.json())).toMatchObject({ status: 'declined', declineReason: 'We only serve hospitals' });
    const seen = await referralOf(referral.id);
    expect(seen.status).toBe('declined');
    expect(seen.history.map((h) => [h.from, h.to])).toEqual([
      [null, 'pending'],
      ['pending', 'declined'],
    ]);
    expect(seen.lead).toMatchObject({ status: 'declined', declineReason: 'We only serve hospitals' });
    expect(seen.timeline.map((t) => [t.actor, t.kind, t.text])).toEqual([
      ['referrer', 'submitted', 'Referral submitted'],
      ['system', 'routed', "Sent to Acme Analytics' lead inbox"],
      ['vendor', 'declined', 'Acme Analytics declined the lead: We only serve hospitals'],
    ]);
    expect((await list()).summary.declined).toBe(declinedBefore + 1);
    const [event] = await eventually(
      () => eventsOf('lead.declined', referral.id).length === 1 && eventsOf('lead.declined', referral.id),
      5000,
      'lead.declined',
    );
    expect(event!.payload).toMatchObject({ reason: 'We only serve hospitals', referrerEmail: referrer.email });
    await eventually(
      () =>
        ctx.published.some(
          (e) =>
            e.name === 'referral.status_changed' &&
            (e.payload as EventPayload<'referral.status_changed'>).referralId === referral.id &&
            (e.payload as EventPayload<'referral.status_changed'>).to === 'declined',
        ),
      5000,
      'referral.status_changed',
    );
    // The decline ends the lead: the referrer cannot move it on (a Closed-Won of theirs would count a deal the
    // vendor said is not one), in any stage, and nothing is written; Declined again changes nothing.
    const timeline = (await lead(member, referral.id)).timeline;
    for (const status of ['intro_made', 'became_customer', 'pending']) {
      const moved = await app().inject({
        method: 'PUT',
        url: `/api/referrals/${referral.id}/status`,
        headers: referrer.headers,
        payload: { status },
      });
      expect([moved.statusCode, moved.json().code]).toEqual([409, 'REFERRAL_ENDED']);
    }
    const again = await app().inject({
      method: 'PUT',
      url: `/api/referrals/${referral.id}/status`,
      headers: referrer.headers,
      payload: { status: 'declined' },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect((await lead(member, referral.id)).timeline).toEqual(timeline);
    expect((await lead(member, referral.id)).stage).toBe('declined');
  });

  it('lets exactly one of concurrent decisions win', async () => {
    for (let round = 0; round < 3; round++) {
      const referral = await routed();
      const decisions = await Promise.all(
        [owner, member, owner, member, owner, member].map((user, i) =>
          i % 2
            ? inbox(user, vendor.vendorId, `/${referral.id}/accept`, 'POST', {})
            : inbox(user, vendor.vendorId, `/${referral.id}/decline`, 'POST', { reason: `Reason ${i}` }),
        ),
      );
      expect(decisions.map((d) => d.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      const winner = Lead.parse(decisions.find((d) => d.statusCode === 200)!.json());
      const seen = await referralOf(referral.id);
      expect(seen.lead?.status).toBe(winner.status);
      expect(seen.status).toBe(winner.status === 'declined' ? 'declined' : 'pending');
      expect(seen.timeline.filter((t) => t.kind === 'accepted' || t.kind === 'declined')).toHaveLength(1);
      const { rows } = await ctx.sql.query(
        `SELECT count(*)::int AS n FROM referrals.outbox_events
          WHERE name IN ('lead.accepted', 'lead.declined') AND (payload->>'referralId')::int = $1`,
        [referral.id],
      );
      expect(rows[0].n).toBe(1);
    }
    // The figures still add up after the races.
    const list = ReferralList.parse(
      (await app().inject({ method: 'GET', url: '/api/referrals?days=all', headers: referrer.headers })).json(),
    );
    const { rows } = await ctx.sql.query<{ status: string; n: number }>(
      'SELECT status::text, count(*)::int n FROM referrals.referrals WHERE user_id = $1 GROUP BY status',
      [referrer.userId],
    );
    const actual = Object.fromEntries(rows.map((row) => [row.status, row.n]));
    expect(list.summary.declined).toBe(actual.declined ?? 0);
    expect(list.summary.total).toBe(rows.reduce((n, row) => n + row.n, 0));
  });
});
