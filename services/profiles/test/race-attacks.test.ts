import type { VendorInvitation } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * Races on workspaces, members, invitations, lead criteria, bounties and webhook endpoints: identical or
 * conflicting requests fired at once, then the exact answers, rows and events. Each race runs a few rounds
 * so that it does not pass by luck.
 */

let ctx: TestContext;
const direct = caller(() => ctx);
const call: typeof direct = (...args) => retrying(() => direct(...args));

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

const ROUNDS = 4;

beforeAll(async () => {
  ctx = await startProfiles({ WEBHOOK_ALLOW_PRIVATE: 'true' });
});
afterAll(async () => {
  await ctx?.close();
});

/** "status code" of each answer, counted. */
function tally(responses: Array<{ statusCode: number; body: string }>) {
  const counts: Record<string, number> = {};
  for (const r of responses) {
    const code = r.statusCode < 300 ? '' : ` ${(JSON.parse(r.body) as { code: string }).code}`;
    counts[`${r.statusCode}${code}`] = (counts[`${r.statusCode}${code}`] ?? 0) + 1;
  }
  return counts;
}

const rows = async <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
  (await ctx.sql.query(query, params)).rows as T[];

/** The outbox's events of one name about a workspace, in the relay's order. */
const outboxOf = (vendorId: string, name: string) =>
  rows<{ payload: { version: number } }>(
    `SELECT payload FROM profiles.outbox_events WHERE name = $1 AND payload ->> 'vendorId' = $2 ORDER BY occurred_at, id`,
    [name, vendorId],
  );

const invite = (owner: TestUser, vendorId: string, email: string, role = 'member') =>
  call(owner, 'POST', `/api/vendors/${vendorId}/invitations`, { email, role });

describe('workspace creation', () => {
  it('a new user creating several workspaces at once gets every one (one copy of the user, one owner row each)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // Never seen before: no copy of the user yet, every request makes one.
      const user = testUser('founder', { domain: 'example.org' });
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          call(user, 'POST', '/api/vendors', { name: `Parallel ${i}`, website: uniqueDomain('parallel') }),
        ),
      );
      expect(tally(answers)).toEqual({ '201': 8 });
      expect(await rows('SELECT 1 FROM profiles.users WHERE user_id = $1', [user.userId])).toHaveLength(1);
      const owners = await rows<{ vendor_id: string; n: number }>(
        `SELECT vendor_id, count(*)::int AS n FROM profiles.vendor_members WHERE user_id = $1 AND role = 'owner' GROUP BY 1`,
        [user.userId],
      );
      expect(owners).toHaveLength(8);
      expect(owners.every((o) => o.n === 1)).toBe(true);
    }
  });
});

