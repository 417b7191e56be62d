import { randomUUID } from 'node:crypto';
import {
  Commission,
  ImpactSummary,
  Lead,
  Payout,
  PayoutDue,
  Referral,
  type Bounties,
  type ReferralStatus,
} from '@app/contracts';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bounties,
  deliver,
  redeliver,
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
 * Attacks on the money rules (docs/product-decisions.md, "Money: milestones, commissions, payouts"):
 * exact cents, bounties changed after the referral was sent, stage moves backwards and out of Declined,
 * redelivered events, double and concurrent payouts, and the Impact figures after all of them.
 */

let ctx: TestContext;
const app = () => ctx.service.app;
const admin = testUser('admin', { isAdmin: true });

interface Setup {
  vendor: TestVendor;
  member: TestUser;
  referrer: TestUser;
}

async function setup(saved: Bounties, name = `Attack ${randomUUID().slice(0, 6)}`): Promise<Setup> {
  const member = testUser('member');
  const vendor = await saveVendor(ctx, { name, members: [member] });
  await deliver(ctx, 'bounties.saved', { vendorId: vendor.vendorId, version: 1, bounties: saved });
  const referrer = testUser('referrer');
  await deliver(ctx, 'user.registered', {
    userId: referrer.userId,
    email: referrer.email,
    firstName: 'Rita',
    lastName: 'Referrer',
    companyName: `Referrers ${randomUUID().slice(0, 6)}`,
  } as never);
  return { vendor, member, referrer };
}

