import { randomUUID } from 'node:crypto';
import {
  Commission,
  ERRORS,
  ImpactSummary,
  Lead,
  Referral,
  ReferralList,
  VendorCommissions,
  type Bounties,
} from '@app/contracts';
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
  type TestVendor,
} from './helpers.ts';

/** A payout's date: today's, as a payout cannot predate its commissions (earned as the test runs). */
const PAID_ON = new Date().toISOString().slice(0, 10);

/**
 * Data isolation in the referrals service: one referrer never reads or changes another's referrals,
 * commissions or contacts; one vendor workspace never reads or changes another's leads or commissions;
 * administrators' routes are theirs alone. Every refusal is checked for its status and code, for no foreign
 * data in the body, and for every table being left as it was.
 */

let ctx: TestContext;
const app = () => ctx.service.app;
const admin = testUser('admin', { isAdmin: true });

const off = { enabled: false } as const;
const flatBounties: Bounties = {
  qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
  meetingHeld: off,
  opportunityCreated: off,
  closedWon: { enabled: true, type: 'flat', amount: 1000 },
  retentionBonus: off,
};

interface Side {
  vendor: TestVendor;
  member: TestUser;
  referrer: TestUser;
}

/** A verified vendor with one member and flat bounties, and a registered referrer. */
async function side(label: string): Promise<Side> {
  const member = testUser(`${label}-member`);
  const vendor = await saveVendor(ctx, { name: `${label} ${randomUUID().slice(0, 6)}`, members: [member] });
  await deliver(ctx, 'bounties.saved', { vendorId: vendor.vendorId, version: 1, bounties: flatBounties });
  const referrer = testUser(`${label}-referrer`);
  await deliver(ctx, 'user.registered', {
    userId: referrer.userId,
    email: referrer.email,
    firstName: label,
    lastName: 'Referrer',
    companyName: `${label} Referrers`,
  });
  return { vendor, member, referrer };
}

