import {
  ERRORS,
  type AuditEntry,
  type ErrorCode,
  type EventEnvelope,
  type EventName,
  type MyVendors,
  type Vendor,
  type VendorInvitation,
} from '@app/contracts';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  deliver,
  eventsOfVendor,
  snapshot,
  startProfiles,
  testUser,
  uniqueDomain,
  verifiedVendor,
  type TestContext,
  type TestUser,
} from './helpers.ts';

let ctx: TestContext;
const call = caller(() => ctx);

const criteria = { industries: ['Computer Software'], countries: ['Germany'] };
const bounties = {
  qualifiedLead: { enabled: false },
  meetingHeld: { enabled: true, type: 'flat', amount: 100 },
  opportunityCreated: { enabled: false },
  closedWon: { enabled: true, type: 'flat', amount: 1000 },
  retentionBonus: { enabled: false },
};

const create = (user: TestUser, body: unknown) => call(user, 'POST', '/api/vendors', body);
const update = (user: TestUser, vendorId: string, body: unknown) =>
  call(user, 'PATCH', `/api/vendors/${vendorId}`, body);
const invite = (user: TestUser, vendorId: string, body: unknown) =>
  call(user, 'POST', `/api/vendors/${vendorId}/invitations`, body);
const accept = (user: TestUser, invitationId: string) =>
  call(user, 'POST', `/api/vendor-invitations/${invitationId}/accept`);