async function refer(s: Setup): Promise<Referral> {
  const response = await app().inject({
    method: 'POST',
    url: '/api/referrals',
    headers: s.referrer.headers,
    payload: referralInput({ company: s.vendor.name, website: websiteOf(s.vendor.name) }),
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

const adminConfirm = (referralId: number, body: Record<string, unknown>) =>
  app().inject({
    method: 'POST',
    url: `/api/admin/referrals/${referralId}/milestones`,
    headers: admin.headers,
    payload: { note: 'Confirmed by phone', ...body },
  });

async function move(user: TestUser, id: number, status: ReferralStatus) {
  const response = await app().inject({
    method: 'PUT',
    url: `/api/referrals/${id}/status`,
    headers: user.headers,
    payload: { status },
  });
  expect(response.statusCode, response.body).toBe(200);
  return Referral.parse(response.json());
}

async function impact(user: TestUser, query = ''): Promise<ImpactSummary> {
  const response = await app().inject({ method: 'GET', url: `/api/referral-impact${query}`, headers: user.headers });
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

const pay = (commissionIds: string[], reference = `REF-${randomUUID().slice(0, 8)}`, paidOn = PAID_ON) =>
  app().inject({
    method: 'POST',
    url: '/api/admin/payouts',
    headers: admin.headers,
    payload: { reference, method: 'bank_transfer', paidOn, commissionIds },
  });

/** Rows of every money table of one referral. */
async function moneyRowsOf(referralId: number) {
  const { rows } = await ctx.sql.query(
    `SELECT (SELECT count(*)::int FROM referrals.milestone_confirmations WHERE referral_id = $1) confirmations,
            (SELECT count(*)::int FROM referrals.commissions WHERE referral_id = $1) commissions,
            (SELECT count(*)::int FROM referrals.commission_entries WHERE referral_id = $1) entries,
            (SELECT coalesce(sum(amount_cents), 0)::int FROM referrals.commission_entries WHERE referral_id = $1) balance`,
    [referralId],
  );
  return rows[0] as { confirmations: number; commissions: number; entries: number; balance: number };
}

/** The whole-range dashboard (raw SQL over the rows) must equal the unfiltered one (the kept figures). */
async function expectFiguresAgree(user: TestUser): Promise<ImpactSummary> {
  const kept = await impact(user);
  const raw = await impact(user, '?from=1970-01-01');
  const { recentActivity: _a, ...keptRest } = kept;
  const { recentActivity: _b, ...rawRest } = raw;
  expect(rawRest).toEqual(keptRest);
  return kept;
}

beforeAll(async () => {
  ctx = await startReferrals();
});

afterAll(async () => {
  await ctx?.close();
});

describe('amounts to the cent', () => {
  it('rounds each percentage once, half up, from the exact bounty (no pre-rounded percentages or dollars)', async () => {
    const s = await setup(
      bounties({
        qualifiedLead: { enabled: true, type: 'flat', amount: 0.05 },
        meetingHeld: { enabled: true, type: 'flat', amount: 100.005 },
        opportunityCreated: { enabled: true, type: 'percentage_arr', amount: 0.125 },
        closedWon: { enabled: true, type: 'percentage_mrr', amount: 7.5, months: 5 },
      }),
    );
    const { id } = await refer(s);
    // $0.05: 5 cents; referrer 3.5 -> 4 (half up), fee 1.
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    // $100.005: 10000.5 cents -> 10001 (rounded once, half up); referrer 7000.7 -> 7001, fee 3000.
    await confirmed(s, id, { milestone: 'meetingHeld' });
    // 0.125% of $10,000.00 = 1250 cents exactly (not 0.13%: 1300); referrer 875, fee 375.
    await confirmed(s, id, { milestone: 'opportunityCreated', dealValueCents: 1_000_000 });
    // 7.5% of $9,999.99 / 12 x 5 = 31249.96875 -> 31250; referrer 21875, fee 9375.
    await confirmed(s, id, { milestone: 'closedWon', dealValueCents: 999_999 });
    expect(await amountsOf(s.referrer, id)).toEqual({
      qualifiedLead: [5, 4, 1, 'in_escrow'],
      meetingHeld: [10001, 7001, 3000, 'in_escrow'],
      opportunityCreated: [1250, 875, 375, 'in_escrow'],
      closedWon: [31250, 21875, 9375, 'in_escrow'],
    });
    const summary = await expectFiguresAgree(s.referrer);
    expect(summary.payoutSummary).toMatchObject({ inEscrowCents: 4 + 7001 + 875 + 21875, earnedCents: 29755 });
  });

  it('the largest deal and bounty stay exact integers (no float overflow of cents)', async () => {
    // 100% of MRR for 60 months of the $10,000,000 ceiling: 10^9 / 12 x 60 = 5 x 10^9 cents exactly.
    const s = await setup(bounties({ closedWon: { enabled: true, type: 'percentage_mrr', amount: 100, months: 60 } }));
    const { id } = await refer(s);
    await confirmed(s, id, { milestone: 'closedWon', dealValueCents: 1_000_000_000 });
    expect(await amountsOf(s.referrer, id)).toEqual({
      closedWon: [5_000_000_000, 3_500_000_000, 1_500_000_000, 'in_escrow'],
    });
    expect((await expectFiguresAgree(s.referrer)).payoutSummary.inEscrowCents).toBe(3_500_000_000);
  });
});

describe('bounties changed after the referral was sent', () => {
  it('pays the better of the terms at referral and at confirmation; an older or repeated bounties.saved changes nothing', async () => {
    const s = await setup(bounties({ closedWon: { enabled: true, type: 'flat', amount: 1000 } }));
    const { id } = await refer(s);
    // The vendor switches Closed-Won off after the referral was sent, and adds a Qualified Lead bounty: the
    // referral keeps its Closed-Won (the terms it was sent on) and takes the new bounty too.
    const v2 = await deliver(ctx, 'bounties.saved', {
      vendorId: s.vendor.vendorId,
      version: 2,
      bounties: bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 10 } }),
    });
    // The old version arrives late, and v2 is delivered again: v2 stays.
    await deliver(ctx, 'bounties.saved', {
      vendorId: s.vendor.vendorId,
      version: 1,
      bounties: bounties({ closedWon: { enabled: true, type: 'flat', amount: 1000 } }),
    });
    await redeliver(ctx, v2);
    await confirmed(s, id, { milestone: 'closedWon', dealValueCents: 500_000 });
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    const earned = {
      closedWon: [100_000, 70_000, 30_000, 'in_escrow'],
      qualifiedLead: [1000, 700, 300, 'in_escrow'],
    };
    expect(await amountsOf(s.referrer, id)).toEqual(earned);
    // Raised later: a confirmed milestone earns nothing more after the fact.
    await deliver(ctx, 'bounties.saved', {
      vendorId: s.vendor.vendorId,
      version: 3,
      bounties: bounties({
        qualifiedLead: { enabled: true, type: 'flat', amount: 99 },
        closedWon: { enabled: true, type: 'flat', amount: 1000 },
      }),
    });
    expect(await amountsOf(s.referrer, id)).toEqual(earned);
    const again = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'closedWon', dealValueCents: 500_000 });
    expect([again.statusCode, again.json().code]).toEqual([409, 'MILESTONE_ALREADY_CONFIRMED']);
    expect((await expectFiguresAgree(s.referrer)).payoutSummary).toMatchObject({
      inEscrowCents: 70_700,
      pendingCents: 0,
    });
  });

  it("Impact's pending bounties are valued at each referral's terms, kept and computed alike", async () => {
    const s = await setup(
      bounties({
        qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
        meetingHeld: { enabled: true, type: 'flat', amount: 30 },
      }),
    );
    const before = await refer(s);
    await move(s.referrer, before.id, 'intro_occurred');
    // $100 and $30 pending, 70% of each.
    expect((await expectFiguresAgree(s.referrer)).payoutSummary.pendingCents).toBe(7_000 + 2_100);
    await deliver(ctx, 'bounties.saved', {
      vendorId: s.vendor.vendorId,
      version: 2,
      bounties: bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 1 } }),
    });
    const after = await refer(s);
    await move(s.referrer, after.id, 'intro_occurred');
    // The referral made before keeps $100 and $30; the one made after pends $1 at Qualified Lead only.
    expect((await expectFiguresAgree(s.referrer)).payoutSummary.pendingCents).toBe(7_000 + 2_100 + 70);
    await confirmed(s, before.id, { milestone: 'qualifiedLead' });
    expect((await expectFiguresAgree(s.referrer)).payoutSummary).toMatchObject({
      pendingCents: 2_100 + 70,
      inEscrowCents: 7_000,
    });
  });

  it('a vendor that lost its verification pays nothing; an administrator cannot record for it (409)', async () => {
    const s = await setup(bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 10 } }));
    const { id } = await refer(s);
    await move(s.referrer, id, 'intro_made');
    expect((await impact(s.referrer)).payoutSummary.pendingCents).toBe(700);
    await saveVendor(ctx, { ...s.vendor, verified: false, version: 2 });
    // The old verified snapshot arriving late changes nothing.
    await saveVendor(ctx, { ...s.vendor, verified: true, version: 1 });
    expect((await expectFiguresAgree(s.referrer)).payoutSummary.pendingCents).toBe(0);
    const response = await adminConfirm(id, { milestone: 'closedWon', dealValueCents: 500_000 });
    expect([response.statusCode, response.json().code]).toEqual([409, 'VENDOR_NOT_VERIFIED']);
    // Nothing recorded, and the referral did not move to Closed-Won (it would count as a win on Impact).
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 0, commissions: 0, entries: 0, balance: 0 });
    const after = await app().inject({ method: 'GET', url: `/api/referrals/${id}`, headers: s.referrer.headers });
    expect(after.json().status).toBe('intro_made');
    // Nor can its referrer ask for a confirmation nobody can give; told why, not that it reached no vendor.
    const asked = await app().inject({
      method: 'POST',
      url: `/api/referrals/${id}/confirmation-requests`,
      headers: s.referrer.headers,
      payload: { milestone: 'qualifiedLead' },
    });
    expect([asked.statusCode, asked.json().code]).toEqual([409, 'VENDOR_NOT_VERIFIED']);
  });
});

