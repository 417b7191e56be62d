import { ERRORS, type ErrorCode, type MyVendors, type Vendor, type VendorInvitation } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  snapshot,
  startProfiles,
  testUser,
  uniqueDomain,
  verifiedVendor,
  type TestContext,
  type TestUser,
} from './helpers.ts';

/**
 * Data isolation between vendor workspaces (profiles): ids of one workspace's invitations, members and
 * webhook endpoints named through another workspace find nothing there; members who are not owners manage
 * nothing; a signed-in user sees only their own workspaces and the invitations to their own verified
 * address. Every refusal leaves every table as it was and shows nothing of the other workspace.
 */

let ctx: TestContext;
const call = caller(() => ctx);

beforeAll(async () => {
  ctx = await startProfiles({ WEBHOOK_ALLOW_PRIVATE: 'true' });
});
afterAll(async () => {
  await ctx?.close();
});

async function ok<T>(response: Awaited<ReturnType<typeof call>>, status = 200): Promise<T> {
  expect(response.statusCode, response.body).toBe(status);
  return response.json<T>();
}

/** A refusal: status, code and message, none of `secrets` in the body, and every table as before. */
async function refused(
  send: () => ReturnType<typeof call>,
  status: number,
  code: ErrorCode,
  secrets: string[] = [],
): Promise<void> {
  const before = await snapshot(ctx.sql);
  const response = await send();
  expect([response.statusCode, response.json()], response.body).toEqual([
    status,
    { code, message: ERRORS[code].message },
  ]);
  for (const secret of secrets) expect(response.body).not.toContain(secret);
  expect(await snapshot(ctx.sql)).toEqual(before);
}

/** A verified colleague (role member) of the owner's workspace. */
async function colleagueOf(owner: TestUser, vendorId: string, domain: string, role = 'member'): Promise<TestUser> {
  const colleague = testUser('colleague', { domain });
  const invitation = await ok<VendorInvitation>(
    await call(owner, 'POST', `/api/vendors/${vendorId}/invitations`, { email: colleague.email, role }),
    201,
  );
  await ok(await call(colleague, 'POST', `/api/vendor-invitations/${invitation.id}/accept`));
  return colleague;
}

describe("another workspace's invitations, members and endpoints", () => {
  it('are not found through the caller’s own workspace, and stay as they were', async () => {
    const a = await verifiedVendor(ctx, 'kilo');
    const b = await verifiedVendor(ctx, 'lima');
    const aMember = await colleagueOf(a.owner, a.vendorId, a.domain);
    const pending = await ok<VendorInvitation>(
      await call(a.owner, 'POST', `/api/vendors/${a.vendorId}/invitations`, { email: 'pending.hire@example.com' }),
      201,
    );
    const endpoint = await ok<{ endpoint: { id: string } }>(
      await call(a.owner, 'POST', `/api/vendors/${a.vendorId}/webhooks`, {
        url: 'https://127.0.0.1:9/secret-hook-a',
        events: ['lead.created'],
      }),
      201,
    );
    const secrets = ['pending.hire@example.com', aMember.email, 'secret-hook'];
    const through = (vendorId: string) => `/api/vendors/${vendorId}`;

    // B's owner names A's invitation, member and endpoint through B.
    await refused(
      () => call(b.owner, 'DELETE', `${through(b.vendorId)}/invitations/${pending.id}`),
      404,
      'INVITATION_NOT_FOUND',
      secrets,
    );
    await refused(
      () => call(b.owner, 'DELETE', `${through(b.vendorId)}/members/${aMember.userId}`),
      404,
      'MEMBER_NOT_FOUND',
      secrets,
    );
    for (const [method, suffix] of [
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const)
      await refused(
        () => call(b.owner, method, `${through(b.vendorId)}/webhooks/${endpoint.endpoint.id}${suffix}`),
        404,
        'WEBHOOK_NOT_FOUND',
        secrets,
      );
    // ...and through A itself: not a member.
    await refused(
      () => call(b.owner, 'DELETE', `${through(a.vendorId)}/invitations/${pending.id}`),
      403,
      'NOT_A_MEMBER',
      secrets,
    );

    // A is as it was: the invitation pending, the member in, the endpoint there.
    const vendor = await ok<Vendor>(await call(a.owner, 'GET', through(a.vendorId)));
    expect(vendor.invitations.map((i) => i.id)).toEqual([pending.id]);
    expect(vendor.members.map((m) => m.userId)).toContain(aMember.userId);
    expect(
      (await ok<Array<{ id: string }>>(await call(a.owner, 'GET', `${through(a.vendorId)}/webhooks`))).map((e) => e.id),
    ).toEqual([endpoint.endpoint.id]);
  });
});

describe('members who are not owners', () => {
  it('withdraw no invitation, remove nobody, delete no endpoint and see no invitations', async () => {
    const a = await verifiedVendor(ctx, 'mike');
    const member = await colleagueOf(a.owner, a.vendorId, a.domain);
    const other = await colleagueOf(a.owner, a.vendorId, a.domain);
    const pending = await ok<VendorInvitation>(
      await call(a.owner, 'POST', `/api/vendors/${a.vendorId}/invitations`, { email: 'next.hire@example.com' }),
      201,
    );
    const endpoint = await ok<{ endpoint: { id: string } }>(
      await call(a.owner, 'POST', `/api/vendors/${a.vendorId}/webhooks`, {
        url: 'https://127.0.0.1:9/secret-hook-m',
        events: ['lead.created'],
      }),
      201,
    );
    await refused(
      () => call(member, 'DELETE', `/api/vendors/${a.vendorId}/invitations/${pending.id}`),
      403,
      'NOT_AN_OWNER',
    );
    await refused(
      () => call(member, 'DELETE', `/api/vendors/${a.vendorId}/members/${other.userId}`),
      403,
      'NOT_AN_OWNER',
    );
    await refused(
      () => call(member, 'DELETE', `/api/vendors/${a.vendorId}/members/${a.owner.userId}`),
      403,
      'NOT_AN_OWNER',
    );
    await refused(
      () => call(member, 'DELETE', `/api/vendors/${a.vendorId}/webhooks/${endpoint.endpoint.id}`),
      403,
      'NOT_AN_OWNER',
    );
    await refused(
      () => call(member, 'POST', `/api/vendors/${a.vendorId}/invitations`, { email: 'x@example.com', role: 'owner' }),
      403,
      'NOT_AN_OWNER',
    );
    // Members see the workspace but not who is invited (owners and administrators do).
    for (const url of [`/api/vendors/${a.vendorId}`, '/api/vendors/mine']) {
      const response = await call(member, 'GET', url);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).not.toContain('next.hire@example.com');
    }
  });
});