async function created(user: TestUser, body: { name: string; website: string; leadInbox?: string }) {
  const response = await create(user, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Vendor>();
}

async function invited(owner: TestUser, vendorId: string, email: string, role = 'member') {
  const response = await invite(owner, vendorId, { email, role });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<VendorInvitation>();
}

async function ok<T>(response: Awaited<ReturnType<typeof call>>, status = 200): Promise<T> {
  expect(response.statusCode, response.body).toBe(status);
  return response.json<T>();
}

/** A refusal: its status and code, and every table exactly as before. */
async function expectRefused(send: () => ReturnType<typeof call>, status: number, code: ErrorCode) {
  const before = await snapshot(ctx.sql);
  const response = await send();
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<{ code: ErrorCode; message: string }>();
  expect(body.code).toBe(code);
  expect(ERRORS[body.code].status).toBe(status);
  expect(await snapshot(ctx.sql)).toEqual(before);
  return body;
}

/** The published events of one workspace of one name, once there are `count` of them. */
const published = <N extends EventName>(vendorId: string, name: N, count = 1) =>
  eventually(
    () => {
      const found = eventsOfVendor(ctx, vendorId, name);
      return found.length >= count ? found : undefined;
    },
    5000,
    `${count} ${name}`,
  );

const versions = (events: EventEnvelope[]) => events.map((e) => (e.payload as { version: number }).version);

beforeAll(async () => {
  ctx = await startProfiles();
});
afterAll(async () => {
  await ctx?.close();
});

describe('the workspace lifecycle', () => {
  it('creates, verifies by the owner’s address, renames, sets the inbox, invites, lets a colleague join and leave', async () => {
    const domain = uniqueDomain('acme');
    const owner = testUser('owner', { domain });
    const vendor = await created(owner, { name: 'Acme, Inc.', website: `https://www.${domain.toUpperCase()}/pricing` });
    expect(vendor).toMatchObject({
      name: 'Acme, Inc.',
      domain,
      leadInbox: owner.email,
      verified: true,
      verification: 'domain',
      role: 'owner',
      members: [{ userId: owner.userId, email: owner.email, name: owner.email, role: 'owner' }],
      invitations: [],
      hasLeadCriteria: false,
      hasBounties: false,
    });
    expect(vendor.verifiedAt).toEqual(expect.any(String));
    expect(await ok(await call(owner, 'GET', '/api/vendors/mine'))).toEqual({ vendors: [vendor], invitations: [] });
    expect(await ok(await call(owner, 'GET', `/api/vendors/${vendor.id}`))).toEqual(vendor);

    const renamed = await ok<Vendor>(
      await update(owner, vendor.id, { name: 'Acme Analytics', leadInbox: `Leads@${domain}` }),
    );
    expect(renamed).toMatchObject({ name: 'Acme Analytics', leadInbox: `leads@${domain}`, verified: true });
    // Sending the same values again is no change.
    expect(await ok(await update(owner, vendor.id, { name: 'Acme Analytics', website: domain }))).toEqual(renamed);
    await expectRefused(() => update(owner, vendor.id, { website: uniqueDomain() }), 400, 'WEBSITE_LOCKED');
    await expectRefused(() => update(owner, vendor.id, {}), 400, 'NOTHING_TO_UPDATE');

    const colleague = testUser('colleague');
    const invitation = await invited(owner, vendor.id, colleague.email.toUpperCase());
    expect(invitation).toMatchObject({
      vendorId: vendor.id,
      vendorName: 'Acme Analytics',
      email: colleague.email,
      role: 'member',
      invitedBy: owner.email,
    });
    expect((await ok<Vendor>(await call(owner, 'GET', `/api/vendors/${vendor.id}`))).invitations).toEqual([invitation]);
    expect(await ok(await call(colleague, 'GET', '/api/vendors/mine'))).toEqual({
      vendors: [],
      invitations: [invitation],
    });

    const joined = await ok<Vendor>(await accept(colleague, invitation.id));
    expect(joined.role).toBe('member');
    expect(joined.invitations).toEqual([]); // members do not see invitations, and this one is used
    expect(joined.members.map((m) => [m.userId, m.role])).toEqual([
      [owner.userId, 'owner'],
      [colleague.userId, 'member'],
    ]);
    // A member of a verified workspace manages its ICP, bounties and inbox.
    await ok(await call(colleague, 'POST', '/api/lead-criteria', criteria));
    await ok(await call(colleague, 'POST', `/api/bounties?vendorId=${vendor.id}`, bounties));
    expect(await ok(await call(owner, 'GET', '/api/lead-criteria'))).toMatchObject(criteria);
    expect(await ok(await update(colleague, vendor.id, { leadInbox: colleague.email }))).toMatchObject({
      leadInbox: colleague.email,
      hasLeadCriteria: true,
      hasBounties: true,
    });
    // ...but not its name, its members or its audit log.
    await expectRefused(() => update(colleague, vendor.id, { name: 'Mine now' }), 403, 'NOT_AN_OWNER');
    await expectRefused(
      () => call(colleague, 'DELETE', `/api/vendors/${vendor.id}/members/${owner.userId}`),
      403,
      'NOT_AN_OWNER',
    );
    await expectRefused(() => call(colleague, 'GET', `/api/vendors/${vendor.id}/audit`), 403, 'NOT_AN_OWNER');
    await expectRefused(() => invite(colleague, vendor.id, { email: 'x@example.com' }), 403, 'NOT_AN_OWNER');

    // The last owner cannot leave; a member can.
    await expectRefused(
      () => call(owner, 'DELETE', `/api/vendors/${vendor.id}/members/${owner.userId}`),
      400,
      'LAST_OWNER',
    );
    await expectRefused(
      () => call(owner, 'DELETE', `/api/vendors/${vendor.id}/members/${testUser().userId}`),
      404,
      'MEMBER_NOT_FOUND',
    );
    const left = await ok<Vendor>(
      await call(colleague, 'DELETE', `/api/vendors/${vendor.id}/members/${colleague.userId}`),
    );
    expect(left.members.map((m) => m.userId)).toEqual([owner.userId]);
    await expectRefused(() => call(colleague, 'GET', `/api/vendors/${vendor.id}`), 403, 'NOT_A_MEMBER');
    await expectRefused(() => call(colleague, 'POST', '/api/lead-criteria', criteria), 404, 'NO_WORKSPACE');

    const audit = await ok<AuditEntry[]>(await call(owner, 'GET', `/api/vendors/${vendor.id}/audit`));
    expect(audit.map((entry) => entry.action).reverse()).toEqual([
      'created',
      'verified',
      'renamed',
      'lead_inbox_changed',
      'member_invited',
      'member_joined',
      'lead_inbox_changed',
      'member_left',
    ]);
    expect(audit.at(-2)).toMatchObject({
      actor: 'Referral Hub',
      note: `${owner.email} is a verified address on ${domain}`,
    });

    // vendor.saved: one per change to the workspace or its members, versions 1, 2, ...; invitations are no change.
    const saved = await published(vendor.id, 'vendor.saved', 5);
    expect(versions(saved)).toEqual([1, 2, 3, 4, 5]);
    expect(saved[0]!.payload).toEqual({
      vendorId: vendor.id,
      version: 1,
      name: 'Acme, Inc.',
      domain,
      companyKey: 'acme',
      leadInbox: owner.email,
      verified: true,
      members: [{ userId: owner.userId, email: owner.email, name: owner.email, role: 'owner' }],
    });
    expect(saved[1]!.payload).toMatchObject({ version: 2, name: 'Acme Analytics', companyKey: 'acme analytics' });
    expect(saved[2]!.payload).toMatchObject({ version: 3, members: [{ role: 'owner' }, { role: 'member' }] });
    expect(saved[3]!.payload).toMatchObject({ version: 4, leadInbox: colleague.email });
    expect(saved[4]!.payload).toMatchObject({ version: 5, members: [{ userId: owner.userId }] });
    const { rows } = await ctx.sql.query('SELECT version FROM profiles.vendors WHERE id = $1::uuid', [vendor.id]);
    expect(rows[0].version).toBe(5);
  });

  it('stays unverified for an owner off the domain, who may still set the website, until a colleague on it joins', async () => {
    const domain = uniqueDomain('beta');
    const owner = testUser('founder');
    const vendor = await created(owner, { name: 'Beta', website: uniqueDomain('typo') });
    expect(vendor).toMatchObject({ verified: false, verification: null, verifiedAt: null, role: 'owner' });

    // Nothing of an unverified workspace can reach anyone: no ICP, no bounties, no inbox change.
    await expectRefused(() => call(owner, 'POST', '/api/lead-criteria', criteria), 403, 'WORKSPACE_NOT_VERIFIED');
    await expectRefused(() => call(owner, 'POST', '/api/bounties', bounties), 403, 'WORKSPACE_NOT_VERIFIED');
    await expectRefused(() => update(owner, vendor.id, { leadInbox: 'x@example.com' }), 403, 'WORKSPACE_NOT_VERIFIED');
    // Reading is for members, verified or not.
    expect((await call(owner, 'GET', '/api/lead-criteria')).json()).toMatchObject({ code: 'LEAD_CRITERIA_NOT_FOUND' });

    const moved = await ok<Vendor>(await update(owner, vendor.id, { website: domain, name: 'Beta Labs' }));
    expect(moved).toMatchObject({ domain, name: 'Beta Labs', verified: false });
    expect(await ok(await call(owner, 'POST', `/api/vendors/${vendor.id}/verification`))).toEqual(moved);

    const colleague = testUser('cto', { domain: `eu.${domain}` }); // a subdomain counts
    const invitation = await invited(owner, vendor.id, colleague.email, 'owner');
    const joined = await ok<Vendor>(await accept(colleague, invitation.id));
    expect(joined).toMatchObject({ verified: true, verification: 'domain', role: 'owner' });
    await ok(await call(owner, 'POST', '/api/lead-criteria', criteria));
    const saved = await published(vendor.id, 'vendor.saved', 3);
    expect(saved.map((e) => [e.payload.version, (e.payload as { verified: boolean }).verified])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
  });
});

describe('verification by domain', () => {
  it('refuses a webmail domain as a website, changing nothing', async () => {
    const user = testUser('webmail', { domain: 'gmail.com' });
    for (const website of ['gmail.com', 'https://mail.yahoo.com/', 'Outlook.com']) {
      const body = await expectRefused(() => create(user, { name: 'Mine', website }), 400, 'WEBMAIL_DOMAIN');
      expect(body.message).toBe(ERRORS.WEBMAIL_DOMAIN.message);
    }
    await expectRefused(() => create(user, { name: 'Mine', website: 'not a website' }), 400, 'VALIDATION_FAILED');
    const vendor = await created(user, { name: 'Mine', website: uniqueDomain() });
    // A gmail address verifies nothing, whatever the website.
    expect(vendor.verified).toBe(false);
    await expectRefused(() => update(user, vendor.id, { website: 'hotmail.com' }), 400, 'WEBMAIL_DOMAIN');
  });

  it('never counts an unverified address; a verification (or an email change) re-checks the user’s workspaces', async () => {
    const domain = uniqueDomain('gamma');
    const owner = testUser('gamma-owner');
    const vendor = await created(owner, { name: 'Gamma', website: domain });
    // Someone registered on the domain but not verified yet cannot join.
    const pending = testUser('pending', { domain, emailVerified: false });
    await deliver(ctx.bus, 'user.registered', {
      userId: pending.userId,
      email: pending.email,
      firstName: 'Pen',
      lastName: 'Ding',
      companyName: 'Gamma',
    });
    await eventually(
      async () =>
        (await ctx.sql.query('SELECT 1 FROM profiles.users WHERE user_id = $1', [pending.userId])).rowCount === 1,
    );
    const invitation = await invited(owner, vendor.id, pending.email);
    await expectRefused(() => accept(pending, invitation.id), 403, 'EMAIL_NOT_VERIFIED');
    expect((await ok<Vendor>(await call(owner, 'POST', `/api/vendors/${vendor.id}/verification`))).verified).toBe(
      false,
    );

    // The owner moves their own account to an address on the domain: auth publishes user.email_verified.
    const moved = `owner@${domain}`;
    await deliver(ctx.bus, 'user.email_verified', { userId: owner.userId, email: moved });
    const verified = await eventually(
      () => eventsOfVendor(ctx, vendor.id, 'vendor.saved').find((e) => e.payload.version === 2),
      5000,
      'vendor.saved after the email change',
    );
    expect(verified.payload).toMatchObject({
      verified: true,
      members: [{ userId: owner.userId, email: moved, role: 'owner' }],
    });
    const audit = await ok<AuditEntry[]>(await call(owner, 'GET', `/api/vendors/${vendor.id}/audit`));
    expect(audit[0]).toMatchObject({ action: 'verified', note: `${moved} is a verified address on ${domain}` });
  });

  it('keeps one verified workspace per domain; unverified claims coexist (DOMAIN_TAKEN)', async () => {
    const { vendorId, domain } = await verifiedVendor(ctx, 'delta');
    const impostor = testUser('impostor', { domain });
    await expectRefused(() => create(impostor, { name: 'Delta', website: domain }), 409, 'DOMAIN_TAKEN');

    const contested = uniqueDomain('contested');
    const first = await created(testUser('first'), { name: 'Contested', website: contested });
    const secondOwner = testUser('second');
    const second = await created(secondOwner, { name: 'Contested too', website: contested });
    expect([first.verified, second.verified]).toEqual([false, false]);
    await expectRefused(() => update(secondOwner, second.id, { website: domain }), 409, 'DOMAIN_TAKEN');

    const admin = testUser('admin', { isAdmin: true });
    await ok(await call(admin, 'POST', `/api/vendors/${first.id}/approve`, { note: 'Called their office' }));
    // The second claim can no longer be verified, by domain or by an administrator.
    const onDomain = testUser('staff', { domain: contested });
    const joined = await ok<Vendor>(await accept(onDomain, (await invited(secondOwner, second.id, onDomain.email)).id));
    expect(joined.verified).toBe(false);
    await expectRefused(() => call(secondOwner, 'POST', `/api/vendors/${second.id}/verification`), 409, 'DOMAIN_TAKEN');
    await expectRefused(
      () => call(admin, 'POST', `/api/vendors/${second.id}/approve`, { note: 'Sure' }),
      409,
      'DOMAIN_TAKEN',
    );
    expect((await ok<Vendor>(await call(admin, 'GET', `/api/vendors/${vendorId}`))).verified).toBe(true);
  });
  // Repeated: which racer gets there when varies. One ordering (a racer verifying after the winner committed)
  // answered 201 with a second, unverified workspace on the taken domain (seen in CI; 40 repeats caught it).
  it('lets only one of several concurrent claims of a domain be verified', { repeats: 10 }, async () => {
    const domain = uniqueDomain('race');
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, i) => create(testUser(`racer${i}`, { domain }), { name: 'Race', website: domain })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    expect(responses.find((r) => r.statusCode === 409)!.json()).toMatchObject({ code: 'DOMAIN_TAKEN' });
    const { rows } = await ctx.sql.query('SELECT count(*)::int n FROM profiles.vendors WHERE domain = $1', [domain]);
    expect(rows[0].n).toBe(1);
  });
});

describe('administrators', () => {
  it('create, list, approve with a note in the audit log, and invite a vendor’s first owner', async () => {
    const admin = testUser('admin', { isAdmin: true });
    const domain = uniqueDomain('hubspot');
    const vendor = await ok<Vendor>(
      await call(admin, 'POST', '/api/admin/vendors', { name: 'HubSpot', website: domain }),
      201,
    );
    expect(vendor).toMatchObject({ verified: false, role: null, members: [], leadInbox: '' });
    await expectRefused(
      () => call(admin, 'POST', '/api/admin/vendors', { name: 'Mail', website: 'gmail.com' }),
      400,
      'WEBMAIL_DOMAIN',
    );

    const listed = await ok<Array<{ id: string }>>(
      await call(admin, 'GET', `/api/admin/vendors?status=unverified&search=${domain}`),
    );
    expect(listed).toEqual([
      {
        id: vendor.id,
        name: 'HubSpot',
        domain,
        verified: false,
        verification: null,
        revokedAt: null,
        members: 0,
        createdAt: vendor.createdAt,
      },
    ]);
    expect(await ok(await call(admin, 'GET', `/api/admin/vendors?status=verified&search=${domain}`))).toEqual([]);

    const stranger = testUser('stranger');
    await expectRefused(
      () => call(stranger, 'POST', `/api/vendors/${vendor.id}/approve`, { note: 'me' }),
      403,
      'ADMIN_ONLY',
    );
    await expectRefused(() => call(stranger, 'GET', '/api/admin/vendors'), 403, 'ADMIN_ONLY');
    await expectRefused(
      () => call(admin, 'POST', `/api/vendors/${vendor.id}/approve`, { note: ' ' }),
      400,
      'VALIDATION_FAILED',
    );
    await expectRefused(
      () => call(admin, 'POST', `/api/vendors/${crypto.randomUUID()}/approve`, { note: 'x' }),
      404,
      'VENDOR_NOT_FOUND',
    );

    const approved = await ok<Vendor>(
      await call(admin, 'POST', `/api/vendors/${vendor.id}/approve`, { note: 'Signed partnership agreement' }),
    );
    expect(approved).toMatchObject({ verified: true, verification: 'admin' });
    const audit = await ok<AuditEntry[]>(await call(admin, 'GET', `/api/vendors/${vendor.id}/audit`));
    expect(audit[0]).toMatchObject({ action: 'approved', actor: admin.email, note: 'Signed partnership agreement' });

    const first = testUser('vp', { domain: 'elsewhere.test' });
    const invitation = await invited(admin, vendor.id, first.email, 'owner');
    expect((await ok<Vendor>(await accept(first, invitation.id))).role).toBe('owner');

    const direct = await ok<Vendor>(
      await call(admin, 'POST', '/api/admin/vendors', {
        name: 'Notion',
        website: uniqueDomain('notion'),
        approve: true,
        note: 'Known vendor',
      }),
      201,
    );
    expect(direct).toMatchObject({ verified: true, verification: 'admin' });
    const [saved] = await published(direct.id, 'vendor.saved');
    expect(saved!.payload).toMatchObject({ version: 1, verified: true, members: [] });
  });
});

describe('revoking a verification', () => {
  /** One more than the newest version before the revocation's (the workspace's only change since). */
  const revokedVersion = (saved: Array<{ payload: { version: number; verified: boolean } }>) =>
    Math.max(...saved.filter((e) => e.payload.verified).map((e) => e.payload.version)) + 1;

  it('an administrator revokes it with a note: unverified, the domain free, only an administrator verifies it again', async () => {
    const admin = testUser('admin', { isAdmin: true });
    const { owner, vendorId, domain } = await verifiedVendor(ctx, 'revoked');
    const revoke = (user: TestUser, id: string, note: string) =>
      call(user, 'POST', `/api/vendors/${id}/revoke`, { note });
    await expectRefused(() => revoke(owner, vendorId, 'mine'), 403, 'ADMIN_ONLY');
    await expectRefused(() => revoke(admin, vendorId, ' '), 400, 'VALIDATION_FAILED');
    await expectRefused(() => revoke(admin, crypto.randomUUID(), 'x'), 404, 'VENDOR_NOT_FOUND');
    expect((await ok<Vendor>(await call(admin, 'GET', `/api/vendors/${vendorId}`))).verified).toBe(true);

    const revoked = await ok<Vendor>(await revoke(admin, vendorId, 'The domain was bought by another company'));
    expect(revoked).toMatchObject({ verified: false, verification: null, verifiedAt: null });
    expect(revoked.revokedAt).not.toBeNull();
    const audit = await ok<AuditEntry[]>(await call(admin, 'GET', `/api/vendors/${vendorId}/audit`));
    expect(audit[0]).toMatchObject({
      action: 'revoked',
      actor: admin.email,
      note: 'The domain was bought by another company',
    });
    // Consumers are told: a newer vendor.saved says it is not verified.
    const saved = await published(vendorId, 'vendor.saved', 2);
    const newest = saved.reduce((a, b) => (b.payload.version > a.payload.version ? b : a));
    expect(newest.payload).toMatchObject({ verified: false, version: revokedVersion(saved) });
    // Revoking it again changes nothing (no second entry).
    await ok(await revoke(admin, vendorId, 'again'));
    expect(await ok<AuditEntry[]>(await call(admin, 'GET', `/api/vendors/${vendorId}/audit`))).toHaveLength(
      audit.length,
    );

    // The owner's address on the domain no longer verifies it: saving settings keeps the lead inbox locked.
    const checked = await ok<Vendor>(await call(owner, 'POST', `/api/vendors/${vendorId}/verification`));
    expect(checked).toMatchObject({ verified: false });
    await expectRefused(
      () => call(owner, 'PATCH', `/api/vendors/${vendorId}`, { leadInbox: `leads@${domain}` }),
      403,
      'WORKSPACE_NOT_VERIFIED',
    );
    // The directory shows it revoked.
    const [row] = await ok<Array<{ id: string; revokedAt: string | null }>>(
      await call(admin, 'GET', `/api/admin/vendors?search=${domain}`),
    );
    expect(row).toMatchObject({ id: vendorId, verified: false, revokedAt: revoked.revokedAt });

    // An administrator's approval verifies it again, and clears the revocation.
    const again = await ok<Vendor>(
      await call(admin, 'POST', `/api/vendors/${vendorId}/approve`, { note: 'Checked again with their CEO' }),
    );
    expect(again).toMatchObject({ verified: true, verification: 'admin', revokedAt: null });
  });

  it('the domain is free, but only an administrator verifies a workspace for it again', async () => {
    const admin = testUser('admin', { isAdmin: true });
    const { owner, vendorId, domain } = await verifiedVendor(ctx, 'reclaimed');
    await ok(await call(admin, 'POST', `/api/vendors/${vendorId}/revoke`, { note: 'The domain changed hands' }));
    // Its owner cannot get around it with a new workspace of the domain, or of a subdomain.
    const again = await created(owner, { name: 'Reclaimed again', website: domain });
    const sub = await created(owner, { name: 'Reclaimed EU', website: `eu.${domain}` });
    expect([again.verified, sub.verified]).toEqual([false, false]);
    // Their members are told only an administrator can verify them.
    expect([again.domainRevoked, sub.domainRevoked]).toEqual([true, true]);
    expect((await ok<Vendor>(await call(owner, 'POST', `/api/vendors/${again.id}/verification`))).verified).toBe(false);
    await expectRefused(
      () => call(owner, 'POST', `/api/bounties?vendorId=${again.id}`, bounties),
      403,
      'WORKSPACE_NOT_VERIFIED',
    );
    // Nor can anyone else at the domain: the administrator decides who holds it now.
    const newcomer = testUser('newcomer', { domain });
    const theirs = await created(newcomer, { name: 'Reclaimed', website: domain });
    expect(theirs.verified).toBe(false);
    const approved = await ok<Vendor>(
      await call(admin, 'POST', `/api/vendors/${theirs.id}/approve`, { note: 'The new owner of the domain' }),
    );
    expect(approved).toMatchObject({ verified: true, verification: 'admin', domainRevoked: false });
    // The revoked one cannot be approved over it.
    await expectRefused(
      () => call(admin, 'POST', `/api/vendors/${vendorId}/approve`, { note: 'Again' }),
      409,
      'DOMAIN_TAKEN',
    );
  });
});

describe('invitations: bad input and abuse change nothing', () => {
  it('refuses a malformed address, an unknown role, a member’s address, strangers', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'epsilon');
    const body = await expectRefused(
      () => invite(owner, vendorId, { email: 'not-an-email' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(body).toMatchObject({ field: 'email' });
    await expectRefused(() => invite(owner, vendorId, { email: 'a@b.test', role: 'admin' }), 400, 'VALIDATION_FAILED');
    await expectRefused(() => invite(owner, vendorId, { email: owner.email }), 409, 'ALREADY_A_MEMBER');
    await expectRefused(() => invite(testUser('x'), vendorId, { email: 'a@b.test' }), 403, 'NOT_A_MEMBER');
    await expectRefused(() => invite(owner, crypto.randomUUID(), { email: 'a@b.test' }), 404, 'VENDOR_NOT_FOUND');
  });

  it('is accepted only by the verified user it was sent to, once; withdrawn ones are gone', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'zeta');
    const invitee = testUser('invitee');
    const invitation = await invited(owner, vendorId, invitee.email);
    // Inviting again: the same invitation, no second email.
    expect(await invited(owner, vendorId, invitee.email)).toEqual(invitation);

    await expectRefused(() => accept(testUser('thief'), invitation.id), 403, 'INVITATION_NOT_YOURS');
    await expectRefused(
      () => accept(testUser('unverified', { email: invitee.email, emailVerified: false }), invitation.id),
      403,
      'EMAIL_NOT_VERIFIED',
    );
    await expectRefused(() => accept(invitee, crypto.randomUUID()), 404, 'INVITATION_NOT_FOUND');
    await expectRefused(() => accept(invitee, 'not-an-id'), 404, 'INVITATION_NOT_FOUND');

    await ok(await accept(invitee, invitation.id));
    await expectRefused(() => accept(invitee, invitation.id), 409, 'INVITATION_ALREADY_ACCEPTED');
    await expectRefused(() => accept(testUser('late'), invitation.id), 403, 'INVITATION_NOT_YOURS');
    await expectRefused(
      () => call(owner, 'DELETE', `/api/vendors/${vendorId}/invitations/${invitation.id}`),
      409,
      'INVITATION_ALREADY_ACCEPTED',
    );

    const other = testUser('other');
    const withdrawn = await invited(owner, vendorId, other.email);
    await expectRefused(
      () => call(invitee, 'DELETE', `/api/vendors/${vendorId}/invitations/${withdrawn.id}`),
      403,
      'NOT_AN_OWNER',
    );
    const after = await ok<Vendor>(await call(owner, 'DELETE', `/api/vendors/${vendorId}/invitations/${withdrawn.id}`));
    expect(after.invitations).toEqual([]);
    await expectRefused(
      () => call(owner, 'DELETE', `/api/vendors/${vendorId}/invitations/${withdrawn.id}`),
      404,
      'INVITATION_NOT_FOUND',
    );
    await expectRefused(() => accept(other, withdrawn.id), 404, 'INVITATION_NOT_FOUND');
    expect((await ok<MyVendors>(await call(other, 'GET', '/api/vendors/mine'))).invitations).toEqual([]);

    // One email per invitation, with the inviter's name once user.registered brought it.
    const emails = await published(vendorId, 'vendor_invitation.created', 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(eventsOfVendor(ctx, vendorId, 'vendor_invitation.created')).toHaveLength(2);
    expect(emails[0]!.payload).toEqual({
      invitationId: invitation.id,
      vendorId,
      vendorName: 'zeta Inc',
      email: invitee.email,
      invitedByName: owner.email,
    });
  });

  it('names the inviter in the email by their registered name', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'eta');
    await deliver(ctx.bus, 'user.registered', {
      userId: owner.userId,
      email: owner.email,
      firstName: 'Grace',
      lastName: 'Hopper',
      companyName: 'Eta',
    });
    await published(vendorId, 'vendor.saved', 2); // the name changed what members see
    const invitation = await invited(owner, vendorId, 'new.hire@example.com');
    expect(invitation.invitedBy).toBe('Grace Hopper');
    const [email] = await published(vendorId, 'vendor_invitation.created');
    expect(email!.payload).toMatchObject({ invitedByName: 'Grace Hopper', email: 'new.hire@example.com' });
  });
});