describe('stage moves after money was earned', () => {
  it('moving back from Closed-Won keeps the earned commissions and earns nothing again', async () => {
    const s = await setup(
      bounties({
        qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
        closedWon: { enabled: true, type: 'percentage_arr', amount: 10 },
      }),
    );
    const { id } = await refer(s);
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    const lead = await confirmed(s, id, { milestone: 'closedWon', dealValueCents: 1_000_000 });
    expect(lead.stage).toBe('became_customer');
    const earned = { qualifiedLead: [10000, 7000, 3000, 'in_escrow'], closedWon: [100000, 70000, 30000, 'in_escrow'] };
    expect(await amountsOf(s.referrer, id)).toEqual(earned);
    let summary = await expectFiguresAgree(s.referrer);
    expect(summary.closedWonCount).toBe(1);
    expect(summary.partnerLeaderboard.find((p) => p.partner === s.vendor.name)?.revenueWonCents).toBe(1_000_000);

    // Back to Tee-up, then Closed-Won again, by the referrer: the money does not move, nothing new is earned.
    await move(s.referrer, id, 'pending');
    summary = await expectFiguresAgree(s.referrer);
    expect(summary.closedWonCount).toBe(0);
    expect(summary.partnerLeaderboard.find((p) => p.partner === s.vendor.name)?.revenueWonCents).toBe(0);
    expect(summary.payoutSummary).toMatchObject({ inEscrowCents: 77000, earnedCents: 77000, pendingCents: 0 });
    await move(s.referrer, id, 'became_customer');
    expect(await amountsOf(s.referrer, id)).toEqual(earned);
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 2, commissions: 2, entries: 2, balance: 77000 });
    summary = await expectFiguresAgree(s.referrer);
    expect(summary.payoutSummary).toMatchObject({ inEscrowCents: 77000, earnedCents: 77000, pendingCents: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      ctx.published.filter(
        (e) => e.name === 'commission.created' && (e.payload as { referralId: number }).referralId === id,
      ),
    ).toHaveLength(2);
  });

  it('out of Declined: reversed commissions stay reversed, paid ones stay paid; the withdrawal is not undone', async () => {
    const s = await setup(
      bounties({
        qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
        meetingHeld: { enabled: true, type: 'flat', amount: 50 },
        closedWon: { enabled: true, type: 'flat', amount: 1000 },
      }),
    );
    const { id } = await refer(s);
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    await confirmed(s, id, { milestone: 'meetingHeld' });
    const qualified = (await commissionsOf(s.referrer)).find((c) => c.milestone === 'qualifiedLead')!;
    expect((await pay([qualified.id])).statusCode).toBe(201);
    await move(s.referrer, id, 'declined');
    const after = {
      qualifiedLead: [10000, 7000, 3000, 'paid'],
      meetingHeld: [5000, 3500, 1500, 'reversed'],
    };
    expect(await amountsOf(s.referrer, id)).toEqual(after);
    // Declining again (a no-op) and leaving Declined change no money.
    await move(s.referrer, id, 'declined');
    await move(s.referrer, id, 'intro_occurred');
    expect(await amountsOf(s.referrer, id)).toEqual(after);
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 2, commissions: 2, entries: 4, balance: 0 });
    const summary = await expectFiguresAgree(s.referrer);
    expect(summary.payoutSummary).toMatchObject({
      inEscrowCents: 0,
      paidCents: 7000,
      reversedCents: 3500,
      earnedCents: 7000,
    });
    // A reversed milestone is never confirmed (nor earned) again.
    const again = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'meetingHeld' });
    expect([again.statusCode, again.json().code]).toEqual([409, 'MILESTONE_ALREADY_CONFIRMED']);
    // The referral's own money agrees with the ledger.
    const referral = Referral.parse(
      (await app().inject({ method: 'GET', url: `/api/referrals/${id}`, headers: s.referrer.headers })).json(),
    );
    expect(referral.money.earnedCents).toBe(7000);
  });
});