describe('invitations', () => {
  it('inviting one address many times at once: one invitation, one email (vendor_invitation.created)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { owner, vendorId } = await verifiedVendor(ctx, 'inviter');
      const email = `invitee-${round}-${Math.random().toString(36).slice(2)}@example.com`;
      const answers = await Promise.all(Array.from({ length: 10 }, () => invite(owner, vendorId, email)));
      expect(tally(answers)).toEqual({ '201': 10 });
      const ids = new Set(answers.map((a) => a.json<VendorInvitation>().id));
      expect(ids.size).toBe(1);
      expect(await rows('SELECT id FROM profiles.vendor_invitations WHERE vendor_id = $1', [vendorId])).toHaveLength(1);
      const emails = await rows(
        `SELECT 1 FROM profiles.outbox_events WHERE name = 'vendor_invitation.created' AND payload ->> 'vendorId' = $1`,
        [vendorId],
      );
      expect(emails).toHaveLength(1);
      const audit = await rows(
        `SELECT 1 FROM profiles.vendor_audit WHERE vendor_id = $1 AND action = 'member_invited'`,
        [vendorId],
      );
      expect(audit).toHaveLength(1);
    }
  });

  it('an invitation accepted many times at once is used once: one member row, the rest 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { owner, vendorId } = await verifiedVendor(ctx, 'joiner');
      const invitee = testUser('invitee', { domain: 'example.net' });
      const invitation = (await invite(owner, vendorId, invitee.email)).json<VendorInvitation>();
      // From the outbox (what was committed), not from the bus: the creation's event may not be delivered yet.
      const versionBefore = (await outboxOf(vendorId, 'vendor.saved')).length;
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => call(invitee, 'POST', `/api/vendor-invitations/${invitation.id}/accept`)),
      );
      expect(tally(answers)).toEqual({ '200': 1, '409 INVITATION_ALREADY_ACCEPTED': 9 });
      expect(
        await rows('SELECT role FROM profiles.vendor_members WHERE vendor_id = $1 AND user_id = $2', [
          vendorId,
          invitee.userId,
        ]),
      ).toEqual([{ role: 'member' }]);
      expect(
        await rows(`SELECT 1 FROM profiles.vendor_audit WHERE vendor_id = $1 AND action = 'member_joined'`, [vendorId]),
      ).toHaveLength(1);
      // One change to the workspace, one vendor.saved (versions stay one apart).
      const saved = await outboxOf(vendorId, 'vendor.saved');
      expect(saved.map((e) => e.payload.version)).toEqual(saved.map((_, i) => i + 1));
      expect(saved.length).toBe(versionBefore + 1);
    }
  });

  it('a new user accepting invitations of several workspaces at once joins every one', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const invitee = testUser('multi', { domain: 'example.net' });
      const invitations: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { owner, vendorId } = await verifiedVendor(ctx, `multi${i}`);
        invitations.push((await invite(owner, vendorId, invitee.email)).json<VendorInvitation>().id);
      }
      const answers = await Promise.all(
        invitations.map((id) => call(invitee, 'POST', `/api/vendor-invitations/${id}/accept`)),
      );
      expect(tally(answers)).toEqual({ '200': 5 });
      expect(await rows('SELECT 1 FROM profiles.vendor_members WHERE user_id = $1', [invitee.userId])).toHaveLength(5);
      expect(await rows('SELECT 1 FROM profiles.users WHERE user_id = $1', [invitee.userId])).toHaveLength(1);
    }
  });

  it('accepted and withdrawn at once: exactly one of the two happens', async () => {
    const outcomes: Record<string, number> = {};
    for (let round = 0; round < ROUNDS * 2; round++) {
      const { owner, vendorId } = await verifiedVendor(ctx, 'withdraw');
      const invitee = testUser('maybe', { domain: 'example.net' });
      const invitation = (await invite(owner, vendorId, invitee.email)).json<VendorInvitation>();
      const [accepted, revoked] = await Promise.all([
        call(invitee, 'POST', `/api/vendor-invitations/${invitation.id}/accept`),
        call(owner, 'DELETE', `/api/vendors/${vendorId}/invitations/${invitation.id}`),
      ]);
      const [row] = await rows<{ accepted_at: Date | null; revoked_at: Date | null }>(
        'SELECT accepted_at, revoked_at FROM profiles.vendor_invitations WHERE id = $1',
        [invitation.id],
      );
      const members = await rows('SELECT 1 FROM profiles.vendor_members WHERE vendor_id = $1 AND user_id = $2', [
        vendorId,
        invitee.userId,
      ]);
      if (accepted.statusCode === 200) {
        expect(tally([revoked])).toEqual({ '409 INVITATION_ALREADY_ACCEPTED': 1 });
        expect(row!.accepted_at).not.toBeNull();
        expect(row!.revoked_at).toBeNull();
        expect(members).toHaveLength(1);
      } else {
        expect(tally([accepted, revoked])).toEqual({ '200': 1, '404 INVITATION_NOT_FOUND': 1 });
        expect(row!.accepted_at).toBeNull();
        expect(row!.revoked_at).not.toBeNull();
        expect(members).toHaveLength(0);
      }
      const key = accepted.statusCode === 200 ? 'accepted' : 'withdrawn';
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
    expect(Object.values(outcomes).reduce((a, b) => a + b)).toBe(ROUNDS * 2);
  });
});

