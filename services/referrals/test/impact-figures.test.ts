import { ImpactSummary, type Bounties, type Milestone, type ReferralStatus } from '@app/contracts';
import { seededRandom } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  referralInput,
  saveVendor,
  startReferrals,
  testUser,
  websiteOf,
  type TestContext,
  type TestUser,
} from './helpers.ts';

/**
 * The Impact dashboard's kept figures (referrer_month_figures, referrer_project_figures,
 * referrer_pending_figures, kept by triggers) against the referrals themselves: random referrals, stage
 * changes (some of them concurrent), vendor confirmations, expected values, lead declines, reversed deals
 * and back-dated referrals, all through the service's routes, then
 * - every user's unfiltered dashboard (read from the figures) equals the same dashboard computed from the
 *   rows (`from=1970-01-01`: a filter, so the raw SQL, matching every referral), and a few filtered ones
 *   agree with it where they must;
 * - each figures table equals what rebuild_referral_figures() (migration 20261205000000) computes from the rows now.
 */
let ctx: TestContext;
const app = () => ctx.service.app;
const users = [testUser('fig-a'), testUser('fig-b'), testUser('fig-c')];
const acmeMember = testUser('fig-acme-member');
let acmeId = '';
const STATUSES: ReferralStatus[] = [
  'pending',
  'intro_made',
  'intro_occurred',
  'intro_accepted',
  'became_customer',
  'declined',
];
const MILESTONES: Milestone[] = ['qualifiedLead', 'meetingHeld', 'opportunityCreated', 'closedWon'];
const COMPANIES = ['Acme', 'ACME Inc.', 'Globex', 'Initech'];