describe('a withdrawn referral', () => {
  it('is withdrawn to the vendor: nothing to accept or decline, its intro never sent; out of Declined it opens again', async () => {
    const s = await setup(bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 100 } }));
    const { id } = await refer(s);
    await move(s.referrer, id, 'declined');
    const leadsUrl = `/api/vendors/${s.vendor.vendorId}/leads`;
    const inbox = async (query = '') => {
      const response = await app().inject({ method: 'GET', url: `${leadsUrl}${query}`, headers: s.member.headers });
      expect(response.statusCode, response.body).toBe(200);
      return Lead.array().parse(response.json());
    };
    expect((await inbox()).find((l) => l.referralId === id)?.status).toBe('withdrawn');
    // The vendor is told: its lead inbox and every member, once.
    await eventually(
      () =>
        ctx.published.some(
          (e) => e.name === 'lead.withdrawn' && (e.payload as { referralId: number }).referralId === id,
        ),
      10_000,
      'lead.withdrawn',
    );
    const told = ctx.published.filter(
      (e) => e.name === 'lead.withdrawn' && (e.payload as { referralId: number }).referralId === id,
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.payload).toMatchObject({
      vendorId: s.vendor.vendorId,
      vendorName: s.vendor.name,
      referrerName: 'Rita Referrer',
      recipients: expect.arrayContaining([s.member.email]),
    });
    expect((await inbox('?status=new')).some((l) => l.referralId === id)).toBe(false);
    expect((await inbox('?status=declined')).some((l) => l.referralId === id)).toBe(false);
    expect((await inbox('?status=withdrawn')).map((l) => l.referralId)).toEqual([id]);
    const referral = async () =>
      Referral.parse(
        (await app().inject({ method: 'GET', url: `/api/referrals/${id}`, headers: s.referrer.headers })).json(),
      );
    expect((await referral()).lead?.status).toBe('withdrawn');

    const before = await moneyRowsOf(id);
    const outboxBefore = (await ctx.sql.query('SELECT count(*)::int n FROM referrals.outbox_events')).rows[0].n;
    for (const decision of ['accept', 'decline']) {
      const refused = await app().inject({
        method: 'POST',
        url: `${leadsUrl}/${id}/${decision}`,
        headers: s.member.headers,
        payload: decision === 'decline' ? { reason: 'Not for us' } : {},
      });
      expect([refused.statusCode, refused.json().code], decision).toEqual([409, 'LEAD_WITHDRAWN']);
    }
    const confirmation = await confirm(s.member, s.vendor.vendorId, id, { milestone: 'qualifiedLead' });
    expect([confirmation.statusCode, confirmation.json().code]).toEqual([409, 'LEAD_DECLINED']);
    const send = await app().inject({
      method: 'POST',
      url: `/api/referrals/${id}/send-email`,
      headers: s.referrer.headers,
      payload: { subject: 'Meet them', body: 'Hello', recipients: { to: ['client@client.example'], cc: [], bcc: [] } },
    });
    expect([send.statusCode, send.json().code]).toEqual([409, 'REFERRAL_DECLINED']);
    expect(await moneyRowsOf(id)).toEqual(before);
    expect((await ctx.sql.query('SELECT count(*)::int n FROM referrals.outbox_events')).rows[0].n).toBe(outboxBefore);
    const [row] = (
      await ctx.sql.query('SELECT lead_status::text, email_sent_at FROM referrals.referrals WHERE id = $1', [id])
    ).rows;
    expect(row).toEqual({ lead_status: 'new', email_sent_at: null });
    expect((await referral()).awaitingApproval).toBe(false);

    // The referrer moves it out of Declined (any stage from any, spec 4): the lead is open again.
    await move(s.referrer, id, 'intro_made');
    expect((await inbox('?status=new')).map((l) => l.referralId)).toContain(id);
    const accepted = await app().inject({
      method: 'POST',
      url: `${leadsUrl}/${id}/accept`,
      headers: s.member.headers,
      payload: {},
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(Lead.parse(accepted.json()).status).toBe('accepted');
  });
});