const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  app().inject({
    method,
    url,
    headers:
      payload === undefined
        ? Object.fromEntries(Object.entries(user.headers).filter(([name]) => name !== 'content-type'))
        : user.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

async function refer(s: Side, overrides: Record<string, unknown> = {}): Promise<Referral> {
  const response = await call(
    s.referrer,
    'POST',
    '/api/referrals',
    referralInput({ company: s.vendor.name, website: websiteOf(s.vendor.name), ...overrides }),
  );
  expect(response.statusCode, response.body).toBe(201);
  const referral = Referral.parse(response.json());
  expect(referral.lead?.vendorId).toBe(s.vendor.vendorId);
  return referral;
}

/** Every row of the tables a refused request could touch (outbox payloads included). */
async function everything() {
  const tables = [
    'referrals',
    'referral_status_changes',
    'referral_timeline',
    'milestone_confirmations',
    'confirmation_requests',
    'commissions',
    'commission_entries',
    'payouts',
    'intro_sends',
    'outbox_events',
  ];
  const result: Record<string, unknown[]> = {};
  for (const table of tables)
    result[table] = (
      await ctx.sql.query(`SELECT to_jsonb(t) - 'published_at' AS row FROM referrals.${table} t ORDER BY 1`)
    ).rows;
  return result;
}

/** A refusal: status, code and the contract's message, nothing of `secrets` in the body, nothing changed. */
async function refused(
  send: () => ReturnType<typeof call>,
  status: number,
  code: keyof typeof ERRORS,
  secrets: string[] = [],
) {
  const before = await everything();
  const response = await send();
  expect([response.statusCode, response.json()], response.body).toEqual([
    status,
    { code, message: ERRORS[code].message },
  ]);
  for (const secret of secrets) expect(response.body).not.toContain(secret);
  expect(await everything()).toEqual(before);
}

beforeAll(async () => {
  ctx = await startReferrals();
});

afterAll(async () => {
  await ctx?.close();
});

describe("another vendor's leads", () => {
  it('answers 403 NOT_A_MEMBER on the owning workspace and 404 LEAD_NOT_FOUND through its own, for every lead route', async () => {
    const a = await side('Alpha');
    const b = await side('Bravo');
    const lead = await refer(a, { referredFirstName: 'Secretia', referredEmail: 'secretia@client.example' });
    const routes = (vendorId: string) =>
      [
        ['GET', `/api/vendors/${vendorId}/leads/${lead.id}`, undefined],
        ['POST', `/api/vendors/${vendorId}/leads/${lead.id}/accept`, {}],
        ['POST', `/api/vendors/${vendorId}/leads/${lead.id}/decline`, { reason: 'Not for us' }],
        ['POST', `/api/vendors/${vendorId}/leads/${lead.id}/milestones`, { milestone: 'qualifiedLead' }],
        ['PUT', `/api/vendors/${vendorId}/leads/${lead.id}/expected-value`, { expectedValueCents: 100_000 }],
        ['POST', `/api/vendors/${vendorId}/leads/${lead.id}/reverse`, { reason: 'Fell through' }],
      ] as const;
    const secrets = ['Secretia', 'secretia@client.example', a.referrer.email];
    // B's member on A's workspace, and A's referrer (the referral is theirs, the lead is the vendor's).
    for (const user of [b.member, a.referrer])
      for (const [method, url, payload] of routes(a.vendor.vendorId))
        await refused(() => call(user, method, url, payload), 403, 'NOT_A_MEMBER', secrets);
    // B's member names A's lead through B's own workspace: it is no lead of B.
    for (const [method, url, payload] of routes(b.vendor.vendorId))
      await refused(() => call(b.member, method, url, payload), 404, 'LEAD_NOT_FOUND', secrets);
    // B's inbox and commissions show nothing of A's.
    const inbox = await call(b.member, 'GET', `/api/vendors/${b.vendor.vendorId}/leads`);
    expect(inbox.statusCode, inbox.body).toBe(200);
    expect(Lead.array().parse(inbox.json())).toEqual([]);
    for (const secret of secrets) expect(inbox.body).not.toContain(secret);

    // A's lead is still new and A's member still works on it.
    const own = await call(a.member, 'GET', `/api/vendors/${a.vendor.vendorId}/leads/${lead.id}`);
    expect(own.statusCode, own.body).toBe(200);
    expect(Lead.parse(own.json())).toMatchObject({ referralId: lead.id, status: 'new' });
  });

  it("shows a vendor only its own commissions, and refuses another vendor's members and unverified workspaces", async () => {
    const a = await side('Charlie');
    const b = await side('Delta');
    const lead = await refer(a, { referredFirstName: 'Hidden' });
    const ok = await call(a.member, 'POST', `/api/vendors/${a.vendor.vendorId}/leads/${lead.id}/milestones`, {
      milestone: 'qualifiedLead',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const mine = VendorCommissions.parse(
      (await call(a.member, 'GET', `/api/vendors/${a.vendor.vendorId}/commissions`)).json(),
    );
    expect(mine.commissions.map((c) => c.referralId)).toEqual([lead.id]);

    await refused(() => call(b.member, 'GET', `/api/vendors/${a.vendor.vendorId}/commissions`), 403, 'NOT_A_MEMBER');
    await refused(() => call(a.referrer, 'GET', `/api/vendors/${a.vendor.vendorId}/commissions`), 403, 'NOT_A_MEMBER');
    const theirs = await call(b.member, 'GET', `/api/vendors/${b.vendor.vendorId}/commissions`);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(VendorCommissions.parse(theirs.json())).toMatchObject({ owedCents: 0, paidCents: 0, commissions: [] });
    expect(theirs.body).not.toContain('Hidden');

    // A member of an unverified workspace: its commissions stay shut.
    const claim = await saveVendor(ctx, {
      name: `Claim ${randomUUID().slice(0, 6)}`,
      members: [b.member],
      verified: false,
    });
    await refused(
      () => call(b.member, 'GET', `/api/vendors/${claim.vendorId}/commissions`),
      403,
      'WORKSPACE_NOT_VERIFIED',
    );
    await refused(() => call(b.member, 'GET', `/api/vendors/${randomUUID()}/commissions`), 404, 'VENDOR_NOT_FOUND');
  });
});

describe("another referrer's referrals", () => {
  it('never lists, searches, counts or pays out one referrer’s referrals to another', async () => {
    const a = await side('Echo');
    const lead = await refer(a, { referredFirstName: 'Zanzibar', referredLastName: 'Quill' });
    const confirmed = await call(a.member, 'POST', `/api/vendors/${a.vendor.vendorId}/leads/${lead.id}/milestones`, {
      milestone: 'qualifiedLead',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const other = testUser('other-referrer');

    for (const url of [
      '/api/referrals',
      '/api/referrals?search=Zanzibar',
      `/api/referrals?company=${encodeURIComponent(a.vendor.name)}`,
    ]) {
      const response = await call(other, 'GET', url);
      expect(response.statusCode, response.body).toBe(200);
      const list = ReferralList.parse(response.json());
      expect(list.referrals).toEqual([]);
      expect(list.total).toBe(0);
      expect(list.companies).toEqual([]);
      expect(response.body).not.toContain('Zanzibar');
    }
    const commissions = await call(other, 'GET', '/api/commissions');
    expect(Commission.array().parse(commissions.json())).toEqual([]);
    const impact = await call(other, 'GET', '/api/referral-impact');
    expect(impact.statusCode, impact.body).toBe(200);
    expect(ImpactSummary.parse(impact.json()).recentActivity).toEqual([]);
    expect(impact.body).not.toContain('Zanzibar');

    // The owner sees it all.
    const own = ReferralList.parse((await call(a.referrer, 'GET', '/api/referrals?search=Zanzibar')).json());
    expect(own.referrals.map((r) => r.id)).toEqual([lead.id]);
    expect(Commission.array().parse((await call(a.referrer, 'GET', '/api/commissions')).json())).toHaveLength(1);
  });

  it("refuses another referrer's confirmation request (403) and an unknown referral (404), changing nothing", async () => {
    const a = await side('Foxtrot');
    const lead = await refer(a);
    const ask = (user: TestUser, id: number) =>
      call(user, 'POST', `/api/referrals/${id}/confirmation-requests`, { milestone: 'closedWon', message: 'Signed' });
    await refused(() => ask(testUser('stranger'), lead.id), 403, 'REFERRAL_FORBIDDEN');
    // Even the vendor's own member is not the referrer.
    await refused(() => ask(a.member, lead.id), 403, 'REFERRAL_FORBIDDEN');
    await refused(() => ask(a.referrer, 2_000_000_000), 404, 'REFERRAL_NOT_FOUND');
  });

  it("counts and shows a received referral only to the members of the workspace it was routed to, never to a company name's claimant", async () => {
    const a = await side('Golf');
    // Someone who registered the vendor's company name without being a member of its workspace.
    const claimant = testUser('claimant');
    await deliver(ctx, 'user.registered', {
      userId: claimant.userId,
      email: claimant.email,
      firstName: 'Clara',
      lastName: 'Claimant',
      companyName: a.vendor.name,
    });
    await deliver(ctx, 'user.registered', {
      userId: a.member.userId,
      email: a.member.email,
      firstName: 'Mia',
      lastName: 'Member',
      companyName: a.vendor.name,
    });
    await refer(a, { referredFirstName: 'Ulysses', referredLastName: 'Private' });

    const activityOf = async (user: TestUser) => {
      const response = await call(user, 'GET', '/api/referral-impact');
      expect(response.statusCode, response.body).toBe(200);
      const summary = ImpactSummary.parse(response.json());
      const list = await call(user, 'GET', '/api/referrals');
      return {
        body: response.body,
        received: [summary.giveGetScore.received, ReferralList.parse(list.json()).reciprocity.received],
        activity: summary.recentActivity.filter((e) => e.type === 'received'),
      };
    };
    const claimantView = await activityOf(claimant);
    expect(claimantView.received).toEqual([0, 0]);
    expect(claimantView.activity).toEqual([]);
    // Nothing of the referral, not even who sent it or when.
    expect(claimantView.body).not.toContain('Ulysses');
    expect(claimantView.body).not.toContain('Golf Referrers');
    const memberView = await activityOf(a.member);
    expect(memberView.received).toEqual([1, 1]);
    expect(memberView.activity.map((e) => e.contact)).toEqual(['Ulysses Private']);
  });
});

describe("administrators' routes", () => {
  it('refuse referrers and vendor members (403 ADMIN_ONLY), changing nothing', async () => {
    const a = await side('Hotel');
    const lead = await refer(a);
    const confirmed = await call(a.member, 'POST', `/api/vendors/${a.vendor.vendorId}/leads/${lead.id}/milestones`, {
      milestone: 'qualifiedLead',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const [commission] = VendorCommissions.parse(
      (await call(a.member, 'GET', `/api/vendors/${a.vendor.vendorId}/commissions`)).json(),
    ).commissions;
    const payout = await call(admin, 'POST', '/api/admin/payouts', {
      reference: `REF-${randomUUID().slice(0, 8)}`,
      method: 'bank_transfer',
      paidOn: PAID_ON,
      commissionIds: [commission!.id],
    });
    expect(payout.statusCode, payout.body).toBe(201);
    const payoutId = (payout.json() as { id: string }).id;

    const routes = [
      ['GET', `/api/admin/referrals/${lead.id}`, undefined],
      ['GET', `/api/admin/referrals/${lead.id}/ledger`, undefined],
      [
        'POST',
        `/api/admin/referrals/${lead.id}/milestones`,
        { milestone: 'closedWon', dealValueCents: 100, note: 'x' },
      ],
      ['POST', `/api/admin/referrals/${lead.id}/reverse`, { reason: 'x' }],
      ['GET', '/api/admin/payouts/due', undefined],
      ['GET', '/api/admin/payouts', undefined],
      [
        'POST',
        '/api/admin/payouts',
        { reference: 'MINE', method: 'bank_transfer', paidOn: PAID_ON, commissionIds: [commission!.id] },
      ],
      ['GET', `/api/admin/payouts/${payoutId}/export`, undefined],
    ] as const;
    for (const user of [a.referrer, a.member])
      for (const [method, url, payload] of routes)
        await refused(() => call(user, method, url, payload), 403, 'ADMIN_ONLY', [a.referrer.email]);
  });
});
