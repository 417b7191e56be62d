import { randomUUID } from 'node:crypto';
import { Commission, ERRORS, Referral, type Bounties, type ReferralStatus } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commissionUseCases } from '../src/commissions.ts';
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

let ctx: TestContext;
const app = () => ctx.service.app;
/** The retention check with a chosen clock (the service runs it on a timer). */
const earnRetentionBonuses = (now: Date) => commissionUseCases(ctx.service).earnRetentionBonuses(now);

const off = { enabled: false } as const;
const bounties = (overrides: Partial<Bounties>): Bounties => ({
  qualifiedLead: off,
  meetingHeld: off,
  opportunityCreated: off,
  closedWon: off,
  retentionBonus: off,
  ...overrides,
});

/**
 * A verified vendor workspace (`vendor.saved`) with bounties saved through `bounties.saved`: referrals to its
 * company name are routed to it, and earn its bounties.
 */
async function vendor(name: string, saved: Bounties, verified = true) {
  const { vendorId } = await saveVendor(ctx, { name, verified });
  await deliver(ctx, 'bounties.saved', { vendorId, version: 1, bounties: saved });
  return vendorId;
}

async function created(user: TestUser, company: string, product = 'Rocket'): Promise<Referral> {
  const response = await app().inject({
    method: 'POST',
    url: '/api/referrals',
    headers: user.headers,
    payload: referralInput({ company, product, website: websiteOf(company) }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const setStatus = (user: TestUser, id: number, status: ReferralStatus, dealValue?: number) =>
  app().inject({
    method: 'PUT',
    url: `/api/referrals/${id}/status`,
    headers: user.headers,
    payload: { status, ...(dealValue === undefined ? {} : { dealValue }) },
  });

async function moved(user: TestUser, id: number, status: ReferralStatus, dealValue?: number): Promise<Referral> {
  const response = await setStatus(user, id, status, dealValue);
  expect(response.statusCode, response.body).toBe(200);
  return Referral.parse(response.json());
}

async function commissionsOf(user: TestUser, query = ''): Promise<Commission[]> {
  const response = await app().inject({ method: 'GET', url: `/api/commissions${query}`, headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return Commission.array().parse(response.json());
}

/** milestone → [gross, referrer, fee] of one referral, for exact assertions. */
async function amountsOf(user: TestUser, referralId: number) {
  const all = await commissionsOf(user);
  return Object.fromEntries(
    all
      .filter((c) => c.referralId === referralId)
      .map((c) => [c.milestone, [c.grossAmount, c.referrerAmount, c.platformFee]]),
  );
}

beforeAll(async () => {
  ctx = await startReferrals();
});

afterAll(async () => {
  await ctx?.close();
});

describe('commissions', () => {
  it('pays each reached milestone its enabled flat bounty, split 70/30, and waits for the deal value of a percentage', async () => {
    await vendor(
      'Acme Inc.',
      bounties({
        qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
        meetingHeld: { enabled: false, type: 'flat', amount: 999 },
        opportunityCreated: { enabled: true, type: 'flat', amount: 250.55 },
        closedWon: { enabled: true, type: 'percentage_arr', amount: 20 },
      }),
    );
    const user = testUser();
    // Routed by the vendor's key: "ACME" matches "Acme Inc." (case and legal suffix).
    const { id, lead } = await created(user, 'ACME');
    expect(lead).toMatchObject({ vendorName: 'Acme Inc.', status: 'new' });
    expect(await amountsOf(user, id)).toEqual({});

    await moved(user, id, 'intro_made');
    expect(await amountsOf(user, id)).toEqual({ qualifiedLead: [100, 70, 30] });
    await moved(user, id, 'intro_occurred'); // disabled: nothing
    await moved(user, id, 'intro_accepted');
    expect(await amountsOf(user, id)).toEqual({
      qualifiedLead: [100, 70, 30],
      opportunityCreated: [250.55, 175.39, 75.16],
    });

    // Closed-Won without a deal value: the percentage waits.
    const won = await moved(user, id, 'became_customer');
    expect(won.dealValue).toBeNull();
    expect((await amountsOf(user, id)).closedWon).toBeUndefined();
    // The same status again with the deal value: 20% of $10,000 = $2,000, the referrer keeps $1,400.
    const valued = await moved(user, id, 'became_customer', 10_000);
    expect(valued.dealValue).toBe(10_000);
    expect((await amountsOf(user, id)).closedWon).toEqual([2000, 1400, 600]);
    const bad = await setStatus(user, id, 'became_customer', -5);
    expect([bad.statusCode, bad.json()]).toEqual([
      400,
      { message: 'Deal value must be positive', code: 'VALIDATION_FAILED', field: 'dealValue' },
    ]);
    // Giving it again (or another value) pays nothing more, and records no new move.
    await moved(user, id, 'became_customer', 20_000);
    expect((await amountsOf(user, id)).closedWon).toEqual([2000, 1400, 600]);
    const final = await moved(user, id, 'became_customer', 20_000.004);
    expect(final.dealValue).toBe(20_000);
    expect(final.history.map((h) => h.to)).toEqual([
      'pending',
      'intro_made',
      'intro_occurred',
      'intro_accepted',
      'became_customer',
    ]);

    const all = await commissionsOf(user);
    expect(all.map((c) => c.state)).toEqual(['in_escrow', 'in_escrow', 'in_escrow']);
    expect(all[0]).toMatchObject({
      milestone: 'closedWon',
      // One vendor, one name: the workspace's, whatever the referrer typed.
      partner: 'Acme Inc.',
      contact: 'Grace Hopper',
      referralId: id,
      paidOutAt: null,
    });
  });

  it('pays percentage_arr on a deal value given with the status, and percentage_mrr for its months (total recorded)', async () => {
    await vendor(
      'Monthly Co',
      bounties({ closedWon: { enabled: true, type: 'percentage_mrr', amount: 10, months: 6 } }),
    );
    await vendor('Yearly Co', bounties({ closedWon: { enabled: true, type: 'percentage_arr', amount: 15 } }));
    const user = testUser();
    const monthly = await created(user, 'Monthly Co');
    const yearly = await created(user, 'Yearly Co');
    await moved(user, monthly.id, 'became_customer', 12_000);
    await moved(user, yearly.id, 'became_customer', 33_333.33);
    // 10% of $1,000 a month for 6 months = $600; 15% of $33,333.33 = $5,000.00 (cents rounded).
    expect(await amountsOf(user, monthly.id)).toEqual({ closedWon: [600, 420, 180] });
    expect(await amountsOf(user, yearly.id)).toEqual({ closedWon: [5000, 3500, 1500] });
  });

  it('pays once whatever the retries, concurrent requests and moves back and forth', async () => {
    await vendor(
      'Retry Co',
      bounties({
        qualifiedLead: { enabled: true, type: 'flat', amount: 50 },
        closedWon: { enabled: true, type: 'flat', amount: 1000 },
      }),
    );
    const user = testUser();
    const { id } = await created(user, 'Retry Co');
    await moved(user, id, 'intro_made');
    await moved(user, id, 'intro_made'); // the same PUT again
    await moved(user, id, 'pending');
    await moved(user, id, 'intro_made');
    const [a, b] = await Promise.all([setStatus(user, id, 'became_customer'), setStatus(user, id, 'became_customer')]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    await moved(user, id, 'intro_accepted');
    await moved(user, id, 'became_customer');
    expect(await amountsOf(user, id)).toEqual({ qualifiedLead: [50, 35, 15], closedWon: [1000, 700, 300] });
    const { rows } = await ctx.sql.query(
      'SELECT count(*)::int AS n FROM referrals.commissions WHERE referral_id = $1',
      [id],
    );
    expect(rows[0].n).toBe(2);

    // Concurrent first moves of another referral.
    const other = await created(user, 'Retry Co');
    const moves = await Promise.all([1, 2, 3].map(() => setStatus(user, other.id, 'intro_made')));
    expect(moves.map((m) => m.statusCode)).toEqual([200, 200, 200]);
    expect(await amountsOf(user, other.id)).toEqual({ qualifiedLead: [50, 35, 15] });
  });

  it('pays nothing without bounties, for a disabled milestone, or a jump past an unreached one', async () => {
    await vendor(
      'Picky Co',
      bounties({
        qualifiedLead: { enabled: true, type: 'flat', amount: 10 },
        closedWon: { enabled: false, type: 'flat', amount: 500 },
      }),
    );
    const user = testUser();
    const none = await created(user, 'Nobody Pays Ltd');
    await moved(user, none.id, 'intro_made');
    await moved(user, none.id, 'became_customer', 5000);
    const picky = await created(user, 'Picky Co');
    await moved(user, picky.id, 'became_customer', 5000); // never was a Warm Intro; closedWon disabled
    expect(await commissionsOf(user)).toEqual([]);
  });

  it('keeps the newest bounties: a redelivered or older version changes nothing', async () => {
    const { vendorId } = await saveVendor(ctx, { name: 'Ordering' });
    const newer = bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 42 } });
    const id = randomUUID();
    await deliver(ctx, 'bounties.saved', { vendorId, version: 2, bounties: newer }, id);
    await deliver(
      ctx,
      'bounties.saved',
      { vendorId, version: 3, bounties: bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 1 } }) },
      id,
    );
    await deliver(ctx, 'bounties.saved', {
      vendorId,
      version: 1,
      bounties: bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 7 } }),
    });
    const user = testUser();
    const { id: referralId } = await created(user, 'Ordering');
    await moved(user, referralId, 'intro_made');
    expect(await amountsOf(user, referralId)).toEqual({ qualifiedLead: [42, 29.4, 12.6] });
  });

  it("pays nothing of an unverified vendor's bounties, nor of a vendor no longer verified", async () => {
    const flat = bounties({
      qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
      closedWon: { enabled: true, type: 'flat', amount: 1000 },
    });
    await vendor('Claimed Co', flat, false);
    const user = testUser();
    const claimed = await created(user, 'Claimed Co');
    expect(claimed.lead).toBeNull();
    await moved(user, claimed.id, 'intro_made');
    expect(await amountsOf(user, claimed.id)).toEqual({});

    const vendorId = await vendor('Lapsed Co', flat);
    const lapsed = await created(user, 'Lapsed Co');
    expect(lapsed.lead?.vendorId).toBe(vendorId);
    await moved(user, lapsed.id, 'intro_made');
    expect(await amountsOf(user, lapsed.id)).toEqual({ qualifiedLead: [100, 70, 30] });
    await saveVendor(ctx, { vendorId, name: 'Lapsed Co', verified: false, version: 2 });
    await moved(user, lapsed.id, 'became_customer');
    expect(await amountsOf(user, lapsed.id)).toEqual({ qualifiedLead: [100, 70, 30] });
  });

  it('pays the retention bonus once the customer stayed Closed-Won for its months (the check with a chosen clock)', async () => {
    await vendor(
      'Loyal Co',
      bounties({
        closedWon: { enabled: true, type: 'flat', amount: 100 },
        retentionBonus: { enabled: true, type: 'flat', amount: 300, months: 3 },
      }),
    );
    await vendor(
      'Loyal Pct',
      bounties({ retentionBonus: { enabled: true, type: 'percentage_arr', amount: 5, months: 1 } }),
    );
    const user = testUser();
    const stays = await created(user, 'Loyal Co');
    const leaves = await created(user, 'Loyal Co');
    const noValue = await created(user, 'Loyal Pct');
    for (const r of [stays, leaves, noValue]) await moved(user, r.id, 'became_customer');
    await moved(user, leaves.id, 'intro_accepted'); // no longer a customer: the clock stops
    const { rows } = await ctx.sql.query('SELECT closed_won_at FROM referrals.referrals WHERE id = $1', [stays.id]);
    const wonAt = new Date(rows[0].closed_won_at);
    const after = (months: number, days = 0) =>
      new Date(Date.UTC(wonAt.getUTCFullYear(), wonAt.getUTCMonth() + months, wonAt.getUTCDate() + days, 23, 59, 59));

    expect(await earnRetentionBonuses(after(2))).toBe(0);
    expect((await amountsOf(user, stays.id)).retentionBonus).toBeUndefined();
    expect(await earnRetentionBonuses(after(3, 1))).toBe(1);
    expect(await earnRetentionBonuses(after(6))).toBe(0); // once
    expect(await amountsOf(user, stays.id)).toEqual({ closedWon: [100, 70, 30], retentionBonus: [300, 210, 90] });
    expect((await amountsOf(user, leaves.id)).retentionBonus).toBeUndefined();
    // A percentage retention bonus waits for the deal value.
    expect(await amountsOf(user, noValue.id)).toEqual({});
    await moved(user, noValue.id, 'became_customer', 24_000);
    expect(await earnRetentionBonuses(after(6))).toBe(1);
    expect(await amountsOf(user, noValue.id)).toEqual({ retentionBonus: [1200, 840, 360] });
  });

  it('records payouts by administrators only: 403 for others, 404 for unknown ones', async () => {
    await vendor('Payer Co', bounties({ qualifiedLead: { enabled: true, type: 'flat', amount: 100 } }));
    const user = testUser();
    const admin = testUser('admin', { isAdmin: true });
    const { id } = await created(user, 'Payer Co');
    await moved(user, id, 'intro_made');
    const [commission] = await commissionsOf(user);
    const payout = (who: TestUser, commissionId: string) =>
      app().inject({
        method: 'POST',
        url: `/api/commissions/${commissionId}/payout`,
        headers: who.headers,
        payload: {},
      });

    const denied = await payout(user, commission!.id);
    expect([denied.statusCode, denied.json()]).toEqual([
      403,
      { message: ERRORS.ADMIN_ONLY.message, code: 'ADMIN_ONLY' },
    ]);
    for (const unknown of [randomUUID(), 'not-a-uuid']) {
      const missing = await payout(admin, unknown);
      expect([missing.statusCode, missing.json()]).toEqual([
        404,
        { message: 'Commission not found', code: 'COMMISSION_NOT_FOUND' },
      ]);
    }
    const paid = await payout(admin, commission!.id);
    expect(paid.statusCode, paid.body).toBe(200);
    const body = Commission.parse(paid.json());
    expect(body).toMatchObject({ id: commission!.id, state: 'paid_out', referrerAmount: 70 });
    expect(body.paidOutAt).not.toBeNull();
    const again = Commission.parse((await payout(admin, commission!.id)).json());
    expect(again.paidOutAt).toBe(body.paidOutAt);
    expect((await commissionsOf(user))[0]!.state).toBe('paid_out');
    const anonymous = await app().inject({
      method: 'POST',
      url: `/api/commissions/${commission!.id}/payout`,
      payload: {},
    });
    expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, 'UNAUTHENTICATED']);
  });
});