describe('members', () => {
  /** A workspace with two owners. */
  async function twoOwners() {
    const { owner, vendorId } = await verifiedVendor(ctx, 'owners');
    const second = testUser('second', { domain: 'example.net' });
    const invitation = (await invite(owner, vendorId, second.email, 'owner')).json<VendorInvitation>();
    expect((await call(second, 'POST', `/api/vendor-invitations/${invitation.id}/accept`)).statusCode).toBe(200);
    return { vendorId, owners: [owner, second] as const };
  }
  const ownersOf = (vendorId: string) =>
    rows(`SELECT user_id FROM profiles.vendor_members WHERE vendor_id = $1 AND role = 'owner'`, [vendorId]);

  it('two owners leaving at once: one leaves, the other stays the last owner', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { vendorId, owners } = await twoOwners();
      const answers = await Promise.all(
        owners.map((o) => call(o, 'DELETE', `/api/vendors/${vendorId}/members/${o.userId}`)),
      );
      expect(tally(answers)).toEqual({ '200': 1, '400 LAST_OWNER': 1 });
      expect(await ownersOf(vendorId)).toHaveLength(1);
    }
  });

  it('two owners removing each other (many times) at once: exactly one owner is left', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { vendorId, owners } = await twoOwners();
      const [a, b] = owners;
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => [
          call(a, 'DELETE', `/api/vendors/${vendorId}/members/${b.userId}`),
          call(b, 'DELETE', `/api/vendors/${vendorId}/members/${a.userId}`),
        ]).flat(),
      );
      // The first removal wins; the loser is no member any more (403), the rest find nobody to remove or
      // would remove the last owner.
      const counts = tally(answers);
      expect(counts['200']).toBe(1);
      expect(answers.filter((r) => r.statusCode >= 500)).toEqual([]);
      expect(await ownersOf(vendorId)).toHaveLength(1);
      expect(
        await rows(`SELECT 1 FROM profiles.vendor_audit WHERE vendor_id = $1 AND action = 'member_removed'`, [
          vendorId,
        ]),
      ).toHaveLength(1);
    }
  });
});

describe('lead criteria, bounties and webhook endpoints', () => {
  const criteria = (i: number) => ({ industries: [`Industry ${i}`], countries: ['Germany'] });
  const bounties = (amount: number) => ({
    qualifiedLead: { enabled: false },
    meetingHeld: { enabled: true, type: 'flat', amount },
    opportunityCreated: { enabled: false },
    closedWon: { enabled: true, type: 'percentage_arr', amount: 10 },
    retentionBonus: { enabled: false },
  });

  it('saves at once: each one its own version, one event each, the row holds the last version', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { owner, vendorId } = await verifiedVendor(ctx, 'saver');
      const answers = await Promise.all([
        ...Array.from({ length: 8 }, (_, i) => call(owner, 'POST', '/api/lead-criteria', criteria(i))),
        ...Array.from({ length: 8 }, (_, i) => call(owner, 'POST', '/api/bounties', bounties(100 + i))),
      ]);
      expect(tally(answers)).toEqual({ '200': 16 });
      for (const [table, event] of [
        ['lead_criteria', 'lead_criteria.saved'],
        ['bounties', 'bounties.saved'],
      ] as const) {
        const [row] = await rows<{ version: number }>(`SELECT version FROM profiles.${table} WHERE vendor_id = $1`, [
          vendorId,
        ]);
        expect(row!.version).toBe(8);
        const events = await outboxOf(vendorId, event);
        expect(events.map((e) => e.payload.version).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      }
    }
  });

  it('registering endpoints at once stops at the limit of 10', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { owner, vendorId } = await verifiedVendor(ctx, 'hooks');
      const answers = await Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          call(owner, 'POST', `/api/vendors/${vendorId}/webhooks`, {
            url: `https://127.0.0.1:9/hook-${i}`,
            events: ['lead.created'],
          }),
        ),
      );
      expect(tally(answers)).toEqual({ '201': 10, '409 WEBHOOK_LIMIT': 4 });
      expect(await rows('SELECT 1 FROM profiles.webhook_endpoints WHERE vendor_id = $1', [vendorId])).toHaveLength(10);
    }
  });

  it('an endpoint deleted many times at once is deleted once (one audit entry)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { owner, vendorId } = await verifiedVendor(ctx, 'unhook');
      const created = await call(owner, 'POST', `/api/vendors/${vendorId}/webhooks`, {
        url: 'https://127.0.0.1:9/hook',
        events: ['lead.created'],
      });
      const { endpoint } = created.json<{ endpoint: { id: string } }>();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => call(owner, 'DELETE', `/api/vendors/${vendorId}/webhooks/${endpoint.id}`)),
      );
      expect(tally(answers)).toEqual({ '200': 1, '404 WEBHOOK_NOT_FOUND': 7 });
      expect(
        await rows(`SELECT 1 FROM profiles.vendor_audit WHERE vendor_id = $1 AND action = 'webhook_removed'`, [
          vendorId,
        ]),
      ).toHaveLength(1);
    }
  });
});
