import { randomUUID } from 'node:crypto';
import {
  AdminReferral,
  Commission,
  ImpactSummary,
  Lead,
  LedgerEntry,
  Payout,
  PayoutDue,
  Referral,
  VendorCommissions,
  type Bounties,
  type ReferralStatus,
} from '@app/contracts';
import { DEFAULT_DEAL_VALUE_MAX_CENTS } from '@app/domain';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bounties,
  deliver,
  referralInput,
  saveVendor,
  startReferrals,
  testUser,
  websiteOf,
  type TestContext,
  type TestUser,
  type TestVendor,
} from './helpers.ts';

/** A payout's date: today's, as a payout cannot predate its commissions (earned as the test runs). */
const PAID_ON = new Date().toISOString().slice(0, 10);

/**
 * Honest money (issue 10): milestones earn only when the vendor confirms them (or an administrator records
 * them), commissions are immutable and every change is an append-only ledger entry, payouts are atomic
 * batches, and every total is computed from the ledger. Amounts are checked to the cent.
 */

let ctx: TestContext;
const app = () => ctx.service.app;
const admin = testUser('admin', { isAdmin: true });

const standard = bounties({
  qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
  meetingHeld: { enabled: true, type: 'percentage_arr', amount: 5 },
  opportunityCreated: { enabled: true, type: 'flat', amount: 250.55 },
  closedWon: { enabled: true, type: 'percentage_arr', amount: 20 },
  retentionBonus: { enabled: true, type: 'flat', amount: 500, months: 12 },
});

interface Setup {
  vendor: TestVendor;
  member: TestUser;
  referrer: TestUser;
}

/** A verified vendor with one member and bounties, and a referrer (with a profile). */
async function setup(saved: Bounties = standard, name = `Vendor ${randomUUID().slice(0, 6)}`): Promise<Setup> {
  const member = testUser('member');
  const vendor = await saveVendor(ctx, { name, members: [member] });
  await deliver(ctx, 'bounties.saved', { vendorId: vendor.vendorId, version: 1, bounties: saved });
  const referrer = testUser('referrer');
  await deliver(ctx, 'user.registered', {
    userId: referrer.userId,
    email: referrer.email,
    firstName: 'Rita',
    lastName: 'Referrer',
    companyName: 'Referrers Inc',
  } as never);
  return { vendor, member, referrer };
}