describe('who confirms', () => {
  it("the referrer's stage moves and confirmation requests never create a commission", async () => {
    const s = await setup(bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 100 } }));
    const { id } = await refer(s);
    await move(s.referrer, id, 'intro_made');
    const asked = await app().inject({
      method: 'POST',
      url: `/api/referrals/${id}/confirmation-requests`,
      headers: s.referrer.headers,
      payload: { milestone: 'qualifiedLead' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // Through the administrators' and the vendor's routes with the referrer's own identity.
    expect((await app().inject({ ...adminConfirmAs(s.referrer, id) })).statusCode).toBe(403);
    expect((await confirm(s.referrer, s.vendor.vendorId, id, { milestone: 'qualifiedLead' })).statusCode).toBe(403);
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 0, commissions: 0, entries: 0, balance: 0 });
    expect((await expectFiguresAgree(s.referrer)).payoutSummary).toMatchObject({
      pendingCents: 7000,
      inEscrowCents: 0,
      earnedCents: 0,
    });
  });

  it('a referrer who is also a member of the vendor cannot confirm their own referral', async () => {
    const s = await setup(bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 100 } }));
    // The referrer joins the vendor's workspace.
    await saveVendor(ctx, { ...s.vendor, members: [s.member, s.referrer], version: 2 });
    const { id } = await refer(s);
    const own = await confirm(s.referrer, s.vendor.vendorId, id, { milestone: 'qualifiedLead' });
    expect([own.statusCode, own.json().code]).toEqual([403, 'OWN_REFERRAL']);
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 0, commissions: 0, entries: 0, balance: 0 });
    expect((await commissionsOf(s.referrer)).length).toBe(0);
    // Nor set the deal value a percentage bounty would be paid on.
    const valued = await app().inject({
      method: 'PUT',
      url: `/api/vendors/${s.vendor.vendorId}/leads/${id}/expected-value`,
      headers: s.referrer.headers,
      payload: { expectedValueCents: 1_000_000_000 },
    });
    expect([valued.statusCode, valued.json().code]).toEqual([403, 'OWN_REFERRAL']);
    const lead = await app().inject({
      method: 'GET',
      url: `/api/vendors/${s.vendor.vendorId}/leads/${id}`,
      headers: s.member.headers,
    });
    expect(Lead.parse(lead.json()).money.expectedValueCents).toBeNull();
    // Nor accept or decline it (an acceptance emails the referrer and counts in their acceptance rate).
    for (const [decision, payload] of [
      ['accept', {}],
      ['decline', { reason: 'Not for us' }],
    ] as const) {
      const decided = await app().inject({
        method: 'POST',
        url: `/api/vendors/${s.vendor.vendorId}/leads/${id}/${decision}`,
        headers: s.referrer.headers,
        payload,
      });
      expect([decided.statusCode, decided.json().code]).toEqual([403, 'OWN_LEAD']);
    }
    const undecided = await app().inject({
      method: 'GET',
      url: `/api/vendors/${s.vendor.vendorId}/leads/${id}`,
      headers: s.member.headers,
    });
    expect(Lead.parse(undecided.json()).status).toBe('new');
    // Another member of the workspace can.
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 1, commissions: 1, entries: 1, balance: 7000 });
  });

  it("an administrator cannot record a milestone of their own referral on the vendor's behalf", async () => {
    const s = await setup(bounties({ closedWon: { enabled: true, type: 'flat', amount: 100 } }));
    const adminReferrer = testUser('admin-referrer', { isAdmin: true });
    const { id } = await refer({ ...s, referrer: adminReferrer });
    const own = await app().inject({
      method: 'POST',
      url: `/api/admin/referrals/${id}/milestones`,
      headers: adminReferrer.headers,
      payload: { milestone: 'closedWon', dealValueCents: 100_000, note: 'The vendor told me' },
    });
    expect([own.statusCode, own.json().code]).toEqual([403, 'OWN_REFERRAL']);
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 0, commissions: 0, entries: 0, balance: 0 });
    // Another administrator may, on the vendor's behalf.
    expect((await adminConfirm(id, { milestone: 'closedWon', dealValueCents: 100_000 })).statusCode).toBe(200);
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 1, commissions: 1, entries: 1, balance: 7000 });
  });

  it('a vendor member and an administrator confirming at once: one confirmation, one commission', async () => {
    const s = await setup(bounties({ closedWon: { enabled: true, type: 'flat', amount: 100 } }));
    const { id } = await refer(s);
    const responses = await Promise.all([
      confirm(s.member, s.vendor.vendorId, id, { milestone: 'closedWon', dealValueCents: 100 }),
      adminConfirm(id, { milestone: 'closedWon', dealValueCents: 200 }),
      confirm(s.member, s.vendor.vendorId, id, { milestone: 'closedWon', dealValueCents: 300 }),
      adminConfirm(id, { milestone: 'closedWon', dealValueCents: 400 }),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 1, commissions: 1, entries: 1, balance: 7000 });
  });
});

