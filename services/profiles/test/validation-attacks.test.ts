import { randomUUID } from 'node:crypto';
import { DEPARTMENTS, FUNDING_STAGES, SENIORITY_LEVELS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attacksOn,
  changedTables,
  operationsOf,
  runAttacks,
  schemaSnapshot,
  type Outcome,
} from '../../referrals/test/attack-cases.ts';
import {
  caller,
  startProfiles,
  testUser,
  uniqueDomain,
  verifiedVendor,
  type TestContext,
  type TestUser,
} from './helpers.ts';

/**
 * Validation attacks on every operation of the profiles service, generated from the contracts
 * (services/referrals/test/attack-cases.ts): each bad request is a clean 4xx `{ message, code }`, never a
 * 5xx, and leaves every table of the service as it was.
 */

let ctx: TestContext;
const call = caller(() => ctx);
const admin = testUser('admin', { isAdmin: true });
let owner: TestUser;
let vendorId: string;
let domain: string;
let invitationId: string;

/** Background work (the outbox relay, the webhook worker) moves these: not a change a request made. */
const VOLATILE = {
  outbox_events: ['published_at', 'attempts', 'last_error', 'next_attempt_at'],
  users: ['last_seen_at'],
};
const snapshot = () => schemaSnapshot(ctx.sql, 'profiles', VOLATILE);

beforeAll(async () => {
  ctx = await startProfiles();
  ({ owner, vendorId, domain } = await verifiedVendor(ctx, 'attacked'));
  const invited = await call(owner, 'POST', `/api/vendors/${vendorId}/invitations`, {
    email: `colleague@${domain}`,
    role: 'member',
  });
  expect(invited.statusCode, invited.body).toBe(201);
  invitationId = invited.json<{ id: string }>().id;
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

function examples(): Record<string, unknown> {
  return {
    saveLeadCriteria: {
      employeeCount: ['11-50'],
      industries: ['Software'],
      countries: ['Germany'],
      minRevenue: '1000',
      fundingStage: [FUNDING_STAGES[0]],
      techStack: ['Salesforce'],
      companyNotes: ['B2B'],
      jobTitles: ['CTO'],
      seniority: [SENIORITY_LEVELS[0]],
      departments: [DEPARTMENTS[0]],
      contactNotes: ['Technical buyer'],
    },
    saveBounties: {
      qualifiedLead: { enabled: false },
      meetingHeld: { enabled: true, type: 'flat', amount: 50 },
      opportunityCreated: { enabled: false },
      closedWon: { enabled: true, type: 'percentage_mrr', amount: 10, months: 12 },
      retentionBonus: { enabled: false },
    },
    requestDemo: {
      firstName: 'Ada',
      lastName: 'Demo',
      email: 'ada@demo.example',
      phone: '+1 555 0100',
      website: 'demo.example',
      referralSource: 'Google',
    },
    createVendor: { name: 'Other Vendor', website: uniqueDomain('other'), leadInbox: 'leads@other.example' },
    updateVendor: { name: 'Renamed Vendor', leadInbox: `leads@${domain}` },
    inviteMember: { email: `someone@${domain}`, role: 'member' },
    adminCreateVendor: { name: 'Admin Vendor', website: uniqueDomain('admin'), approve: true, note: 'Known partner' },
    approveVendor: { note: 'Checked by phone' },
    revokeVendor: { note: 'Approved by mistake' },
    createWebhook: { url: 'https://hooks.example.com/in', events: ['lead.created'], description: 'CRM' },
  };
}

function target(path: string, access: string) {
  const params: Record<string, string> = {};
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    if (name === 'vendorId') params[name] = vendorId;
    else if (name === 'invitationId') params[name] = invitationId;
    else if (name === 'userId') params[name] = owner.userId;
    else params[name!] = randomUUID();
  }
  const headers = access === 'admin' ? admin.headers : access === 'public' ? {} : owner.headers;
  return { params, headers };
}

describe('every operation of the profiles service, attacked from its contract', () => {
  it('covers every operation the gateway routes to the service', () => {
    expect(operationsOf('profiles').length).toBe(24);
  });

  for (const op of operationsOf('profiles')) {
    it(`${op.method} ${op.path} (${op.id}): a clean 4xx for every bad input, nothing written`, async () => {
      const { params, headers } = target(op.path, op.access);
      const attacks = attacksOn(op, { example: examples()[op.id], params, headers });
      expect(attacks.length).toBeGreaterThan(op.body ? 50 : 5);

      const before = await snapshot();
      const first = await runAttacks(
        ctx.service.app,
        op,
        attacks.filter((a) => a.mustRefuse),
      );
      const changed = changedTables(before, await snapshot());
      const rest = await runAttacks(
        ctx.service.app,
        op,
        attacks.filter((a) => !a.mustRefuse),
      );

      const problems: Outcome[] = [...first.problems, ...rest.problems];
      for (const p of problems) console.log(`attack problem: ${p.op}, ${p.what}: ${p.problem.slice(0, 300)}`);
      expect(problems.slice(0, 15), `${problems.length} problems`).toEqual([]);
      expect(changed, 'tables changed by refused requests').toEqual([]);
    }, 120_000);
  }
});