describe('non-members and members of unverified workspaces change nothing', () => {
  it('answers 403 to a stranger for everything of a workspace, 404 for one that does not exist', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'theta');
    await ok(await call(owner, 'POST', '/api/lead-criteria', criteria));
    await ok(await call(owner, 'POST', '/api/bounties', bounties));
    // A stranger with a verified workspace of their own, and the same company name.
    const { owner: stranger } = await verifiedVendor(ctx, 'theta');
    const q = `?vendorId=${vendorId}`;
    const attempts: Array<[string, () => ReturnType<typeof call>]> = [
      ['save ICP', () => call(stranger, 'POST', `/api/lead-criteria${q}`, { industries: ['Banking'] })],
      ['save bounties', () => call(stranger, 'POST', `/api/bounties${q}`, bounties)],
      ['read ICP', () => call(stranger, 'GET', `/api/lead-criteria${q}`)],
      ['read bounties', () => call(stranger, 'GET', `/api/bounties${q}`)],
      ['change inbox', () => update(stranger, vendorId, { leadInbox: stranger.email })],
      ['rename', () => update(stranger, vendorId, { name: 'Mine' })],
      ['read', () => call(stranger, 'GET', `/api/vendors/${vendorId}`)],
      ['audit', () => call(stranger, 'GET', `/api/vendors/${vendorId}/audit`)],
      ['verify', () => call(stranger, 'POST', `/api/vendors/${vendorId}/verification`)],
      ['invite', () => invite(stranger, vendorId, { email: stranger.email })],
      ['remove', () => call(stranger, 'DELETE', `/api/vendors/${vendorId}/members/${owner.userId}`)],
    ];
    for (const [, attempt] of attempts) await expectRefused(attempt, 403, 'NOT_A_MEMBER');
    for (const id of [crypto.randomUUID(), 'nope']) {
      await expectRefused(() => call(stranger, 'GET', `/api/vendors/${id}`), 404, 'VENDOR_NOT_FOUND');
      await expectRefused(
        () => call(stranger, 'POST', `/api/lead-criteria?vendorId=${id}`, criteria),
        404,
        'VENDOR_NOT_FOUND',
      );
      await expectRefused(() => update(stranger, id, { leadInbox: stranger.email }), 404, 'VENDOR_NOT_FOUND');
    }
    // Administrators may look, but the ICP is the members' to set.
    const admin = testUser('admin', { isAdmin: true });
    expect(await ok(await call(admin, 'GET', `/api/lead-criteria${q}`))).toMatchObject(criteria);
    await expectRefused(() => call(admin, 'POST', `/api/lead-criteria${q}`, criteria), 403, 'NOT_A_MEMBER');
    expect(await ok(await call(owner, 'GET', '/api/lead-criteria'))).toMatchObject(criteria);
  });

  it('answers 403 WORKSPACE_NOT_VERIFIED to members of an unverified workspace, whatever its name', async () => {
    const { vendorId } = await verifiedVendor(ctx, 'iota');
    const claimant = testUser('claimant');
    const claim = await created(claimant, { name: 'iota Inc', website: uniqueDomain('iota') });
    const q = `?vendorId=${claim.id}`;
    await expectRefused(
      () => call(claimant, 'POST', `/api/lead-criteria${q}`, criteria),
      403,
      'WORKSPACE_NOT_VERIFIED',
    );
    await expectRefused(() => call(claimant, 'POST', `/api/bounties${q}`, bounties), 403, 'WORKSPACE_NOT_VERIFIED');
    await expectRefused(
      () => update(claimant, claim.id, { leadInbox: 'leads@example.com' }),
      403,
      'WORKSPACE_NOT_VERIFIED',
    );
    await expectRefused(
      () => call(claimant, 'POST', `/api/lead-criteria?vendorId=${vendorId}`, criteria),
      403,
      'NOT_A_MEMBER',
    );
  });
});

