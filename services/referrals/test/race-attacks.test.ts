import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  referralInput,
  saveVendor,
  startReferrals,
  testUser,
  type TestContext,
  type TestUser,
  type TestVendor,
} from './helpers.ts';

/**
 * Races on referrals and leads (money races are in commissions.test.ts): identical or conflicting requests
 * fired at once, then the exact answers, rows, counters and events. Each race runs a few rounds.
 */

let ctx: TestContext;
const app = () => ctx.service.app;
const owner = testUser('owner');
const referrer = testUser('referrer');
let vendor: TestVendor;
const ROUNDS = 4;

beforeAll(async () => {
  ctx = await startReferrals();
  await deliver(ctx, 'user.registered', {
    userId: referrer.userId,
    email: referrer.email,
    firstName: 'Rita',
    lastName: 'Referrer',
    companyName: 'Referrers Inc',
  });
  vendor = await saveVendor(ctx, { name: 'Race Analytics', members: [owner] });
});
afterAll(async () => {
  await ctx?.close();
});

function tally(responses: Array<{ statusCode: number; body: string }>) {
  const counts: Record<string, number> = {};
  for (const r of responses) {
    const key =
      r.statusCode < 300 ? `${r.statusCode}` : `${r.statusCode} ${(JSON.parse(r.body) as { code: string }).code}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const rows = async <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
  (await ctx.sql.query(query, params)).rows as T[];

const outboxCount = async (name: string, referralId: number) =>
  (
    await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM referrals.outbox_events WHERE name = $1 AND (payload ->> 'referralId')::int = $2`,
      [name, referralId],
    )
  )[0]!.n;

async function routed(): Promise<number> {
  const response = await app().inject({
    method: 'POST',
    url: '/api/referrals',
    headers: referrer.headers,
    payload: referralInput({ website: vendor.domain, client: { name: 'Globex GmbH', country: 'Germany' } }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number }>().id;
}

const move = (user: TestUser, id: number, status: string) =>
  retrying(() =>
    app().inject({ method: 'PUT', url: `/api/referrals/${id}/status`, headers: user.headers, payload: { status } }),
  );
const decide = (id: number, decision: 'accept' | 'decline') =>
  retrying(() =>
    app().inject({
      method: 'POST',
      url: `/api/vendors/${vendor.vendorId}/leads/${id}/${decision}`,
      headers: owner.headers,
      payload: decision === 'decline' ? { reason: 'Not for us' } : {},
    }),
  );

/**
 * A request answered 503 (no database connection came free within the service's wait: the race's requests
 * outnumber the pool, and a loaded machine slows each transaction) is sent again, as a client would; the race
 * is in the first attempts.
 */
async function retrying<T extends { statusCode: number }>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    if (response.statusCode !== 503 || attempt === 10) return response;
    await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
  }
}

/** The kept per-stage counters of the referrer equal the rows. */
async function expectCountersAgree() {
  const kept = await rows<{ status: string; count: number }>(
    'SELECT status::text, count FROM referrals.referrer_stage_counts WHERE user_id = $1 AND count <> 0 ORDER BY 1',
    [referrer.userId],
  );
  const actual = await rows<{ status: string; count: number }>(
    'SELECT status::text, count(*)::int AS count FROM referrals.referrals WHERE user_id = $1 GROUP BY 1 ORDER BY 1',
    [referrer.userId],
  );
  expect(kept).toEqual(actual);
}

describe('the referrer withdraws', () => {
  it('many times at once: one change, one history row, one event, counters agree', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await routed();
      const answers = await Promise.all(Array.from({ length: 10 }, () => move(referrer, id, 'declined')));
      expect(tally(answers)).toEqual({ '200': 10 });
      expect(
        await rows(
          `SELECT 1 FROM referrals.referral_status_changes WHERE referral_id = $1 AND to_status = 'declined'`,
          [id],
        ),
      ).toHaveLength(1);
      expect(await outboxCount('referral.status_changed', id)).toBe(1);
      expect(await outboxCount('lead.status_changed', id)).toBe(1);
      expect(
        await rows(`SELECT 1 FROM referrals.referral_timeline WHERE referral_id = $1 AND kind = 'withdrawn'`, [id]),
      ).toHaveLength(1);
      await expectCountersAgree();
    }
  });

  it('while the vendor accepts and declines: at most one decision, none after it, the referral ends Declined once', async () => {
    for (let round = 0; round < ROUNDS * 2; round++) {
      const id = await routed();
      const answers = await Promise.all([
        move(referrer, id, 'declined'),
        decide(id, 'accept'),
        decide(id, 'decline'),
        move(referrer, id, 'declined'),
      ]);
      expect(answers[0]!.statusCode).toBe(200);
      expect(answers[3]!.statusCode).toBe(200);
      // A decision before the withdrawal wins once (the other: already decided, or withdrawn); after it, none.
      const decisions = [answers[1]!, answers[2]!];
      const decided = decisions.filter((a) => a.statusCode === 200).length;
      expect(decided).toBeLessThanOrEqual(1);
      for (const refused of decisions.filter((a) => a.statusCode !== 200))
        expect(`${refused.statusCode} ${refused.json().code}`).toMatch(/^409 (LEAD_ALREADY_DECIDED|LEAD_WITHDRAWN)$/);
      const [row] = await rows<{ status: string; lead_status: string }>(
        'SELECT status::text, lead_status::text FROM referrals.referrals WHERE id = $1',
        [id],
      );
      expect(row!.status).toBe('declined');
      expect(row!.lead_status === 'new').toBe(decided === 0);
      expect((await outboxCount('lead.accepted', id)) + (await outboxCount('lead.declined', id))).toBe(decided);
      // Declined once, by whoever came first: one history row, one status event.
      expect(
        await rows(
          `SELECT 1 FROM referrals.referral_status_changes WHERE referral_id = $1 AND to_status = 'declined'`,
          [id],
        ),
      ).toHaveLength(1);
      expect(await outboxCount('referral.status_changed', id)).toBe(1);
      await expectCountersAgree();
    }
  });
});

describe('confirmation requests', () => {
  it('asked many times at once: once a day, the rest 409, one email', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await routed();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          retrying(() =>
            app().inject({
              method: 'POST',
              url: `/api/referrals/${id}/confirmation-requests`,
              headers: referrer.headers,
              payload: { milestone: 'meetingHeld', message: 'We met' },
            }),
          ),
        ),
      );
      expect(tally(answers)).toEqual({ '200': 1, '409 CONFIRMATION_RECENTLY_REQUESTED': 9 });
      expect(await rows('SELECT 1 FROM referrals.confirmation_requests WHERE referral_id = $1', [id])).toHaveLength(1);
      expect(await outboxCount('milestone.confirmation_requested', id)).toBe(1);
    }
  });
});
