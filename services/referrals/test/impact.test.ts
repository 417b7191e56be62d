import { Commission, ImpactSummary, type Bounties, type ReferralStatus } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  referralInput,
  saveVendor,
  websiteOf,
  startReferrals,
  testUser,
  type TestContext,
  type TestUser,
} from './helpers.ts';

/** A payout's date: today's, as a payout cannot predate its commissions (earned as the test runs). */
const PAID_ON = new Date().toISOString().slice(0, 10);

/**
 * The Impact dashboard on a small realistic data set: the user (company "Mine") sent 5 referrals to
 * three partners and received 3 (one from an Acme user, two from Globex users); Acme pays bounties.
 */
let ctx: TestContext;
const app = () => ctx.service.app;
const me = testUser('me');
const admin = testUser('admin', { isAdmin: true });
const ids: Record<string, number> = {};
const thisMonth = new Date().toISOString().slice(0, 7);
const acmeMember = testUser('acme-member');
let acmeId = '';

const register = (user: TestUser, companyName: string) =>
  deliver(ctx, 'user.registered', {
    userId: user.userId,
    email: user.email,
    firstName: 'F',
    lastName: 'L',
    companyName,
  });

async function create(user: TestUser, company: string, product: string, firstName: string): Promise<number> {
  const response = await app().inject({
    method: 'POST',
    url: '/api/referrals',
    headers: user.headers,
    payload: referralInput({
      company,
      product,
      website: websiteOf(company),
      referredFirstName: firstName,
      referredLastName: 'Doe',
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function move(id: number, status: ReferralStatus, user: TestUser = me) {
  const response = await app().inject({
    method: 'PUT',
    url: `/api/referrals/${id}/status`,
    headers: user.headers,
    payload: { status },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** Acme's member confirms a milestone (what earns money). */
async function confirm(id: number, milestone: string, dealValueCents?: number) {
  const response = await app().inject({
    method: 'POST',
    url: `/api/vendors/${acmeId}/leads/${id}/milestones`,
    headers: acmeMember.headers,
    payload: { milestone, dealValueCents },
  });
  expect(response.statusCode, response.body).toBe(200);
}

const impact = (query = '', user: TestUser = me) =>
  app().inject({ method: 'GET', url: `/api/referral-impact${query}`, headers: user.headers });
async function summary(query = ''): Promise<ImpactSummary> {
  const response = await impact(query);
  expect(response.statusCode, response.body).toBe(200);
  return ImpactSummary.parse(response.json());
}

beforeAll(async () => {
  ctx = await startReferrals();
  const acmeBounties: Bounties = {
    qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
    meetingHeld: { enabled: false },
    opportunityCreated: { enabled: true, type: 'flat', amount: 250 },
    closedWon: { enabled: true, type: 'percentage_arr', amount: 20 },
    retentionBonus: { enabled: false },
  };
  const acme = await saveVendor(ctx, { name: 'Acme', members: [acmeMember] });
  acmeId = acme.vendorId;
  await deliver(ctx, 'bounties.saved', { vendorId: acme.vendorId, version: 1, bounties: acmeBounties });
  await register(me, 'Mine Corp');
  // The user's company is a verified vendor workspace they are a member of: referrals to it are theirs to see.
  await saveVendor(ctx, { name: 'Mine Corp', members: [me] });
  ids.pending = await create(me, 'Acme', 'Rocket', 'Pia');
  ids.won = await create(me, 'Acme Inc.', 'Rocket', 'Wes');
  ids.declined = await create(me, 'Globex', 'Widget', 'Dee');
  ids.inFlight = await create(me, 'Globex', 'Widget', 'Ivy');
  ids.old = await create(me, 'Initech', 'Stapler', 'Olga');
  // The oldest referral was sent in January.
  await ctx.sql.query(`UPDATE referrals.referrals SET created_at = '2026-01-15T10:00:00Z' WHERE id = $1`, [ids.old]);
  await ctx.sql.query(
    `UPDATE referrals.referral_status_changes SET at = '2026-01-15T10:00:00Z' WHERE referral_id = $1`,
    [ids.old],
  );

  await move(ids.won!, 'intro_made');
  await move(ids.won!, 'intro_accepted');
  await move(ids.won!, 'became_customer');
  // The referrer's moves earn nothing: Acme confirms the milestones ($10,000 deal at Closed-Won).
  await confirm(ids.won!, 'qualifiedLead');
  await confirm(ids.won!, 'opportunityCreated', 800_000);
  await confirm(ids.won!, 'closedWon', 1_000_000);
  await move(ids.declined!, 'intro_made');
  await move(ids.declined!, 'declined');
  await move(ids.inFlight!, 'intro_made');
  // Globex is not on the platform: its expected value stands in for what a vendor would have entered.
  await ctx.sql.query(`UPDATE referrals.referrals SET expected_value_cents = 500000 WHERE id = $1`, [ids.inFlight]);

  // Received: other users' referrals routed to Mine's workspace (one from Acme, two from Globex).
  const acmeUser = testUser('acme');
  const globexUser = testUser('globex');
  await register(acmeUser, 'ACME Inc.');
  await register(globexUser, 'Globex');
  await create(acmeUser, 'Mine', 'Ledger', 'Rae');
  await create(globexUser, 'Mine Corp', 'Ledger', 'Rob');
  await create(globexUser, 'Mine', 'Vault', 'Ron');

  // One commission paid out (the Warm Intro's $70).
  const list = Commission.array().parse(
    (await app().inject({ method: 'GET', url: '/api/commissions', headers: me.headers })).json(),
  );
  const warm = list.find((c) => c.milestone === 'qualifiedLead')!;
  const paid = await app().inject({
    method: 'POST',
    url: '/api/admin/payouts',
    headers: admin.headers,
    payload: { reference: 'P-1', method: 'wise', paidOn: PAID_ON, commissionIds: [warm.id] },
  });
  expect(paid.statusCode, paid.body).toBe(201);
});

afterAll(async () => {
  await ctx?.close();
});

describe('GET /api/referral-impact', () => {
  it('computes every figure from the data', async () => {
    const s = await summary();
    expect(s.totalReferrals).toBe(5);
    expect([s.acceptanceRate, s.pendingRate, s.declineRate]).toEqual([40, 40, 20]);
    expect(s.currency).toBe('USD');
    expect(s.pipelineValueCents).toBe(500_000);
    expect(s.closedWonCount).toBe(1);
    expect(s.giveGetScore).toEqual({ sent: 5, received: 3 });
    // $70 + $175 + $1,400 (20% of $10,000, Starter keeps 70%), in cents, from the ledger.
    expect(s.payoutSummary).toEqual({
      currency: 'USD',
      pendingCents: 0,
      inEscrowCents: 157_500,
      paidCents: 7000,
      reversedCents: 0,
      earnedCents: 164_500,
    });
    expect(s.conversionFunnel).toEqual({ teeUps: 5, warmIntros: 3, demos: 1, closedWon: 1 });
    expect(s.partnerLeaderboard).toEqual([
      { partner: 'Acme', leadsSent: 2, leadsReceived: 1, revenueWonCents: 1_000_000, reciprocityRatio: 2 },
      { partner: 'Globex', leadsSent: 2, leadsReceived: 2, revenueWonCents: 0, reciprocityRatio: 1 },
      { partner: 'Initech', leadsSent: 1, leadsReceived: 0, revenueWonCents: 0, reciprocityRatio: 1 },
    ]);
    expect(s.recentActivity).toHaveLength(10);
    expect(s.recentActivity.slice(0, 7).map((a) => [a.type, a.partner, a.contact, a.amountCents])).toEqual([
      ['received', 'Globex', 'Ron Doe', null],
      ['received', 'Globex', 'Rob Doe', null],
      ['received', 'ACME Inc.', 'Rae Doe', null],
      ['accepted', 'Globex', 'Ivy Doe', null],
      // The referrer's own move to Declined: a withdrawal (Globex is not on the platform to decline it).
      ['withdrawn', 'Globex', 'Dee Doe', null],
      ['accepted', 'Globex', 'Dee Doe', null],
      ['closed', 'Acme', 'Wes Doe', 140_000],
    ]);
    expect(s.recentActivity.slice(7).map((a) => [a.type, a.amountCents])).toEqual([
      ['demo', 17_500],
      ['accepted', 7000],
      ['sent', null],
    ]);
    const times = s.recentActivity.map((a) => a.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(s.trends).toHaveLength(12);
    expect(s.trends.at(-1)).toEqual({ month: thisMonth, sent: 4, closedWon: 1, earnedCents: 164_500 });
    expect(s.trends.find((t) => t.month === '2026-01')).toEqual({
      month: '2026-01',
      sent: 1,
      closedWon: 0,
      earnedCents: 0,
    });
    expect(s.trends.reduce((n, t) => n + t.sent, 0)).toBe(5);
  });

  it('narrows by partner (any spelling of the company) and by creation dates', async () => {
    const acme = await summary('?partner=ACME');
    expect(acme.totalReferrals).toBe(2);
    expect(acme.giveGetScore).toEqual({ sent: 2, received: 1 });
    expect(acme.partnerLeaderboard.map((p) => p.partner)).toEqual(['Acme']);
    expect(acme.payoutSummary.earnedCents).toBe(164_500);
    expect((await summary('?partner=Globex')).payoutSummary).toMatchObject({
      earnedCents: 0,
      paidCents: 0,
      inEscrowCents: 0,
    });
    expect((await summary('?partner=Nobody')).totalReferrals).toBe(0);

    expect((await summary('?to=2026-01-15')).totalReferrals).toBe(1);
    expect((await summary('?from=2026-01-16')).totalReferrals).toBe(4);
    expect((await summary('?from=2026-01-15&to=2026-01-15')).conversionFunnel).toEqual({
      teeUps: 1,
      warmIntros: 0,
      demos: 0,
      closedWon: 0,
    });
    const future = await summary('?from=2099-01-01');
    expect([
      future.totalReferrals,
      future.acceptanceRate,
      future.giveGetScore.received,
      future.recentActivity.length,
    ]).toEqual([0, 0, 0, 0]);
    // Trends end with `to`'s month.
    expect((await summary('?to=2026-03-31')).trends.map((t) => t.month).at(-1)).toBe('2026-03');
  });

  it('receives only through a workspace: a company name typed at sign-up receives nothing', async () => {
    // Anyone may register with the same company name: neither the figures nor the activity follow the name.
    const claimant = testUser('claimant');
    await register(claimant, 'MINE CORP');
    const response = await impact('', claimant);
    const s = ImpactSummary.parse(response.json());
    expect(s.giveGetScore.received).toBe(0);
    expect(s.recentActivity).toEqual([]);
    expect(response.body).not.toContain('Globex');
    // Ranges and partners narrow what the member receives.
    expect((await summary('?partner=Globex')).giveGetScore.received).toBe(2);
    expect((await summary(`?from=${new Date().toISOString().slice(0, 10)}`)).giveGetScore.received).toBe(3);
  });

  it('is never stale: a confirmation or a reversal changes the figures at once', async () => {
    const before = await summary();
    await confirm(ids.pending!, 'qualifiedLead');
    const after = await summary();
    expect(after.payoutSummary.inEscrowCents - before.payoutSummary.inEscrowCents).toBe(7000);
    const reversed = await app().inject({
      method: 'POST',
      url: `/api/vendors/${acmeId}/leads/${ids.pending}/reverse`,
      headers: acmeMember.headers,
      payload: { reason: 'Duplicate lead' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const last = await summary();
    expect(last.payoutSummary).toMatchObject({
      inEscrowCents: before.payoutSummary.inEscrowCents,
      reversedCents: 7000,
      earnedCents: before.payoutSummary.earnedCents,
    });
  });

  it("shows a commission once in the activity, on the referral's latest move to its stage", async () => {
    const back = testUser('back');
    await register(back, 'Back Again Ltd');
    const id = await create(back, 'Acme', 'Rocket', 'Bea');
    // Warm Intro twice (there and back again), then Acme confirms it: $70 earned once.
    await move(id, 'intro_made', back);
    await move(id, 'pending', back);
    await move(id, 'intro_made', back);
    await confirm(id, 'qualifiedLead');
    const activity = ImpactSummary.parse((await impact('', back)).json()).recentActivity;
    expect(activity.map((a) => [a.type, a.amountCents])).toEqual([
      ['accepted', 7000],
      ['accepted', null],
      ['sent', null],
    ]);
    // Acme reverses the deal: the activity no longer shows money the referrer does not have.
    const reversed = await app().inject({
      method: 'POST',
      url: `/api/vendors/${acmeId}/leads/${id}/reverse`,
      headers: acmeMember.headers,
      payload: { reason: 'Duplicate lead' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const after = ImpactSummary.parse((await impact('', back)).json()).recentActivity;
    expect(after.map((a) => [a.type, a.amountCents])).toEqual([
      ['accepted', null],
      ['accepted', null],
      ['sent', null],
    ]);
  });

  it('shows nothing of other users', async () => {
    const stranger = testUser('stranger');
    const response = await impact('', stranger);
    const s = ImpactSummary.parse(response.json());
    expect([
      s.totalReferrals,
      s.payoutSummary.earnedCents,
      s.partnerLeaderboard.length,
      s.recentActivity.length,
    ]).toEqual([0, 0, 0, 0]);
  });

  it('answers 400 to a bad query and 401 without a user', async () => {
    for (const query of ['?from=yesterday', '?to=2026-13-01', '?unknown=1', `?partner=${'x'.repeat(201)}`]) {
      const response = await impact(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toHaveProperty('message');
    }
    expect((await app().inject({ method: 'GET', url: '/api/referral-impact' })).statusCode).toBe(401);
    expect((await app().inject({ method: 'GET', url: '/api/commissions' })).statusCode).toBe(401);
    expect(
      (await app().inject({ method: 'GET', url: '/api/commissions?from=x', headers: me.headers })).statusCode,
    ).toBe(400);
  });
});

describe('GET /api/commissions', () => {
  it("lists the user's commissions newest first, narrowed like the dashboard", async () => {
    const response = await app().inject({ method: 'GET', url: '/api/commissions', headers: me.headers });
    const list = Commission.array().parse(response.json());
    // (The dashboard test above added a reversed commission of another referral.)
    expect(list.find((c) => c.referralId === ids.pending)?.state).toBe('reversed');
    expect(
      list
        .filter((c) => c.referralId === ids.won)
        .map((c) => [c.milestone, c.grossCents, c.referrerCents, c.feeCents, c.state, c.contact, c.partner]),
    ).toEqual([
      ['closedWon', 200_000, 140_000, 60_000, 'in_escrow', 'Wes Doe', 'Acme'],
      ['opportunityCreated', 25_000, 17_500, 7500, 'in_escrow', 'Wes Doe', 'Acme'],
      ['qualifiedLead', 10_000, 7000, 3000, 'paid', 'Wes Doe', 'Acme'],
    ]);
    expect(list.at(-1)).toMatchObject({ payoutReference: 'P-1', currency: 'USD' });
    const globex = await app().inject({ method: 'GET', url: '/api/commissions?partner=Globex', headers: me.headers });
    expect(globex.json()).toEqual([]);
    const other = await app().inject({ method: 'GET', url: '/api/commissions', headers: testUser().headers });
    expect(other.json()).toEqual([]);
  });
});