describe('/api/lead-criteria and /api/bounties choose the workspace', () => {
  it('answers NO_WORKSPACE without one and CHOOSE_WORKSPACE with several, unless ?vendorId says which', async () => {
    const user = testUser('multi');
    for (const url of ['/api/lead-criteria', '/api/bounties']) {
      await expectRefused(() => call(user, 'GET', url), 404, 'NO_WORKSPACE');
      await expectRefused(
        () => call(user, 'POST', url, url === '/api/bounties' ? bounties : criteria),
        404,
        'NO_WORKSPACE',
      );
    }
    const admin = testUser('admin', { isAdmin: true });
    const approved = async (name: string) => {
      const vendor = await ok<Vendor>(
        await call(admin, 'POST', '/api/admin/vendors', {
          name,
          website: uniqueDomain(name),
          approve: true,
          note: 'Known vendor',
        }),
        201,
      );
      await ok(await accept(user, (await invited(admin, vendor.id, user.email)).id));
      return vendor.id;
    };
    const one = await approved('one');
    await ok(await call(user, 'POST', '/api/lead-criteria', { industries: ['One'] }));
    const two = await approved('two');
    for (const url of ['/api/lead-criteria', '/api/bounties']) {
      await expectRefused(() => call(user, 'GET', url), 400, 'CHOOSE_WORKSPACE');
      await expectRefused(
        () => call(user, 'POST', url, url === '/api/bounties' ? bounties : criteria),
        400,
        'CHOOSE_WORKSPACE',
      );
    }
    await ok(await call(user, 'POST', `/api/lead-criteria?vendorId=${two}`, { industries: ['Two'] }));
    expect(await ok(await call(user, 'GET', `/api/lead-criteria?vendorId=${one}`))).toMatchObject({
      industries: ['One'],
    });
    expect(await ok(await call(user, 'GET', `/api/lead-criteria?vendorId=${two}`))).toMatchObject({
      industries: ['Two'],
    });
    expect((await ok<MyVendors>(await call(user, 'GET', '/api/vendors/mine'))).vendors.map((v) => v.id)).toEqual([
      one,
      two,
    ]);
    await expectRefused(() => call(user, 'GET', `/api/lead-criteria?vendor=${one}`), 400, 'VALIDATION_FAILED');
  });
});