async function create(user: TestUser, company: string, product: string): Promise<number> {
  const response = await app().inject({
    method: 'POST',
    url: '/api/referrals',
    headers: user.headers,
    payload: referralInput({ company, product, website: websiteOf(company), referredFirstName: product }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

const move = (user: TestUser, id: number, status: ReferralStatus) =>
  app().inject({ method: 'PUT', url: `/api/referrals/${id}/status`, headers: user.headers, payload: { status } });

const vendorCall = (id: number, path: string, payload: Record<string, unknown>, method: 'POST' | 'PUT' = 'POST') =>
  app().inject({
    method,
    url: `/api/vendors/${acmeId}/leads/${id}/${path}`,
    headers: acmeMember.headers,
    payload,
  });

async function summary(user: TestUser, query = ''): Promise<ImpactSummary> {
  const response = await app().inject({ method: 'GET', url: `/api/referral-impact${query}`, headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return ImpactSummary.parse(response.json());
}

/** The figures tables' rows that count, and what rebuild_referral_figures() builds from the rows now. */
async function figuresAgainstRows() {
  const tables = {
    referrer_month_figures: 'user_id, month, status, furthest_stage, closed_won_month',
    referrer_project_figures: 'user_id, project_id, vendor_id',
    referrer_pending_figures: 'user_id, vendor_id, milestone, deal_cents, terms',
  };
  const read = async (client: { query: (text: string) => Promise<{ rows: unknown[] }> }) => {
    const rows: Record<string, unknown[]> = {};
    for (const [table, key] of Object.entries(tables))
      rows[table] = (await client.query(`SELECT * FROM referrals.${table} WHERE count <> 0 ORDER BY ${key}`)).rows;
    return rows;
  };
  const client = await ctx.sql.connect();
  try {
    const kept = await read(client);
    await client.query('BEGIN');
    await client.query('SELECT referrals.rebuild_referral_figures()');
    const rebuilt = await read(client);
    await client.query('ROLLBACK');
    return { kept, rebuilt };
  } finally {
    client.release();
  }
}

beforeAll(async () => {
  ctx = await startReferrals();
  const bounties: Bounties = {
    qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
    meetingHeld: { enabled: true, type: 'flat', amount: 30 },
    opportunityCreated: { enabled: true, type: 'percentage_arr', amount: 3 },
    closedWon: { enabled: true, type: 'percentage_arr', amount: 20 },
    retentionBonus: { enabled: false },
  };
  const acme = await saveVendor(ctx, { name: 'Acme', members: [acmeMember] });
  acmeId = acme.vendorId;
  await deliver(ctx, 'bounties.saved', { vendorId: acme.vendorId, version: 1, bounties });
  for (const [i, user] of users.entries()) {
    await deliver(ctx, 'user.registered', {
      userId: user.userId,
      email: user.email,
      firstName: 'F',
      lastName: 'L',
      companyName: i === 2 ? 'Globex' : `Figures ${i}`,
    });
  }
});

afterAll(async () => {
  await ctx?.close();
});

describe('the Impact figures', () => {
  it('equal the computation from the referrals after random changes through the routes', async () => {
    const next = seededRandom(15);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const owned: Array<{ id: number; user: TestUser }> = [];
    for (let i = 0; i < 36; i++) {
      const user = pick(users);
      owned.push({ id: await create(user, pick(COMPANIES), pick(['Rocket', 'Sled'])), user });
    }
    let done = 0;
    for (let step = 0; step < 160; step++) {
      const { id, user } = pick(owned);
      const action = next();
      let response;
      if (action < 0.45) response = await move(user, id, pick(STATUSES));
      else if (action < 0.65) {
        const milestone = pick(MILESTONES);
        const deal = milestone === 'opportunityCreated' || milestone === 'closedWon';
        response = await vendorCall(id, 'milestones', {
          milestone,
          ...(deal ? { dealValueCents: 100_000 * (1 + Math.floor(next() * 5)) } : {}),
        });
      } else if (action < 0.75)
        response = await vendorCall(
          id,
          'expected-value',
          { expectedValueCents: 50_000 * (1 + Math.floor(next() * 4)) },
          'PUT',
        );
      else if (action < 0.8) response = await vendorCall(id, 'decline', { reason: 'Not now' });
      else if (action < 0.85) response = await vendorCall(id, 'reverse', { reason: 'Refunded' });
      else {
        // Back-dated (a referral of an earlier month, in and out of the trends' 12 months), by plain SQL.
        const monthsAgo = Math.floor(next() * 15);
        await ctx.sql.query(
          `UPDATE referrals.referrals SET created_at = now() - make_interval(days => $2) WHERE id = $1`,
          [id, monthsAgo * 31],
        );
        continue;
      }
      // Routes refuse what the state does not allow (a milestone of an unrouted referral, a declined lead...).
      if (response.statusCode === 200) done++;
      else expect([400, 404, 409], response.body).toContain(response.statusCode);
    }
    expect(done).toBeGreaterThan(60);

    // Concurrent moves of one user's referrals, there and back (the trigger's rows taken in key order).
    const [first] = users;
    // (Not those their vendor declined: those no longer move.)
    const declined = new Set(
      (
        await ctx.sql.query<{ id: number }>(`SELECT id FROM referrals.referrals WHERE lead_status = 'declined'`)
      ).rows.map((row) => row.id),
    );
    const mine = owned.filter((o) => o.user === first && !declined.has(o.id)).slice(0, 6);
    for (const target of ['intro_made', 'pending', 'intro_accepted', 'declined'] as const) {
      const moved = await Promise.all(mine.map((o, i) => move(first!, o.id, i % 2 ? target : 'intro_occurred')));
      for (const response of moved) expect(response.statusCode, response.body).toBe(200);
    }

    // Concurrent changes of one referral from both sides: the referrer's move, the vendor's confirmation and
    // expected value at once (the triggers on referrals and on confirmations must not miss each other's change).
    const routed = (
      await ctx.sql.query<{ id: number; user_id: string }>(
        `SELECT id, user_id FROM referrals.referrals WHERE vendor_id IS NOT NULL AND lead_status <> 'declined' AND status <> 'declined' ORDER BY id`,
      )
    ).rows.slice(0, 6);
    expect(routed.length).toBeGreaterThan(2);
    for (const [i, { id, user_id }] of routed.entries()) {
      const owner = users.find((user) => user.userId === user_id)!;
      const responses = await Promise.all([
        move(owner, id, i % 2 ? 'intro_accepted' : 'became_customer'),
        vendorCall(id, 'milestones', { milestone: i % 2 ? 'qualifiedLead' : 'meetingHeld' }),
        vendorCall(id, 'expected-value', { expectedValueCents: 70_000 + i }, 'PUT'),
      ]);
      for (const response of responses) expect([200, 409], response.body).toContain(response.statusCode);
    }

    const { kept, rebuilt } = await figuresAgainstRows();
    expect(kept).toEqual(rebuilt);
    expect(kept.referrer_month_figures!.length).toBeGreaterThan(5);
    expect(kept.referrer_pending_figures!.length).toBeGreaterThan(0);

    for (const user of users) {
      const fromFigures = await summary(user);
      const fromRows = await summary(user, '?from=1970-01-01');
      expect(fromFigures).toEqual(fromRows);
      // Filtered calls read the rows: a range covering everything and one after everything.
      expect(await summary(user, `?to=${new Date().toISOString().slice(0, 10)}`)).toMatchObject({
        totalReferrals: fromFigures.totalReferrals,
        pipelineValueCents: fromFigures.pipelineValueCents,
        conversionFunnel: fromFigures.conversionFunnel,
        partnerLeaderboard: fromFigures.partnerLeaderboard,
        payoutSummary: fromFigures.payoutSummary,
      });
      expect((await summary(user, '?from=2999-01-01')).totalReferrals).toBe(0);
    }
    const totals = await Promise.all(users.map((user) => summary(user)));
    expect(totals.reduce((n, s) => n + s.totalReferrals, 0)).toBe(owned.length);
    expect(totals.some((s) => s.payoutSummary.pendingCents > 0)).toBe(true);
    expect(totals.some((s) => s.pipelineValueCents > 0)).toBe(true);
  });
});