const adminConfirmAs = (user: TestUser, referralId: number) => ({
  method: 'POST' as const,
  url: `/api/admin/referrals/${referralId}/milestones`,
  headers: user.headers,
  payload: { milestone: 'qualifiedLead', note: 'mine' },
});

describe('payouts', () => {
  it('a payout recorded twice (same reference, same commissions) pays once; concurrent retries too', async () => {
    const s = await setup(bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 123.45 } }));
    const { id } = await refer(s);
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    const [commission] = await commissionsOf(s.referrer);
    const reference = `DUP-${randomUUID().slice(0, 8)}`;
    const results = await Promise.all(Array.from({ length: 5 }, () => pay([commission!.id], reference)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const payout = Payout.parse(results.find((r) => r.statusCode === 201)!.json());
    // 12345 cents; referrer 8641.5 -> 8642.
    expect(payout.totalCents).toBe(8642);
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 1, commissions: 1, entries: 2, balance: 0 });
    const due = PayoutDue.array().parse(
      (await app().inject({ method: 'GET', url: '/api/admin/payouts/due', headers: admin.headers })).json(),
    );
    expect(due.find((d) => d.referrer.userId === s.referrer.userId)).toBeUndefined();
    expect((await expectFiguresAgree(s.referrer)).payoutSummary).toMatchObject({
      inEscrowCents: 0,
      paidCents: 8642,
      earnedCents: 8642,
    });
    await eventually(
      () =>
        ctx.published.some(
          (e) => e.name === 'payout.recorded' && (e.payload as { payoutId: string }).payoutId === payout.id,
        ),
      10_000,
      'payout.recorded',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      ctx.published.filter(
        (e) => e.name === 'payout.recorded' && (e.payload as { reference: string }).reference === reference,
      ),
    ).toHaveLength(1);
  });

  it('a payout dated before its commissions were earned is refused on paidOn, nothing written; their day anywhere is accepted', async () => {
    const s = await setup(bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 100 } }));
    const { id } = await refer(s);
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    const [commission] = await commissionsOf(s.referrer);
    // The day it was earned where that day is earliest (UTC-12), and the day before it.
    const earliest = new Date(Date.parse(commission!.earnedAt) - 12 * 3600_000).toISOString().slice(0, 10);
    const before = new Date(Date.parse(`${earliest}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const payoutsBefore = (await ctx.sql.query('SELECT count(*)::int n FROM referrals.payouts')).rows[0].n;
    for (const paidOn of [before, '1900-01-01']) {
      const refused = await pay([commission!.id], `EARLY-${randomUUID().slice(0, 8)}`, paidOn);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'PAYOUT_BEFORE_EARNED',
        field: 'paidOn',
        message: `The date it was paid cannot be before the commissions were earned (${earliest} at the earliest)`,
      });
    }
    expect(await moneyRowsOf(id)).toEqual({ confirmations: 1, commissions: 1, entries: 1, balance: 100 * 70 });
    expect((await ctx.sql.query('SELECT count(*)::int n FROM referrals.payouts')).rows[0].n).toBe(payoutsBefore);
    const accepted = await pay([commission!.id], `ONTIME-${randomUUID().slice(0, 8)}`, earliest);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(Payout.parse(accepted.json()).paidOn).toBe(earliest);
  });

  it('a payout and a withdrawal racing settle each commission once', async () => {
    const s = await setup(bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 100 } }));
    const { id } = await refer(s);
    await confirmed(s, id, { milestone: 'qualifiedLead' });
    const [commission] = await commissionsOf(s.referrer);
    const [paid] = await Promise.all([
      pay([commission!.id]),
      app().inject({
        method: 'PUT',
        url: `/api/referrals/${id}/status`,
        headers: s.referrer.headers,
        payload: { status: 'declined' },
      }),
    ]);
    const { rows } = await ctx.sql.query(
      `SELECT kind FROM referrals.commission_entries WHERE referral_id = $1 AND kind <> 'earned'`,
      [id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].kind).toBe(paid.statusCode === 201 ? 'paid' : 'reversed');
    const summary = await expectFiguresAgree(s.referrer);
    expect(summary.payoutSummary.inEscrowCents).toBe(0);
    expect(summary.payoutSummary.paidCents + summary.payoutSummary.reversedCents).toBe(7000);
  });
});