async function refer(s: Setup, overrides: Record<string, unknown> = {}): Promise<Referral> {
  const response = await app().inject({
    method: 'POST',
    url: '/api/referrals',
    headers: s.referrer.headers,
    payload: referralInput({ company: s.vendor.name, website: websiteOf(s.vendor.name), ...overrides }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const referral = Referral.parse(response.json());
  expect(referral.lead?.vendorId).toBe(s.vendor.vendorId);
  return referral;
}

const confirm = (user: TestUser, vendorId: string, referralId: number, body: Record<string, unknown>) =>
  app().inject({
    method: 'POST',
    url: `/api/vendors/${vendorId}/leads/${referralId}/milestones`,
    headers: user.headers,
    payload: body,
  });

async function confirmed(s: Setup, referralId: number, body: Record<string, unknown>): Promise<Lead> {
  const response = await confirm(s.member, s.vendor.vendorId, referralId, body);
  expect(response.statusCode, response.body).toBe(200);
  return Lead.parse(response.json());
}

const move = (user: TestUser, id: number, status: ReferralStatus) =>
  app().inject({ method: 'PUT', url: `/api/referrals/${id}/status`, headers: user.headers, payload: { status } });

async function referralOf(user: TestUser, id: number): Promise<Referral> {
  const response = await app().inject({ method: 'GET', url: `/api/referrals/${id}`, headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return Referral.parse(response.json());
}

async function impact(user: TestUser): Promise<ImpactSummary> {
  const response = await app().inject({ method: 'GET', url: '/api/referral-impact', headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return ImpactSummary.parse(response.json());
}

async function commissionsOf(user: TestUser): Promise<Commission[]> {
  const response = await app().inject({ method: 'GET', url: '/api/commissions', headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return Commission.array().parse(response.json());
}

/** milestone -> [gross, referrer, fee, state] of one referral. */
async function amountsOf(user: TestUser, referralId: number) {
  return Object.fromEntries(
    (await commissionsOf(user))
      .filter((c) => c.referralId === referralId)
      .map((c) => [c.milestone, [c.grossCents, c.referrerCents, c.feeCents, c.state]]),
  );
}

async function ledger(referralId: number): Promise<LedgerEntry[]> {
  const response = await app().inject({
    method: 'GET',
    url: `/api/admin/referrals/${referralId}/ledger`,
    headers: admin.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return LedgerEntry.array().parse(response.json());
}

const pay = (commissionIds: string[], reference = `REF-${randomUUID().slice(0, 8)}`) =>
  app().inject({
    method: 'POST',
    url: '/api/admin/payouts',
    headers: admin.headers,
    payload: { reference, method: 'bank_transfer', paidOn: PAID_ON, commissionIds },
  });

/** Rows of every money table: a refused request must leave them as they were. */
async function moneyRows() {
  const { rows } = await ctx.sql.query(
    `SELECT (SELECT count(*)::int FROM referrals.milestone_confirmations) confirmations,
            (SELECT count(*)::int FROM referrals.commissions) commissions,
            (SELECT count(*)::int FROM referrals.commission_entries) entries,
            (SELECT count(*)::int FROM referrals.payouts) payouts,
            (SELECT count(*)::int FROM referrals.referral_timeline) timeline,
            (SELECT count(*)::int FROM referrals.outbox_events) outbox,
            (SELECT coalesce(max(updated_at), 'epoch') FROM referrals.referrals) last_update,
            (SELECT coalesce(sum(coalesce(deal_value_cents, 0) + coalesce(expected_value_cents, 0)), 0)::text FROM referrals.referrals) deal_values`,
  );
  return rows[0] as Record<string, unknown>;
}

const eventsOf = (name: string, referralId: number) =>
  ctx.published.filter((e) => e.name === name && (e.payload as { referralId: number }).referralId === referralId);

/** The events of a referral once `count` of them were published (the relay publishes after the commit). */
const published = (name: string, referralId: number, count = 1) =>
  eventually(
    () => {
      const events = eventsOf(name, referralId);
      return events.length >= count && events;
    },
    10_000,
    `${count} ${name} of ${referralId}`,
  );

/** The payload of the last `lead.status_changed` of a referral with this change. */
const leadChange = (referralId: number, change: string) =>
  eventually(
    () =>
      eventsOf('lead.status_changed', referralId).find((e) => (e.payload as { change: string }).change === change)
        ?.payload,
    10_000,
    `lead.status_changed ${change}`,
  );

beforeAll(async () => {
  ctx = await startReferrals();
});

afterAll(async () => {
  await ctx?.close();
});

describe('earning', () => {
  it("earns nothing from the referrer's stage moves; the vendor's confirmations earn each bounty to the cent", async () => {
    const s = await setup();
    const { id } = await refer(s);

    // The referrer's own tracking: all the way to Closed-Won, nothing earned, only pending.
    for (const status of ['intro_made', 'intro_occurred', 'intro_accepted', 'became_customer'] as const)
      expect((await move(s.referrer, id, status)).statusCode).toBe(200);
    expect(await commissionsOf(s.referrer)).toEqual([]);
    // The vendor's CRM hears of the referrer's moves of a routed referral.
    expect(await leadChange(id, 'stage_changed')).toMatchObject({
      vendorId: s.vendor.vendorId,
      previousStage: 'pending',
      stage: 'intro_made',
      milestone: null,
    });
    let summary = await impact(s.referrer);
    // Pending: qualifiedLead $100 -> $70 and opportunityCreated $250.55 -> $175.39 (computable without a deal value).
    expect(summary.payoutSummary).toEqual({
      currency: 'USD',
      pendingCents: 7000 + 17539,
      inEscrowCents: 0,
      paidCents: 0,
      reversedCents: 0,
      earnedCents: 0,
    });
    expect(summary.pipelineValueCents).toBe(0);
    await move(s.referrer, id, 'pending');

    // Qualified lead: $100 flat, the referrer keeps 70%. The lead still 'new' is accepted by the confirmation,
    // and the referral moves forward to Warm Intro.
    let lead = await confirmed(s, id, { milestone: 'qualifiedLead', note: 'Great fit' });
    expect(lead.status).toBe('accepted');
    expect(lead.stage).toBe('intro_made');
    expect(await amountsOf(s.referrer, id)).toEqual({ qualifiedLead: [10000, 7000, 3000, 'in_escrow'] });
    summary = await impact(s.referrer);
    // Still pending: the opportunity the referrer's stage reached before (furthest stage), not confirmed.
    expect(summary.payoutSummary).toMatchObject({ pendingCents: 17539, inEscrowCents: 7000, earnedCents: 7000 });

    // Meeting held: 5% of a deal value nobody knows yet -> confirmed, nothing paid.
    lead = await confirmed(s, id, { milestone: 'meetingHeld' });
    expect(lead.stage).toBe('intro_occurred');
    expect(Object.keys(await amountsOf(s.referrer, id))).toEqual(['qualifiedLead']);
    expect(lead.money.milestones.find((m) => m.milestone === 'meetingHeld')).toMatchObject({
      state: 'confirmed',
      confirmedBy: 'vendor',
    });

    // Opportunity: the expected value is required and becomes the pipeline.
    expect((await confirm(s.member, s.vendor.vendorId, id, { milestone: 'opportunityCreated' })).json()).toMatchObject({
      code: 'DEAL_VALUE_REQUIRED',
      field: 'dealValueCents',
    });
    lead = await confirmed(s, id, { milestone: 'opportunityCreated', dealValueCents: 1_234_567 });
    expect(lead.stage).toBe('intro_accepted');
    expect(lead.money.expectedValueCents).toBe(1_234_567);
    // $250.55 -> 25055 cents; 70% = 17538.5 -> 17539 (half up); fee 7516.
    expect((await amountsOf(s.referrer, id)).opportunityCreated).toEqual([25055, 17539, 7516, 'in_escrow']);
    summary = await impact(s.referrer);
    expect(summary.pipelineValueCents).toBe(1_234_567);
    // Pending now: Closed-Won (reached before) at 20% of the expected value: 246913.4 -> 246913, referrer 172839.
    expect(summary.payoutSummary).toMatchObject({
      inEscrowCents: 7000 + 17539,
      earnedCents: 24539,
      pendingCents: 172_839,
    });
    // Still open: closedWon at 20% of the expected $12,345.67 = 246913.4 -> 246913, referrer 172839.1 -> 172839;
    // retention $500 -> 35000.
    expect(lead.money.expectedCents).toBe(172_839 + 35_000);

    // Closed-Won: 20% of the actual $10,000.01 = 200000.2 -> 200000 cents; referrer 140000, fee 60000.
    lead = await confirmed(s, id, { milestone: 'closedWon', dealValueCents: 1_000_001 });
    expect(lead.stage).toBe('became_customer');
    expect(lead.money.dealValueCents).toBe(1_000_001);
    const closedWon = (await commissionsOf(s.referrer)).find((c) => c.milestone === 'closedWon')!;
    expect(closedWon).toMatchObject({
      grossCents: 200_000,
      referrerCents: 140_000,
      feeCents: 60_000,
      dealValueCents: 1_000_001,
      currency: 'USD',
      state: 'in_escrow',
      vendorId: s.vendor.vendorId,
      partner: s.vendor.name,
      referrer: { userId: s.referrer.userId, name: 'Rita Referrer', email: s.referrer.email },
    });
    summary = await impact(s.referrer);
    expect(summary.pipelineValueCents).toBe(0); // Closed-Won leaves the pipeline
    expect(summary.payoutSummary).toMatchObject({ inEscrowCents: 164_539, earnedCents: 164_539, pendingCents: 0 });
    expect(summary.partnerLeaderboard.find((p) => p.partner === s.vendor.name)?.revenueWonCents).toBe(1_000_001);
    expect(summary.trends.reduce((sum, t) => sum + t.earnedCents, 0)).toBe(164_539);

    // The referrer's view: the same commissions, earned = in escrow + paid.
    const referral = await referralOf(s.referrer, id);
    expect(referral.money.earnedCents).toBe(164_539);
    expect(referral.money.commissions.map((c) => c.id).sort()).toEqual(lead.money.commissions.map((c) => c.id).sort());
    expect(referral.lastActivity.text).toBe(referral.timeline.at(-1)!.text);

    // Events: one commission.created per commission; lead.status_changed per confirmation.
    expect(
      (await published('commission.created', id, 3)).map((e) => (e.payload as { referrerCents: number }).referrerCents),
    ).toEqual([7000, 17539, 140_000]);
    // The referrer's stage moves send lead.status_changed too: wait for the four confirmations themselves.
    const confirmations = await eventually(
      () => {
        const milestones = eventsOf('lead.status_changed', id)
          .map((e) => e.payload as { change: string; milestone: string | null })
          .filter((p) => p.change === 'milestone_confirmed')
          .map((p) => p.milestone);
        return milestones.length >= 4 && milestones;
      },
      10_000,
      `4 milestone confirmations of ${id}`,
    );
    expect(confirmations).toEqual(['qualifiedLead', 'meetingHeld', 'opportunityCreated', 'closedWon']);

    // Confirming again: 409, nothing written.
    const before = await moneyRows();
    const again = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'qualifiedLead' });
    expect([again.statusCode, again.json().code]).toEqual([409, 'MILESTONE_ALREADY_CONFIRMED']);
    expect(await moneyRows()).toEqual(before);
  });

  it('pays a percentage of MRR for its months, from the bounties at the moment of the confirmation', async () => {
    const s = await setup(bounties({ closedWon: { enabled: true, type: 'percentage_mrr', amount: 10, months: 6 } }));
    const { id } = await refer(s);
    // 10% of $12,345.67 / 12 for 6 months = 61728.35 -> 61728 cents; referrer 43209.6 -> 43210, fee 18518.
    await confirmed(s, id, { milestone: 'closedWon', dealValueCents: 1_234_567 });
    expect(await amountsOf(s.referrer, id)).toEqual({ closedWon: [61728, 43210, 18518, 'in_escrow'] });

    // Bounties changed later: the commission keeps its amounts; a new referral earns the new ones.
    await deliver(ctx, 'bounties.saved', {
      vendorId: s.vendor.vendorId,
      version: 2,
      bounties: bounties({ closedWon: { enabled: true, type: 'flat', amount: 1 } }),
    });
    expect(await amountsOf(s.referrer, id)).toEqual({ closedWon: [61728, 43210, 18518, 'in_escrow'] });
    const second = await refer(s);
    await confirmed(s, second.id, { milestone: 'closedWon', dealValueCents: 100 });
    expect(await amountsOf(s.referrer, second.id)).toEqual({ closedWon: [100, 70, 30, 'in_escrow'] });
  });

  it('records a confirmation without a commission when the bounty is disabled', async () => {
    const s = await setup(bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 10 } }));
    const { id } = await refer(s);
    const lead = await confirmed(s, id, { milestone: 'meetingHeld' });
    expect(lead.money.milestones.find((m) => m.milestone === 'meetingHeld')).toMatchObject({
      state: 'confirmed',
      bountyEnabled: false,
      bounty: null,
    });
    expect(await commissionsOf(s.referrer)).toEqual([]);
  });
});

describe('who may confirm', () => {
  it('never the referrer, nor a member of another vendor: 403/404 and nothing changes', async () => {
    const s = await setup();
    const other = await setup();
    const { id } = await refer(s);
    const before = await moneyRows();

    const byReferrer = await confirm(s.referrer, s.vendor.vendorId, id, { milestone: 'qualifiedLead' });
    expect([byReferrer.statusCode, byReferrer.json().code]).toEqual([403, 'NOT_A_MEMBER']);
    const otherMemberHere = await confirm(other.member, s.vendor.vendorId, id, { milestone: 'qualifiedLead' });
    expect([otherMemberHere.statusCode, otherMemberHere.json().code]).toEqual([403, 'NOT_A_MEMBER']);
    const otherMemberThere = await confirm(other.member, other.vendor.vendorId, id, { milestone: 'qualifiedLead' });
    expect([otherMemberThere.statusCode, otherMemberThere.json().code]).toEqual([404, 'LEAD_NOT_FOUND']);
    const reverse = await app().inject({
      method: 'POST',
      url: `/api/vendors/${other.vendor.vendorId}/leads/${id}/reverse`,
      headers: other.member.headers,
      payload: { reason: 'x' },
    });
    expect(reverse.statusCode).toBe(404);
    // Administrators' routes are theirs alone.
    const adminRoute = await app().inject({
      method: 'POST',
      url: `/api/admin/referrals/${id}/milestones`,
      headers: s.referrer.headers,
      payload: { milestone: 'qualifiedLead', note: 'me' },
    });
    expect(adminRoute.statusCode).toBe(403);
    expect(await moneyRows()).toEqual(before);
    expect((await referralOf(s.referrer, id)).money.milestones.every((m) => m.state === 'open')).toBe(true);
  });
});

describe('deal values', () => {
  it('refuses negative, non-numeric, fractional and too large values (400), changing nothing', async () => {
    const s = await setup();
    const { id } = await refer(s);
    const before = await moneyRows();
    for (const dealValueCents of [
      -1,
      0,
      '100000',
      12.5,
      DEFAULT_DEAL_VALUE_MAX_CENTS + 1,
      Number.MAX_SAFE_INTEGER + 2,
    ]) {
      const response = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'closedWon', dealValueCents });
      expect(response.statusCode, `${dealValueCents}: ${response.body}`).toBe(400);
    }
    expect(
      (
        await confirm(s.member, s.vendor.vendorId, id, {
          milestone: 'closedWon',
          dealValueCents: DEFAULT_DEAL_VALUE_MAX_CENTS + 1,
        })
      ).json(),
    ).toMatchObject({ code: 'DEAL_VALUE_TOO_LARGE', field: 'dealValueCents' });
    expect(
      (await confirm(s.member, s.vendor.vendorId, id, { milestone: 'qualifiedLead', dealValueCents: 100 })).json(),
    ).toMatchObject({ code: 'DEAL_VALUE_NOT_EXPECTED' });
    const expected = await app().inject({
      method: 'PUT',
      url: `/api/vendors/${s.vendor.vendorId}/leads/${id}/expected-value`,
      headers: s.member.headers,
      payload: { expectedValueCents: DEFAULT_DEAL_VALUE_MAX_CENTS + 1 },
    });
    expect([expected.statusCode, expected.json().code]).toEqual([400, 'DEAL_VALUE_TOO_LARGE']);
    expect(await moneyRows()).toEqual(before);

    // At the ceiling it is fine; the expected value feeds the pipeline.
    const ok = await app().inject({
      method: 'PUT',
      url: `/api/vendors/${s.vendor.vendorId}/leads/${id}/expected-value`,
      headers: s.member.headers,
      payload: { expectedValueCents: 5_000_000 },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Lead.parse(ok.json()).money.expectedValueCents).toBe(5_000_000);
    expect((await impact(s.referrer)).pipelineValueCents).toBe(5_000_000);
  });

  it('honours DEAL_VALUE_MAX_CENTS and CURRENCY from the config', async () => {
    const small = await startReferrals({ DEAL_VALUE_MAX_CENTS: '1000', CURRENCY: 'EUR' });
    try {
      const previous = ctx;
      ctx = small;
      const s = await setup(bounties({ closedWon: { enabled: true, type: 'flat', amount: 1 } }));
      const { id } = await refer(s);
      const tooLarge = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'closedWon', dealValueCents: 1001 });
      expect(tooLarge.json().code).toBe('DEAL_VALUE_TOO_LARGE');
      const lead = await confirmed(s, id, { milestone: 'closedWon', dealValueCents: 1000 });
      expect(lead.money.currency).toBe('EUR');
      expect(lead.money.commissions[0]).toMatchObject({ currency: 'EUR', grossCents: 100 });
      expect((await impact(s.referrer)).payoutSummary.currency).toBe('EUR');
      ctx = previous;
    } finally {
      await small.close();
    }
  });
});

describe('concurrency', () => {
  it('10 parallel confirmations of one milestone: one 200, nine 409, one commission, one earned entry', async () => {
    const s = await setup();
    const { id } = await refer(s);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => confirm(s.member, s.vendor.vendorId, id, { milestone: 'qualifiedLead' })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(
      responses.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'MILESTONE_ALREADY_CONFIRMED'),
    ).toBe(true);
    const { rows } = await ctx.sql.query(
      `SELECT (SELECT count(*)::int FROM referrals.commissions WHERE referral_id = $1) commissions,
              (SELECT count(*)::int FROM referrals.commission_entries WHERE referral_id = $1 AND kind = 'earned') earned,
              (SELECT count(*)::int FROM referrals.milestone_confirmations WHERE referral_id = $1) confirmations`,
      [id],
    );
    expect(rows[0]).toEqual({ commissions: 1, earned: 1, confirmations: 1 });
    await published('commission.created', id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(eventsOf('commission.created', id)).toHaveLength(1);
  });
});

describe('reversal', () => {
  it("the referrer's withdrawal reverses the unpaid commissions, never the paid ones", async () => {
    const s = await setup();
    const { id } = await refer(s);
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    await confirmed(s, id, { milestone: 'opportunityCreated', dealValueCents: 100_000 });
    const list = await commissionsOf(s.referrer);
    const qualified = list.find((c) => c.referralId === id && c.milestone === 'qualifiedLead')!;
    expect((await pay([qualified.id])).statusCode).toBe(201);

    expect((await move(s.referrer, id, 'declined')).statusCode).toBe(200);
    expect(await amountsOf(s.referrer, id)).toEqual({
      qualifiedLead: [10000, 7000, 3000, 'paid'],
      opportunityCreated: [25055, 17539, 7516, 'reversed'],
    });
    const entries = await ledger(id);
    expect(entries.map((e) => [e.kind, e.amountCents, e.actor])).toEqual([
      ['earned', 7000, 'vendor'],
      ['earned', 17539, 'vendor'],
      ['paid', -7000, 'admin'],
      ['reversed', -17539, 'referrer'],
    ]);
    expect(entries.at(-1)).toMatchObject({ reason: 'Withdrawn by the referrer', actorName: 'Rita Referrer' });
    const referral = await referralOf(s.referrer, id);
    expect(referral.timeline.at(-1)).toMatchObject({ actor: 'referrer', kind: 'withdrawn' });
    expect(referral.money.milestones.find((m) => m.milestone === 'opportunityCreated')?.state).toBe('reversed');
    expect(referral.money.earnedCents).toBe(7000);
    expect(await leadChange(id, 'withdrawn')).toMatchObject({ stage: 'declined', previousStage: 'intro_accepted' });
    expect((await impact(s.referrer)).payoutSummary).toEqual({
      currency: 'USD',
      pendingCents: 0,
      inEscrowCents: 0,
      paidCents: 7000,
      reversedCents: 17539,
      earnedCents: 7000,
    });

    // Withdrawn: nothing more can be confirmed.
    const before = await moneyRows();
    const late = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'closedWon', dealValueCents: 100 });
    expect([late.statusCode, late.json().code]).toEqual([409, 'LEAD_DECLINED']);
    expect(await moneyRows()).toEqual(before);
  });

  it('the vendor reverses a deal that fell through (then 409 NOTHING_TO_REVERSE); an administrator too, audited', async () => {
    const s = await setup();
    const { id } = await refer(s);
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    const reverse = (user: TestUser, url: string) =>
      app().inject({ method: 'POST', url, headers: user.headers, payload: { reason: 'Contract cancelled' } });
    const vendorUrl = `/api/vendors/${s.vendor.vendorId}/leads/${id}/reverse`;
    const response = await reverse(s.member, vendorUrl);
    expect(response.statusCode, response.body).toBe(200);
    expect(Lead.parse(response.json()).money.commissions[0]).toMatchObject({
      state: 'reversed',
      reversalReason: 'Contract cancelled',
    });
    expect(await leadChange(id, 'deal_reversed')).toMatchObject({ vendorId: s.vendor.vendorId });
    // The referrer is told what they lost and why (the mail service emails them).
    const [notice] = await published('commissions.reversed', id);
    expect(notice?.payload).toMatchObject({
      vendorId: s.vendor.vendorId,
      vendorName: s.vendor.name,
      referrerEmail: s.referrer.email,
      referrerFirstName: 'Rita',
      reversedBy: 'vendor',
      reason: 'Contract cancelled',
      milestones: ['qualifiedLead'],
      referrerCents: 7000,
      currency: 'USD',
    });
    const before = await moneyRows();
    const again = await reverse(s.member, vendorUrl);
    expect([again.statusCode, again.json().code]).toEqual([409, 'NOTHING_TO_REVERSE']);
    // A reversed milestone stays reversed: it cannot be confirmed (and so earned) a second time.
    const reconfirm = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'qualifiedLead' });
    expect([reconfirm.statusCode, reconfirm.json().code]).toEqual([409, 'MILESTONE_ALREADY_CONFIRMED']);
    expect(await moneyRows()).toEqual(before);
    // The referrer cannot use the vendor's route.
    expect((await reverse(s.referrer, vendorUrl)).statusCode).toBe(403);

    // The lead stays open after a reversal (a deal that comes back): an administrator records a later milestone
    // for the vendor (note required), which earns, then reverses it.
    const noNote = await app().inject({
      method: 'POST',
      url: `/api/admin/referrals/${id}/milestones`,
      headers: admin.headers,
      payload: { milestone: 'opportunityCreated', dealValueCents: 10_000 },
    });
    expect(noNote.statusCode).toBe(400);
    const recorded = await app().inject({
      method: 'POST',
      url: `/api/admin/referrals/${id}/milestones`,
      headers: admin.headers,
      payload: { milestone: 'opportunityCreated', dealValueCents: 10_000, note: 'Vendor confirmed by phone' },
    });
    expect(recorded.statusCode, recorded.body).toBe(200);
    const referral = Referral.parse(recorded.json());
    expect(referral.money.milestones.find((m) => m.milestone === 'opportunityCreated')?.confirmedBy).toBe('admin');
    expect(referral.status).toBe('intro_accepted');
    expect((await reverse(admin, `/api/admin/referrals/${id}/reverse`)).statusCode).toBe(200);
    expect((await published('commissions.reversed', id, 2)).map((e) => e.payload)).toMatchObject([
      { reversedBy: 'vendor', referrerCents: 7000 },
      { reversedBy: 'admin', vendorName: s.vendor.name, milestones: ['opportunityCreated'], referrerCents: 17539 },
    ]);
    const entries = await ledger(id);
    expect(entries.map((e) => [e.kind, e.actor, e.reason])).toEqual([
      ['earned', 'vendor', `Confirmed by ${s.vendor.name}`],
      ['reversed', 'vendor', 'Contract cancelled'],
      ['earned', 'admin', 'Vendor confirmed by phone'],
      ['reversed', 'admin', 'Contract cancelled'],
    ]);
    expect(entries[2]!.actorName).toContain(admin.email);
    expect((await reverse(admin, `/api/admin/referrals/${id}/reverse`)).json().code).toBe('NOTHING_TO_REVERSE');
    expect((await impact(s.referrer)).payoutSummary).toMatchObject({
      inEscrowCents: 0,
      reversedCents: 7000 + 17539,
      earnedCents: 0,
    });
  });

  it('a lead declined by the vendor cannot earn', async () => {
    const s = await setup();
    const { id } = await refer(s);
    const declined = await app().inject({
      method: 'POST',
      url: `/api/vendors/${s.vendor.vendorId}/leads/${id}/decline`,
      headers: s.member.headers,
      payload: { reason: 'Not in our region' },
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(await leadChange(id, 'declined')).toMatchObject({ stage: 'declined' });
    const response = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'qualifiedLead' });
    expect([response.statusCode, response.json().code]).toEqual([409, 'LEAD_DECLINED']);
  });
});

