import { randomUUID } from 'node:crypto';
import { PayoutDue, Referral, type Bounties } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attacksOn,
  changedTables,
  operationsOf,
  runAttacks,
  schemaSnapshot,
  type Attack,
  type Outcome,
} from './attack-cases.ts';
import {
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
 * Validation attacks on every operation of the referrals service, generated from the contracts
 * (attack-cases.ts): each bad request is a clean 4xx `{ message, code }`, never a 5xx, and leaves every
 * table of the service as it was. Then the bugs those attacks found, one test each.
 */

let ctx: TestContext;
const app = () => ctx.service.app;
const admin = testUser('admin', { isAdmin: true });
const referrer = testUser('referrer');
const member = testUser('member');
let vendor: TestVendor;
let referral: Referral;

const off = { enabled: false } as const;
const bounties: Bounties = {
  qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
  meetingHeld: off,
  opportunityCreated: off,
  closedWon: { enabled: true, type: 'flat', amount: 1000 },
  retentionBonus: off,
};

/** Background work (the outbox relay) marks events published: not a change a request made. */
const VOLATILE = { outbox_events: ['published_at', 'attempts', 'last_error', 'next_attempt_at'] };
const snapshot = () => schemaSnapshot(ctx.sql, 'referrals', VOLATILE);

const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  app().inject({
    method,
    url,
    headers: user.headers,
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });

beforeAll(async () => {
  ctx = await startReferrals();
  vendor = await saveVendor(ctx, { name: `Attack Target ${randomUUID().slice(0, 6)}`, members: [member] });
  await deliver(ctx, 'bounties.saved', { vendorId: vendor.vendorId, version: 1, bounties });
  await deliver(ctx, 'user.registered', {
    userId: referrer.userId,
    email: referrer.email,
    firstName: 'Rita',
    lastName: 'Referrer',
    companyName: 'Referrers Ltd',
  } as never);
  const created = await call(
    referrer,
    'POST',
    '/api/referrals',
    referralInput({ company: vendor.name, website: websiteOf(vendor.name) }),
  );
  expect(created.statusCode, created.body).toBe(201);
  referral = Referral.parse(created.json());
  expect(referral.lead?.vendorId).toBe(vendor.vendorId);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

/** A valid request body of each operation with one (the attacks change one thing of it at a time). */
function examples(): Record<string, unknown> {
  return {
    createReferral: {
      ...referralInput({ company: vendor.name, website: websiteOf(vendor.name) }),
      client: { name: 'US Navy', website: 'navy.example', size: '11-50', country: 'Germany', industry: 'Software' },
      notes: 'Warm lead',
    },
    checkReferralFit: {
      product: 'Slack',
      company: vendor.name,
      website: websiteOf(vendor.name),
      client: { name: 'Org' },
    },
    sendEmail: {
      subject: 'Introduction',
      body: 'Hello,\nmeet Grace.',
      recipients: { to: ['grace@navy.example'], cc: ['cc@navy.example'], bcc: [] },
    },
    updateStatus: { status: 'intro_made' },
    automateReferral: { dryRun: true },
    requestConfirmation: { milestone: 'qualifiedLead', message: 'Please confirm' },
    declineLead: { reason: 'Not our region' },
    confirmMilestone: { milestone: 'closedWon', dealValueCents: 500_000, note: 'Signed' },
    setExpectedValue: { expectedValueCents: 500_000 },
    reverseDeal: { reason: 'The deal fell through' },
    adminConfirmMilestone: { milestone: 'closedWon', dealValueCents: 500_000, note: 'Confirmed on the phone' },
    adminReverseDeal: { reason: 'The deal fell through' },
    recordPayout: {
      reference: 'PAY-1',
      method: 'bank_transfer',
      paidOn: PAID_ON,
      commissionIds: ['7d7c9d6e-6f53-4f7b-9a55-0a4b6c3b2a10'],
    },
  };
}

/** Path parameters naming real things, and the caller that reaches the operation's validation. */
function target(path: string, access: string): { params: Record<string, string>; headers: Record<string, string> } {
  const params: Record<string, string> = {};
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    if (name === 'vendorId') params[name] = vendor.vendorId;
    else if (name === 'referralId') params[name] = String(referral.id);
    else if (name === 'projectId') params[name] = encodeURIComponent(referral.projectId);
    else if (name === 'id') params[name] = path.startsWith('/api/admin/payouts') ? randomUUID() : String(referral.id);
  }
  const user = access === 'admin' ? admin : path.includes('{vendorId}') ? member : referrer;
  return { params, headers: user.headers };
}

describe('every operation of the referrals service, attacked from its contract', () => {
  const ops = operationsOf('referrals');

  it('covers every operation the gateway routes to the service', () => {
    expect(ops.map((op) => op.id).sort()).toEqual(
      [
        'acceptLead',
        'adminConfirmMilestone',
        'adminReverseDeal',
        'automateReferral',
        'checkReferralFit',
        'confirmMilestone',
        'createReferral',
        'declineLead',
        'exportPayout',
        'getAdminReferral',
        'getEmailDraft',
        'getImpact',
        'getLead',
        'getReferral',
        'getReferralLedger',
        'getReferralProgram',
        'listCommissions',
        'listLeads',
        'listPayouts',
        'listPayoutsDue',
        'listReferrals',
        'listVendorCommissions',
        'reverseDeal',
        'recordPayout',
        'requestConfirmation',
        'sendEmail',
        'setExpectedValue',
        'updateStatus',
      ].sort(),
    );
  });

  for (const op of operationsOf('referrals')) {
    it(`${op.method} ${op.path} (${op.id}): a clean 4xx for every bad input, nothing written`, async () => {
      const { params, headers } = target(op.path, op.access);
      const attacks: Attack[] = attacksOn(op, { example: examples()[op.id], params, headers });
      const refused = attacks.filter((a) => a.mustRefuse);
      expect(attacks.length).toBeGreaterThan(op.body ? 50 : 5);

      const before = await snapshot();
      const first = await runAttacks(app(), op, refused);
      const changed = changedTables(before, await snapshot());
      // The rest (unknown query values the contract allows, bodies an operation does not read): no crash.
      const rest = await runAttacks(
        app(),
        op,
        attacks.filter((a) => !a.mustRefuse),
      );

      const problems: Outcome[] = [...first.problems, ...rest.problems];
      for (const p of problems) console.log(`attack problem: ${p.op}, ${p.what}: ${p.problem.slice(0, 300)}`);
      expect(problems.slice(0, 15), `${problems.length} problems`).toEqual([]);
      expect(changed, 'tables changed by refused requests').toEqual([]);
      expect(first.statuses.get(500) ?? 0).toBe(0);
    }, 120_000);
  }
});

describe('bugs the attacks found', () => {
  it('Impact and the commissions export refuse a From date after the To date (400, the screen’s wording)', async () => {
    for (const path of ['/api/referral-impact', '/api/commissions']) {
      const response = await call(referrer, 'GET', `${path}?from=2026-05-01&to=2026-01-01`);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        field: 'from',
        message: 'The start date must be on or before the end date',
      });
      // The same day at both ends is a range.
      expect((await call(referrer, 'GET', `${path}?from=2026-05-01&to=2026-05-01`)).statusCode).toBe(200);
    }
  });

  it('a payout dated in year 0 (a date PostgreSQL cannot store) or in the future is a 400, not a 500, and pays nothing', async () => {
    const confirmed = await call(member, 'POST', `/api/vendors/${vendor.vendorId}/leads/${referral.id}/milestones`, {
      milestone: 'qualifiedLead',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const due = PayoutDue.array().parse((await call(admin, 'GET', '/api/admin/payouts/due')).json());
    const ids = due.flatMap((d) => d.commissions.map((c) => c.id));
    expect(ids.length).toBeGreaterThan(0);

    const before = await snapshot();
    for (const paidOn of ['0000-01-01', '0000-02-29']) {
      const response = await call(admin, 'POST', '/api/admin/payouts', {
        reference: `PAY-${paidOn}`,
        method: 'wise',
        paidOn,
        commissionIds: ids,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        field: 'paidOn',
        message: 'Please enter the date it was paid (YYYY-MM-DD)',
      });
    }
    // A payout records a transfer already made: a date that is not yet today anywhere pays nothing.
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const future = await call(admin, 'POST', '/api/admin/payouts', {
      reference: 'PAY-FUTURE',
      method: 'wise',
      paidOn: inTwoDays,
      commissionIds: ids,
    });
    expect(future.statusCode, future.body).toBe(400);
    expect(future.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'paidOn',
      message: 'The date it was paid cannot be in the future',
    });
    expect(changedTables(before, await snapshot())).toEqual([]);
    // The commissions are still due, and today's date (UTC's, the latest the server's clock can be behind) pays them.
    const paid = await call(admin, 'POST', '/api/admin/payouts', {
      reference: 'PAY-OK',
      method: 'wise',
      paidOn: new Date().toISOString().slice(0, 10),
      commissionIds: ids,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    // The snapshot the attacks compare does see a stored change.
    expect(changedTables(before, await snapshot())).not.toEqual([]);
  });
});