describe('what a signed-in user sees of workspaces', () => {
  it('only their own workspaces, and invitations only to their own verified address', async () => {
    const a = await verifiedVendor(ctx, 'november');
    const invitee = testUser('invitee');
    await ok(await call(a.owner, 'POST', `/api/vendors/${a.vendorId}/invitations`, { email: invitee.email }), 201);

    const stranger = testUser('stranger');
    const strangers = await ok<MyVendors>(await call(stranger, 'GET', '/api/vendors/mine'));
    expect(strangers).toEqual({ vendors: [], invitations: [] });

    // The invitee's address, not yet verified: the invitation stays hidden, and cannot be accepted.
    const unverified = testUser('invitee', { email: invitee.email, userId: invitee.userId, emailVerified: false });
    expect(await ok<MyVendors>(await call(unverified, 'GET', '/api/vendors/mine'))).toEqual({
      vendors: [],
      invitations: [],
    });
    const seen = await ok<MyVendors>(await call(invitee, 'GET', '/api/vendors/mine'));
    expect(seen.vendors).toEqual([]);
    expect(seen.invitations.map((i) => i.vendorId)).toEqual([a.vendorId]);
  });

  it("refuses the administrators' vendor routes to everyone else (403 ADMIN_ONLY), changing nothing", async () => {
    const a = await verifiedVendor(ctx, 'oscar');
    const claimant = testUser('claimant');
    const claim = await ok<Vendor>(
      await call(claimant, 'POST', '/api/vendors', { name: 'Oscar Inc', website: uniqueDomain('oscar') }),
      201,
    );
    expect(claim.verified).toBe(false);
    for (const user of [a.owner, claimant]) {
      await refused(
        () => call(user, 'POST', `/api/vendors/${claim.id}/approve`, { note: 'Trust me' }),
        403,
        'ADMIN_ONLY',
      );
      await refused(() => call(user, 'GET', '/api/admin/vendors'), 403, 'ADMIN_ONLY', [a.domain]);
      await refused(
        () => call(user, 'POST', '/api/admin/vendors', { name: 'Mine', website: uniqueDomain('mine'), approve: true }),
        403,
        'ADMIN_ONLY',
      );
    }
  });

  it('lets an administrator who is not a member neither test nor delete a workspace’s endpoints', async () => {
    const a = await verifiedVendor(ctx, 'papa');
    const endpoint = await ok<{ endpoint: { id: string } }>(
      await call(a.owner, 'POST', `/api/vendors/${a.vendorId}/webhooks`, {
        url: 'https://127.0.0.1:9/secret-hook-p',
        events: ['lead.created'],
      }),
      201,
    );
    const admin = testUser('admin', { isAdmin: true });
    for (const [method, suffix] of [
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const)
      await refused(
        () => call(admin, method, `/api/vendors/${a.vendorId}/webhooks/${endpoint.endpoint.id}${suffix}`),
        403,
        'NOT_A_MEMBER',
        ['secret-hook'],
      );
  });
});