describe('the ledger', () => {
  it('an administrator looks a referral up: its parties, stage, money and ledger; 404 for an unknown id', async () => {
    const s = await setup();
    const { id } = await refer(s, { referredFirstName: 'Cora', referredLastName: 'Client' });
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    const lookUp = (referralId: number | string) =>
      app().inject({ method: 'GET', url: `/api/admin/referrals/${referralId}`, headers: admin.headers });
    const response = await lookUp(id);
    expect(response.statusCode, response.body).toBe(200);
    const found = AdminReferral.parse(response.json());
    expect(found).toMatchObject({
      id,
      status: 'intro_made',
      referredName: 'Cora Client',
      referrer: { name: 'Rita Referrer', email: s.referrer.email },
      lead: { vendorId: s.vendor.vendorId, vendorName: s.vendor.name, status: 'accepted' },
    });
    expect(found.money.commissions.map((c) => [c.milestone, c.referrerCents, c.state])).toEqual([
      ['qualifiedLead', 7000, 'in_escrow'],
    ]);
    expect(found.ledger).toEqual(await ledger(id));
    expect(found.ledger.map((e) => [e.kind, e.amountCents])).toEqual([['earned', 7000]]);
    // The referrer's private texts are not in it.
    expect(Object.keys(response.json())).not.toContain('notes');
    for (const unknown of [id + 1_000_000, 999_999_999_999]) {
      const missing = await lookUp(unknown);
      expect([missing.statusCode, missing.json().code]).toEqual([404, 'REFERRAL_NOT_FOUND']);
    }
    expect((await lookUp('12abc')).statusCode).toBe(400);
  });

  it('refuses UPDATE and DELETE of commissions and entries (append-only trigger)', async () => {
    const s = await setup();
    const { id } = await refer(s);
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    for (const statement of [
      `UPDATE referrals.commission_entries SET amount_cents = 1 WHERE referral_id = ${id}`,
      `DELETE FROM referrals.commission_entries WHERE referral_id = ${id}`,
      `UPDATE referrals.commissions SET referrer_cents = 1 WHERE referral_id = ${id}`,
      `DELETE FROM referrals.commissions WHERE referral_id = ${id}`,
    ])
      await expect(ctx.sql.query(statement)).rejects.toThrow(/append-only/);
    // A second settlement of one commission is refused by the database itself.
    const [commission] = (await commissionsOf(s.referrer)).filter((c) => c.referralId === id);
    await ctx.sql.query(
      `INSERT INTO referrals.commission_entries (commission_id, referral_id, user_id, kind, amount_cents, actor, actor_name)
       VALUES ($1, $2, $3, 'reversed', -7000, 'system', 'test')`,
      [commission!.id, id, s.referrer.userId],
    );
    await expect(
      ctx.sql.query(
        `INSERT INTO referrals.commission_entries (commission_id, referral_id, user_id, kind, amount_cents, actor, actor_name)
         VALUES ($1, $2, $3, 'paid', -7000, 'system', 'test')`,
        [commission!.id, id, s.referrer.userId],
      ),
    ).rejects.toThrow(/already paid or reversed/);
    await expect(
      ctx.sql.query(
        `INSERT INTO referrals.commission_entries (commission_id, referral_id, user_id, kind, amount_cents, actor, actor_name)
         VALUES ($1, $2, $3, 'earned', -5, 'system', 'test')`,
        [commission!.id, id, s.referrer.userId],
      ),
    ).rejects.toThrow();
  });
});

describe('payouts', () => {
  it('pays a batch atomically: all in escrow or 409 PAYOUT_CONFLICT with nothing written', async () => {
    const a = await setup();
    const b = await setup(standard, a.vendor.name + ' Two');
    const ra = await refer(a);
    const rb = await refer(b);
    await confirmed(a, ra.id, { milestone: 'qualifiedLead' });
    await confirmed(a, ra.id, { milestone: 'opportunityCreated', dealValueCents: 50_000 });
    await confirmed(b, rb.id, { milestone: 'qualifiedLead' });
    const mine = (await commissionsOf(a.referrer)).filter((c) => c.referralId === ra.id);
    const theirs = (await commissionsOf(b.referrer)).filter((c) => c.referralId === rb.id);

    const due = PayoutDue.array().parse(
      (await app().inject({ method: 'GET', url: '/api/admin/payouts/due', headers: admin.headers })).json(),
    );
    expect(due.find((d) => d.referrer.userId === a.referrer.userId)?.totalCents).toBe(7000 + 17539);
    expect(due.find((d) => d.referrer.userId === b.referrer.userId)?.totalCents).toBe(7000);

    // Non-admins cannot pay.
    const notAdmin = await app().inject({
      method: 'POST',
      url: '/api/admin/payouts',
      headers: a.referrer.headers,
      payload: { reference: 'X', method: 'paypal', paidOn: PAID_ON, commissionIds: [mine[0]!.id] },
    });
    expect(notAdmin.statusCode).toBe(403);

    const reference = `BATCH-${randomUUID().slice(0, 8)}`;
    const paid = await pay([...mine.map((c) => c.id), theirs[0]!.id], reference);
    expect(paid.statusCode, paid.body).toBe(201);
    const payout = Payout.parse(paid.json());
    expect(payout).toMatchObject({ reference, method: 'bank_transfer', paidOn: PAID_ON, currency: 'USD' });
    expect(payout.totalCents).toBe(7000 + 17539 + 7000);
    expect(payout.commissions.every((c) => c.state === 'paid' && c.payoutReference === reference)).toBe(true);
    expect(payout.referrers.map((r) => [r.userId, r.totalCents]).sort()).toEqual(
      [
        [a.referrer.userId, 24539],
        [b.referrer.userId, 7000],
      ].sort(),
    );
    const event = await eventually(() =>
      ctx.published.find(
        (e) => e.name === 'payout.recorded' && (e.payload as { payoutId: string }).payoutId === payout.id,
      ),
    );
    expect(event?.payload).toMatchObject({ reference, currency: 'USD' });
    expect(
      (event!.payload as { referrers: Array<{ totalCents: number }> }).referrers.map((r) => r.totalCents).sort(),
    ).toEqual([24539, 7000].sort());
    expect((await impact(a.referrer)).payoutSummary).toMatchObject({
      inEscrowCents: 0,
      paidCents: 24539,
      earnedCents: 24539,
    });

    // Paid commissions cannot be paid again, even mixed with an unpaid one; nothing is written.
    await confirmed(a, ra.id, { milestone: 'closedWon', dealValueCents: 100_000 });
    const open = (await commissionsOf(a.referrer)).find((c) => c.referralId === ra.id && c.state === 'in_escrow')!;
    const before = await moneyRows();
    for (const ids of [[mine[0]!.id], [open.id, mine[0]!.id], [open.id, randomUUID()]]) {
      const response = await pay(ids);
      expect([response.statusCode, response.json().code]).toEqual([409, 'PAYOUT_CONFLICT']);
    }
    const taken = await pay([open.id], reference);
    expect([taken.statusCode, taken.json().code]).toEqual([409, 'PAYOUT_REFERENCE_TAKEN']);
    expect(await moneyRows()).toEqual(before);
    expect((await commissionsOf(a.referrer)).find((c) => c.id === open.id)?.state).toBe('in_escrow');

    // A paid commission is never reversed.
    const vendorReverse = await app().inject({
      method: 'POST',
      url: `/api/vendors/${b.vendor.vendorId}/leads/${rb.id}/reverse`,
      headers: b.member.headers,
      payload: { reason: 'too late' },
    });
    expect(vendorReverse.json().code).toBe('NOTHING_TO_REVERSE');

    // The vendor sees what it owes (gross in escrow) and has paid.
    const vendorView = VendorCommissions.parse(
      (
        await app().inject({
          method: 'GET',
          url: `/api/vendors/${a.vendor.vendorId}/commissions`,
          headers: a.member.headers,
        })
      ).json(),
    );
    expect([vendorView.owedCents, vendorView.paidCents]).toEqual([20_000, 10_000 + 25_055]);
    const foreign = await app().inject({
      method: 'GET',
      url: `/api/vendors/${a.vendor.vendorId}/commissions`,
      headers: b.member.headers,
    });
    expect(foreign.statusCode).toBe(403);

    // Newest first.
    const second = await pay([open.id]);
    expect(second.statusCode).toBe(201);
    const payouts = Payout.array().parse(
      (await app().inject({ method: 'GET', url: '/api/admin/payouts', headers: admin.headers })).json(),
    );
    expect(payouts.slice(0, 2).map((p) => p.id)).toEqual([Payout.parse(second.json()).id, payout.id]);
  });

  it('two concurrent payouts of the same commissions: exactly one succeeds', async () => {
    const s = await setup();
    const { id } = await refer(s);
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    await confirmed(s, id, { milestone: 'opportunityCreated', dealValueCents: 1000 });
    const ids = (await commissionsOf(s.referrer)).map((c) => c.id);
    const results = await Promise.all([pay(ids), pay([...ids].reverse()), pay(ids), pay([ids[1]!])]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    // Paid exactly once, by the winner: both commissions, or only the second when the one-commission payout won.
    const winner = Payout.parse(results.find((r) => r.statusCode === 201)!.json());
    const { rows } = await ctx.sql.query(
      `SELECT commission_id::text AS id, payout_id::text AS payout FROM referrals.commission_entries
        WHERE referral_id = $1 AND kind = 'paid' ORDER BY commission_id`,
      [id],
    );
    const paid = winner.commissions.map((c) => c.id).sort();
    expect(paid.length === 2 || (paid.length === 1 && paid[0] === ids[1])).toBe(true);
    expect(rows).toEqual(paid.map((commission) => ({ id: commission, payout: winner.id })));
  });

  it('exports a batch as CSV: decimal amounts, injection-safe cells', async () => {
    const s = await setup(bounties({ closedWon: { enabled: true, type: 'percentage_arr', amount: 10 } }));
    await deliver(ctx, 'user.registered', {
      userId: s.referrer.userId,
      email: s.referrer.email,
      firstName: '=HYPERLINK("x")',
      lastName: 'Evil',
      companyName: '',
    } as never);
    const { id } = await refer(s, { client: { name: '+Client' } });
    await confirmed(s, id, { milestone: 'closedWon', dealValueCents: 1_234_567 });
    const [commission] = await commissionsOf(s.referrer);
    const payout = Payout.parse((await pay([commission!.id], '-REF')).json());
    const csv = await app().inject({
      method: 'GET',
      url: `/api/admin/payouts/${payout.id}/export`,
      headers: admin.headers,
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    // Named after its date and reference (made safe for a file name), so exports do not overwrite each other.
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="payout-${PAID_ON}-REF.csv"`);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Payout reference,Method,Paid on,Referrer,Referrer email,Referral,Client,Vendor,Milestone,Gross,Referrer share,Platform fee,Currency',
    );
    // 10% of $12,345.67 = 123456.7 -> 123457 cents; referrer 86419.9 -> 86420; fee 37037.
    expect(lines[1]).toBe(
      [
        `"'-REF"`,
        '"Bank transfer"',
        `"${PAID_ON}"`,
        `"'=HYPERLINK(""x"") Evil"`,
        `"${s.referrer.email}"`,
        `"${id}"`,
        `"'+Client"`,
        `"${s.vendor.name}"`,
        '"Closed-Won"',
        '"1234.57"',
        '"864.20"',
        '"370.37"',
        '"USD"',
      ].join(','),
    );
    expect(
      (await app().inject({ method: 'GET', url: `/api/admin/payouts/${randomUUID()}/export`, headers: admin.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (await app().inject({ method: 'GET', url: `/api/admin/payouts/nope/export`, headers: admin.headers })).statusCode,
    ).toBe(404);
  });
});

describe('terms at referral', () => {
  const milestoneOf = (money: Referral['money'], milestone: string) =>
    money.milestones.find((m) => m.milestone === milestone)!;

  async function leadOf(s: Setup, id: number): Promise<Lead> {
    const response = await app().inject({
      method: 'GET',
      url: `/api/vendors/${s.vendor.vendorId}/leads/${id}`,
      headers: s.member.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return Lead.parse(response.json());
  }

  it('a lowered or disabled bounty does not lower the referrals already made; a raise reaches them', async () => {
    const s = await setup();
    const before = await refer(s);
    // The vendor cuts Qualified Lead to $1, turns Closed-Won off and raises the opportunity to $300.
    await deliver(ctx, 'bounties.saved', {
      vendorId: s.vendor.vendorId,
      version: 2,
      bounties: bounties({
        qualifiedLead: { enabled: true, type: 'flat', amount: 1 },
        opportunityCreated: { enabled: true, type: 'flat', amount: 300 },
      }),
    });
    const after = await refer(s);

    // Both sides see the terms each referral pays by, and the referrer what it expects at them.
    for (const money of [(await referralOf(s.referrer, before.id)).money, (await leadOf(s, before.id)).money]) {
      expect(milestoneOf(money, 'qualifiedLead').bounty).toBe('$100.00 flat');
      expect(milestoneOf(money, 'opportunityCreated').bounty).toBe('$300.00 flat');
      expect(milestoneOf(money, 'closedWon')).toMatchObject({ bountyEnabled: true, bounty: '20% of first-year ARR' });
      // $100 + $300 + the $500 retention bonus, 70% of each (the percentages wait for a deal value).
      expect(money.expectedCents).toBe(7_000 + 21_000 + 35_000);
    }
    const later = (await referralOf(s.referrer, after.id)).money;
    expect(milestoneOf(later, 'qualifiedLead').bounty).toBe('$1.00 flat');
    expect(milestoneOf(later, 'closedWon')).toMatchObject({ bountyEnabled: false, bounty: null });
    expect(later.expectedCents).toBe(70 + 21_000);

    for (const { id } of [before, after]) {
      await confirmed(s, id, { milestone: 'qualifiedLead' });
      await confirmed(s, id, { milestone: 'opportunityCreated', dealValueCents: 500_000 });
      await confirmed(s, id, { milestone: 'closedWon', dealValueCents: 1_000_000 });
    }
    expect(await amountsOf(s.referrer, before.id)).toEqual({
      qualifiedLead: [10_000, 7_000, 3_000, 'in_escrow'],
      opportunityCreated: [30_000, 21_000, 9_000, 'in_escrow'],
      closedWon: [200_000, 140_000, 60_000, 'in_escrow'],
    });
    expect(await amountsOf(s.referrer, after.id)).toEqual({
      qualifiedLead: [100, 70, 30, 'in_escrow'],
      opportunityCreated: [30_000, 21_000, 9_000, 'in_escrow'],
    });

    // Edited again later: a confirmed milestone keeps saying the terms it paid by; an open one gives both terms.
    const v3 = bounties({
      meetingHeld: { enabled: true, type: 'flat', amount: 20 },
      opportunityCreated: { enabled: true, type: 'flat', amount: 10_000 },
    });
    await deliver(ctx, 'bounties.saved', { vendorId: s.vendor.vendorId, version: 3, bounties: v3 });
    for (const money of [(await referralOf(s.referrer, before.id)).money, (await leadOf(s, before.id)).money]) {
      expect(milestoneOf(money, 'opportunityCreated')).toMatchObject({
        state: 'confirmed',
        bounty: '$300.00 flat',
        termsAtReferral: null,
        termsNow: null,
      });
      expect(milestoneOf(money, 'closedWon').bounty).toBe('20% of first-year ARR');
      // 5% of the $10,000 deal ($500) beats today's $20.
      expect(milestoneOf(money, 'meetingHeld')).toMatchObject({
        state: 'open',
        bounty: '5% of first-year ARR',
        termsAtReferral: standard.meetingHeld,
        termsNow: v3.meetingHeld,
      });
    }
  });

  it('compares a flat bounty and a percentage at the deal value confirmed', async () => {
    const s = await setup(bounties({ closedWon: { enabled: true, type: 'flat', amount: 500 } }));
    const small = await refer(s);
    const large = await refer(s);
    await deliver(ctx, 'bounties.saved', {
      vendorId: s.vendor.vendorId,
      version: 2,
      bounties: bounties({ closedWon: { enabled: true, type: 'percentage_arr', amount: 10 } }),
    });
    // Without a deal value the percentage pays nothing yet: the flat amount is what it pays now.
    expect(milestoneOf((await referralOf(s.referrer, small.id)).money, 'closedWon').bounty).toBe('$500.00 flat');
    // 10% of $4,000 is less than $500; 10% of $6,000 is more.
    await confirmed(s, small.id, { milestone: 'closedWon', dealValueCents: 400_000 });
    await confirmed(s, large.id, { milestone: 'closedWon', dealValueCents: 600_000 });
    expect(await amountsOf(s.referrer, small.id)).toEqual({ closedWon: [50_000, 35_000, 15_000, 'in_escrow'] });
    expect(await amountsOf(s.referrer, large.id)).toEqual({ closedWon: [60_000, 42_000, 18_000, 'in_escrow'] });
    expect(milestoneOf((await referralOf(s.referrer, large.id)).money, 'closedWon').bounty).toBe(
      '10% of first-year ARR',
    );
  });

  it('a referral made before the vendor had bounties earns those it has at confirmation', async () => {
    const member = testUser('member');
    const vendor = await saveVendor(ctx, { name: `Vendor ${randomUUID().slice(0, 6)}`, members: [member] });
    const referrer = testUser('referrer');
    const s = { vendor, member, referrer };
    const { id } = await refer(s);
    const { rows } = await ctx.sql.query('SELECT bounties_at_referral FROM referrals.referrals WHERE id = $1', [id]);
    expect(rows).toEqual([{ bounties_at_referral: null }]);
    await deliver(ctx, 'bounties.saved', {
      vendorId: vendor.vendorId,
      version: 1,
      bounties: bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 40 } }),
    });
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    expect(await amountsOf(referrer, id)).toEqual({ qualifiedLead: [4_000, 2_800, 1_200, 'in_escrow'] });
  });

  it("the retention bonus's date comes with the terms that pay it", async () => {
    const s = await setup(
      bounties({
        closedWon: { enabled: true, type: 'flat', amount: 10 },
        retentionBonus: { enabled: true, type: 'flat', amount: 500, months: 12 },
      }),
    );
    const kept = await refer(s);
    // Later: a smaller bonus, due sooner. The referral made before keeps $500 at 12 months.
    await deliver(ctx, 'bounties.saved', {
      vendorId: s.vendor.vendorId,
      version: 2,
      bounties: bounties({
        closedWon: { enabled: true, type: 'flat', amount: 10 },
        retentionBonus: { enabled: true, type: 'flat', amount: 100, months: 3 },
      }),
    });
    const lead = await confirmed(s, kept.id, { milestone: 'closedWon', dealValueCents: 100_000 });
    const closedWonAt = new Date(milestoneOf(lead.money, 'closedWon').confirmedAt!);
    const due = new Date(closedWonAt);
    due.setUTCMonth(due.getUTCMonth() + 12);
    expect(milestoneOf(lead.money, 'retentionBonus')).toMatchObject({
      bounty: '$500.00 flat',
      dueAt: due.toISOString(),
    });
    await ctx.sql.query(
      `UPDATE referrals.milestone_confirmations SET confirmed_at = now() - interval '4 months'
        WHERE referral_id = $1 AND milestone = 'closedWon'`,
      [kept.id],
    );
    const early = await confirm(s.member, s.vendor.vendorId, kept.id, { milestone: 'retentionBonus' });
    expect([early.statusCode, early.json().code]).toEqual([409, 'RETENTION_NOT_DUE']);
  });
});

describe('retention bonus', () => {
  it('needs Closed-Won confirmed and its date: 409 before, earned after', async () => {
    const s = await setup();
    const { id } = await refer(s);
    // The referrer cannot ask for it either while the vendor could not confirm it (no email it cannot act on).
    const ask = () =>
      app().inject({
        method: 'POST',
        url: `/api/referrals/${id}/confirmation-requests`,
        headers: s.referrer.headers,
        payload: { milestone: 'retentionBonus' },
      });
    const requests = async () =>
      (await ctx.sql.query('SELECT count(*)::int n FROM referrals.confirmation_requests WHERE referral_id = $1', [id]))
        .rows[0].n;
    const early = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'retentionBonus' });
    expect([early.statusCode, early.json().code]).toEqual([409, 'MILESTONE_NEEDS_CLOSED_WON']);
    const askedEarly = await ask();
    expect([askedEarly.statusCode, askedEarly.json().code]).toEqual([409, 'MILESTONE_NEEDS_CLOSED_WON']);
    const lead = await confirmed(s, id, { milestone: 'closedWon', dealValueCents: 100_000 });
    const retention = lead.money.milestones.find((m) => m.milestone === 'retentionBonus')!;
    const closedWonAt = lead.money.milestones.find((m) => m.milestone === 'closedWon')!.confirmedAt!;
    const due = new Date(closedWonAt);
    due.setUTCMonth(due.getUTCMonth() + 12);
    expect(retention.dueAt).toBe(due.toISOString());

    const before = await moneyRows();
    const notDue = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'retentionBonus' });
    expect([notDue.statusCode, notDue.json().code]).toEqual([409, 'RETENTION_NOT_DUE']);
    const askedNotDue = await ask();
    expect([askedNotDue.statusCode, askedNotDue.json().code]).toEqual([409, 'RETENTION_NOT_DUE']);
    expect(await moneyRows()).toEqual(before);
    expect(await requests()).toBe(0);

    // Thirteen months later (the confirmation's date moved back in SQL).
    await ctx.sql.query(
      `UPDATE referrals.milestone_confirmations SET confirmed_at = now() - interval '13 months'
        WHERE referral_id = $1 AND milestone = 'closedWon'`,
      [id],
    );
    expect((await ask()).statusCode).toBe(200);
    expect(await requests()).toBe(1);
    await confirmed(s, id, { milestone: 'retentionBonus' });
    expect((await amountsOf(s.referrer, id)).retentionBonus).toEqual([50_000, 35_000, 15_000, 'in_escrow']);
  });
});

describe('confirmation requests', () => {
  it('the referrer asks the vendor once a day; the inbox and members are told', async () => {
    const s = await setup();
    const { id } = await refer(s);
    const ask = (milestone: string, user = s.referrer, referralId = id) =>
      app().inject({
        method: 'POST',
        url: `/api/referrals/${referralId}/confirmation-requests`,
        headers: user.headers,
        payload: { milestone, message: 'They signed last week' },
      });
    const response = await ask('closedWon');
    expect(response.statusCode, response.body).toBe(200);
    const referral = Referral.parse(response.json());
    expect(referral.money.milestones.find((m) => m.milestone === 'closedWon')).toMatchObject({ state: 'requested' });
    expect(referral.timeline.at(-1)).toMatchObject({ actor: 'referrer', kind: 'confirmation_requested' });
    expect((await published('milestone.confirmation_requested', id))[0]?.payload).toMatchObject({
      vendorId: s.vendor.vendorId,
      milestone: 'closedWon',
      recipients: [s.vendor.leadInbox, s.member.email],
      referrerName: 'Rita Referrer',
      message: 'They signed last week',
    });
    expect((await ask('closedWon')).json().code).toBe('CONFIRMATION_RECENTLY_REQUESTED');
    expect((await ask('closedWon', testUser())).statusCode).toBe(403);
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    expect((await ask('qualifiedLead')).json().code).toBe('MILESTONE_ALREADY_CONFIRMED');

    const notRouted = await app().inject({
      method: 'POST',
      url: '/api/referrals',
      headers: s.referrer.headers,
      payload: referralInput({ company: 'Nobody Here', website: '' }),
    });
    expect((await ask('closedWon', s.referrer, notRouted.json().id)).json().code).toBe('REFERRAL_NOT_ROUTED');
    await move(s.referrer, id, 'declined');
    expect((await ask('closedWon')).json().code).toBe('LEAD_DECLINED');
  });

  it('shows awaitingApproval while the draft waits to be sent', async () => {
    const s = await setup();
    const { id, awaitingApproval } = await refer(s);
    expect(awaitingApproval).toBe(false);
    await deliver(ctx, 'referral.draft_generated', {
      referralId: id,
      subject: 'Meet',
      body: 'Hello',
      recipients: { to: ['grace@navy.example'], cc: [], bcc: [] },
      source: 'template',
    });
    expect((await referralOf(s.referrer, id)).awaitingApproval).toBe(true);
  });
});

describe('the dashboard list', () => {
  it('shows each referral with its money exactly as GET /api/referrals/:id does, without its draft (one statement, issue 15)', async () => {
    const s = await setup();
    const plain = await refer(s);
    const earned = await refer(s, { referredFirstName: 'Ümit', referralReason: 'Needs "quotes" \\ and\nlines' });
    const asked = await refer(s);
    await confirmed(s, earned.id, { milestone: 'qualifiedLead', note: 'Great fit' });
    await confirmed(s, earned.id, { milestone: 'closedWon', dealValueCents: 1_234_567 });
    expect((await move(s.referrer, plain.id, 'declined')).statusCode).toBe(200);
    const ask = await app().inject({
      method: 'POST',
      url: `/api/referrals/${asked.id}/confirmation-requests`,
      headers: s.referrer.headers,
      payload: { milestone: 'meetingHeld', message: 'We met' },
    });
    expect(ask.statusCode, ask.body).toBe(200);
    // Another referrer's referral to the same vendor is not on the page (nor its money).
    await refer({ ...s, referrer: testUser('other') });

    const response = await app().inject({
      method: 'GET',
      url: '/api/referrals?days=all&pageSize=2',
      headers: s.referrer.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as { referrals: Array<Record<string, unknown>>; total: number };
    expect(page.total).toBe(3);
    const second = await app().inject({
      method: 'GET',
      url: '/api/referrals?days=all&pageSize=2&page=2',
      headers: s.referrer.headers,
    });
    const items = [...page.referrals, ...(second.json() as typeof page).referrals];
    expect(items.map((item) => item.id)).toEqual([asked.id, earned.id, plain.id]);
    for (const item of items) {
      const { emailDraft: _draft, ...detail } = await referralOf(s.referrer, item.id as number);
      // The same fields and values (the list's rows come from PostgreSQL as JSON, the detail's as columns).
      expect(item).toStrictEqual(JSON.parse(JSON.stringify(detail)));
    }
    const money = (items[1] as unknown as Referral).money;
    expect(money.dealValueCents).toBe(1_234_567);
    expect(money.commissions.map((c) => c.milestone).sort()).toEqual(['closedWon', 'qualifiedLead']);
    expect((items[0] as unknown as Referral).money.milestones.find((m) => m.milestone === 'meetingHeld')).toMatchObject(
      { state: 'requested' },
    );
  });
});
