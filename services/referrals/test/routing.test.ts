import { randomUUID } from 'node:crypto';
import { Referral, ReferralFit, ReferralList, type EventPayload } from '@app/contracts';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counts,
  deliver,
  referralInput,
  saveCriteria,
  saveVendor,
  startReferrals,
  testUser,
  type TestContext,
  type TestUser,
  type TestVendor,
} from './helpers.ts';

/**
 * Routing at submission against the real service: a referral goes to a VERIFIED vendor workspace found by
 * the product's website, a program linked to the vendor, or the company name (a hint); the client is
 * checked against the vendor's ICP first.
 */
let ctx: TestContext;
const app = () => ctx.service.app;

const owner = testUser('owner');
const member = testUser('member');
let acme: TestVendor;

const create = (user: TestUser, overrides: Record<string, unknown> = {}) =>
  app().inject({ method: 'POST', url: '/api/referrals', headers: user.headers, payload: referralInput(overrides) });

async function created(user: TestUser, overrides: Record<string, unknown> = {}): Promise<Referral> {
  const response = await create(user, overrides);
  expect(response.statusCode, response.body).toBe(201);
  return Referral.parse(response.json());
}

async function fitOf(user: TestUser, payload: Record<string, unknown>): Promise<ReferralFit> {
  const response = await app().inject({
    method: 'POST',
    url: '/api/referrals/fit',
    headers: user.headers,
    payload,
  });
  expect(response.statusCode, response.body).toBe(200);
  return ReferralFit.parse(response.json());
}

const published = <N extends 'lead.created' | 'referral.created' | 'referral.intro_email_requested'>(
  name: N,
  referralId: number,
) =>
  eventually(
    () => ctx.published.find((e) => e.name === name && (e.payload as { referralId: number }).referralId === referralId),
    5000,
    `${name} of ${referralId}`,
  ).then((event) => event.payload as EventPayload<N>);

const fittingClient = { name: 'Globex GmbH', size: '51-200', country: 'Germany', industry: 'Computer Software' };

beforeAll(async () => {
  ctx = await startReferrals();
  acme = await saveVendor(ctx, { name: 'Acme Analytics', members: [owner, member] });
  // The lead inbox is also a member's address (another case): it is emailed once.
  acme = await saveVendor(ctx, { ...acme, leadInbox: member.email.toUpperCase(), version: 2 });
  await saveCriteria(ctx, acme.vendorId, {
    countries: ['Germany', 'France'],
    employeeCount: ['51-200', '201-500'],
    industries: ['Software'],
  });
});

afterAll(async () => {
  await ctx?.close();
});

describe('routing a referral to a verified vendor', () => {
  it("routes by the product website's domain (any subdomain, scheme or path), with the fit, the vendor's name and lead.created", async () => {
    const referrer = testUser('referrer');
    await deliver(ctx, 'user.registered', {
      userId: referrer.userId,
      email: referrer.email,
      firstName: 'Rita',
      lastName: 'Referrer',
      companyName: 'Referrers Inc',
    });
    const referral = await created(referrer, {
      product: 'Acme Insights',
      company: 'ACME, Inc.',
      website: `https://www.app.${acme.domain}/pricing`,
      client: fittingClient,
      notes: 'Ask for Hans',
    });
    expect(referral).toMatchObject({
      // One vendor, one name: the workspace's, not what the referrer typed.
      company: 'Acme Analytics',
      notes: 'Ask for Hans',
      client: { ...fittingClient, website: '' },
      lead: {
        vendorId: acme.vendorId,
        vendorName: 'Acme Analytics',
        status: 'new',
        declineReason: null,
        decidedAt: null,
      },
      fit: {
        fits: ['Serves Germany', 'Fits company size 51-200', 'Targets Software'],
        fails: [],
        unknown: [],
      },
    });
    expect(referral.timeline.map((t) => [t.actor, t.kind, t.text])).toEqual([
      ['referrer', 'submitted', 'Referral submitted'],
      ['system', 'routed', "Sent to Acme Analytics' lead inbox"],
    ]);
    expect(await published('lead.created', referral.id)).toEqual({
      referralId: referral.id,
      vendorId: acme.vendorId,
      vendorName: 'Acme Analytics',
      recipients: [member.email.toUpperCase(), owner.email],
      referrerName: 'Rita Referrer',
      clientName: 'Globex GmbH',
      productName: 'Acme Insights',
    } satisfies EventPayload<'lead.created'>);
  });

  it('routes by the website of an active program linked to a verified vendor; a name alone never routes', async () => {
    const beacon = await saveVendor(ctx, { name: 'Beacon Labs' });
    await deliver(ctx, 'program.saved', {
      programId: randomUUID(),
      name: 'Beacon CRM',
      description: 'The CRM for lighthouses.',
      website: 'https://beacon-crm.example',
      rewardDetails: '$300 per customer',
      vendorId: beacon.vendorId,
      companyName: null,
      isActive: true,
    });
    const user = testUser();
    const bySite = await created(user, {
      product: 'Beacon CRM',
      company: 'Beacon Lighthouses Ltd',
      website: 'https://beacon-crm.example/pricing',
    });
    expect(bySite.lead?.vendorId).toBe(beacon.vendorId);
    // The project's shared description is the vendor's own (its program's).
    expect(bySite.project.description).toBe('The CRM for lighthouses.');

    // Anyone can name a workspace after someone else's product (issue 9): names are never evidence.
    const byName = await created(user, { product: 'beacon crm', company: 'Beacon Labs' });
    const comet = await saveVendor(ctx, { name: 'Comet Tools' });
    const byHint = await created(user, { product: 'Comet', company: 'COMET TOOLS, Inc.' });
    expect([byName.lead, byHint.lead]).toEqual([null, null]);
    expect(byHint.company).toBe('COMET TOOLS, Inc.');
    expect((await created(user, { product: 'Comet', company: 'Comet', website: comet.domain })).lead?.vendorId).toBe(
      comet.vendorId,
    );
  });

  it('never routes to an unverified workspace (domain, program or name), nor on an ambiguous name', async () => {
    const dune = await saveVendor(ctx, { name: 'Dune Corp', verified: false });
    await deliver(ctx, 'program.saved', {
      programId: randomUUID(),
      name: 'Dune Spice',
      description: 'Unverified words.',
      website: `https://${dune.domain}`,
      rewardDetails: '$1',
      vendorId: dune.vendorId,
      companyName: 'Dune Corp',
      isActive: true,
    });
    await saveVendor(ctx, { name: 'Echo' });
    await saveVendor(ctx, { name: 'ECHO Inc.' });
    const user = testUser();
    const before = ctx.published.filter((e) => e.name === 'lead.created').length;
    for (const overrides of [
      { product: 'Dune Spice', company: 'Dune Corp', website: `https://${dune.domain}` },
      { product: 'Spice', company: 'Dune Corp' },
      { product: 'Echo Chat', company: 'Echo' },
    ]) {
      const referral = await created(user, overrides);
      expect([referral.lead, referral.fit, referral.company, referral.project.description]).toEqual([
        null,
        null,
        overrides.company,
        '',
      ]);
      expect(referral.timeline.map((t) => t.kind)).toEqual(['submitted', 'not_routed']);
    }
    expect((await fitOf(user, { product: 'Spice', company: 'Dune Corp', client: fittingClient })).vendor).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ctx.published.filter((e) => e.name === 'lead.created').length).toBe(before);
  });

  it('routes nothing to a workspace nobody would hear of it from (no member, no lead inbox), until someone joins', async () => {
    const empty = await saveVendor(ctx, { name: 'Empty Co', leadInbox: '' });
    const user = testUser();
    const before = await fitOf(user, {
      company: 'Empty Co',
      product: 'Empty CRM',
      website: empty.domain,
      client: fittingClient,
    });
    expect(before.vendor).toBeNull();
    const unrouted = await created(user, { company: 'Empty Co', website: empty.domain });
    expect(unrouted.lead).toBeNull();
    // Its first owner joins: referrals reach it from then on.
    await saveVendor(ctx, { ...empty, members: [testUser('first-owner')], version: 2 });
    expect((await created(user, { company: 'Empty Co', website: empty.domain })).lead?.vendorId).toBe(empty.vendorId);
    // A lead inbox alone is someone to tell, too.
    const inboxOnly = await saveVendor(ctx, { name: 'Inbox Only Co' });
    expect((await created(user, { company: 'Inbox Only Co', website: inboxOnly.domain })).lead?.vendorId).toBe(
      inboxOnly.vendorId,
    );
  });

  it('stops routing to a vendor once it is no longer verified, and ignores an older version', async () => {
    const fading = await saveVendor(ctx, { name: 'Fading Co' });
    const user = testUser();
    expect((await created(user, { company: 'Fading Co', website: fading.domain })).lead?.vendorId).toBe(
      fading.vendorId,
    );
    await saveVendor(ctx, { ...fading, verified: false, version: 3 });
    await saveVendor(ctx, { ...fading, verified: true, version: 2 });
    expect((await created(user, { company: 'Fading Co', website: fading.domain })).lead).toBeNull();
  });
});

describe("the create's answer", () => {
  it('is the referral as read back afterwards, routed (with bounties) or not', async () => {
    const referrer = testUser('answer');
    const delta = await saveVendor(ctx, { name: 'Delta Metrics' });
    await deliver(ctx, 'bounties.saved', {
      vendorId: delta.vendorId,
      version: 1,
      bounties: {
        qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
        meetingHeld: { enabled: false },
        opportunityCreated: { enabled: true, type: 'percentage_arr', amount: 5 },
        closedWon: { enabled: true, type: 'flat', amount: 250.55 },
        retentionBonus: { enabled: false },
      },
    });
    const routed = await create(referrer, {
      product: 'Delta Boards',
      company: 'Delta',
      website: `https://${delta.domain}/`,
      client: fittingClient,
      notes: 'Ask for Hans',
    });
    const tracked = await create(referrer, { product: 'Nowhere Tool', company: 'Nowhere Ltd', notes: '' });
    expect([routed.statusCode, tracked.statusCode]).toEqual([201, 201]);
    expect(routed.json().lead.vendorId).toBe(delta.vendorId);
    expect(Referral.parse(routed.json()).money.milestones.filter((m) => m.bountyEnabled)).toHaveLength(3);
    expect(tracked.json().lead).toBeNull();
    for (const answer of [routed, tracked]) {
      const { id } = answer.json();
      const read = await app().inject({ method: 'GET', url: `/api/referrals/${id}`, headers: referrer.headers });
      expect(read.statusCode).toBe(200);
      // Byte for byte: the same fields, values and order as the reload it replaces.
      expect(answer.body).toBe(read.body);
    }
  });
});

describe('the ICP check', () => {
  it('refuses a client that clearly fails the ICP with 422 ICP_MISMATCH and the reasons, storing nothing', async () => {
    const user = testUser();
    const before = await counts(ctx.sql);
    const response = await create(user, {
      company: 'Acme Analytics',
      website: acme.domain,
      client: { name: 'Tiny Ltda', size: '2-10', country: 'Brazil', industry: 'Software' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'ICP_MISMATCH',
      message: "This client does not match the vendor's ideal customer profile, so the referral cannot be routed.",
      details: ['Does not serve Brazil (serves Germany, France)', 'Company size 2-10 is outside 51-200, 201-500'],
    });
    expect(await counts(ctx.sql)).toEqual(before);
  });

  it('answers the fit before submitting: reasons in plain words, unknown facts never exclude, nothing stored', async () => {
    const user = testUser();
    const open = await saveVendor(ctx, { name: 'Open Doors' });
    const before = await counts(ctx.sql);
    const destination = { product: 'Acme Insights', company: '', website: acme.domain };
    expect(await fitOf(user, { ...destination, client: { name: 'Globex', country: 'France' } })).toEqual({
      vendor: { id: acme.vendorId, name: 'Acme Analytics' },
      fit: { fits: ['Serves France'], fails: [], unknown: ['Company size not given', 'Industry not given'] },
      routable: true,
    });
    expect(await fitOf(user, { ...destination, client: { name: 'Globex', industry: 'Mining' } })).toEqual({
      vendor: { id: acme.vendorId, name: 'Acme Analytics' },
      fit: {
        fits: [],
        fails: ['Industry Mining is not targeted (Software)'],
        unknown: ['Country not given', 'Company size not given'],
      },
      routable: false,
    });
    expect(await fitOf(user, { product: 'Nowhere', client: { name: 'Globex' } })).toEqual({
      vendor: null,
      fit: null,
      routable: true,
    });
    // A vendor without an ICP: routed, no fit to show.
    expect(
      await fitOf(user, { product: 'Door', company: 'Open Doors', website: open.domain, client: { name: 'Any' } }),
    ).toEqual({
      vendor: { id: open.vendorId, name: 'Open Doors' },
      fit: null,
      routable: true,
    });
    expect(await counts(ctx.sql)).toEqual(before);
  });

  it('refuses a missing or malformed client with a clear 400', async () => {
    const user = testUser();
    for (const [client, message] of [
      [undefined, 'client: Invalid input'],
      [{ name: ' ' }, "Please enter the client's organization"],
      [{ name: 'X', size: 'huge' }, 'Unknown company size'],
      [{ name: 'X', extra: 1 }, 'Unrecognized key: "extra"'],
    ] as const) {
      const response = await create(user, { client });
      expect([response.statusCode, response.json().code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(response.json().message).toContain(message);
    }
  });
});

describe("a referral's text is its author's", () => {
  it("never shows one user's description in another user's referral or draft event", async () => {
    const first = testUser('first');
    const second = testUser('second');
    const secret = 'Our private pitch: they overpay their current vendor by 40%';
    const a = await created(first, { product: 'Shared Tool', company: 'Shared Inc', description: secret });
    const b = await created(second, { product: 'Shared Tool', company: 'Shared Inc', description: '' });
    const c = await created(second, { product: 'Shared Tool', company: 'Shared Inc', description: 'My own words' });
    expect(b.projectId).toBe(a.projectId);
    expect(a.description).toBe(secret);
    for (const referral of [b, c]) {
      const response = await app().inject({
        method: 'GET',
        url: `/api/referrals/${referral.id}`,
        headers: second.headers,
      });
      expect(response.body).not.toContain('overpay');
      expect(JSON.stringify(await published('referral.created', referral.id))).not.toContain('overpay');
    }
    expect((await published('referral.created', a.id)).project.description).toBe(secret);
    expect((await published('referral.created', c.id)).project.description).toBe('My own words');
    const list = ReferralList.parse(
      (await app().inject({ method: 'GET', url: '/api/referrals?days=all', headers: second.headers })).json(),
    );
    expect(JSON.stringify(list)).not.toContain('overpay');
  });
});

describe('one vendor, one name', () => {
  it("shows the workspace's name in the company filter, and follows a rename", async () => {
    const gizmo = await saveVendor(ctx, { name: 'Gizmo' });
    const user = testUser();
    const typed = await created(user, { product: 'Gizmo One', company: 'GIZMO, Inc.', website: gizmo.domain });
    await created(user, { product: 'Gizmo Two', company: 'Gizmo', website: gizmo.domain });
    await created(user, { product: 'Other', company: 'Not A Vendor LLC' });
    const list = async (query = '') =>
      ReferralList.parse(
        (await app().inject({ method: 'GET', url: `/api/referrals?days=all${query}`, headers: user.headers })).json(),
      );
    expect((await list()).companies).toEqual(['Gizmo', 'Not A Vendor LLC']);
    await saveVendor(ctx, { ...gizmo, name: 'Gizmo Works', version: 2 });
    const renamed = await list();
    expect(renamed.companies).toEqual(['Gizmo Works', 'Not A Vendor LLC']);
    expect((await list('&company=Gizmo%20Works')).total).toBe(2);
    expect((await list('&search=gizmo%20works')).total).toBe(2);
    const referral = renamed.referrals.find((r) => r.id === typed.id)!;
    expect([referral.company, referral.lead?.vendorName]).toEqual(['Gizmo Works', 'Gizmo Works']);
  });
});

describe('the intro email of a routed referral', () => {
  it('comes from the referrer via Referral Hub, replies to them, and always copies the lead inbox', async () => {
    const referrer = testUser('intro');
    await deliver(ctx, 'user.registered', {
      userId: referrer.userId,
      email: referrer.email,
      firstName: 'Ivy',
      lastName: 'Intro',
      companyName: 'Intros Ltd',
    });
    const referral = await created(referrer, { website: acme.domain, client: fittingClient, canUseReferrerName: true });
    await deliver(ctx, 'referral.draft_generated', {
      referralId: referral.id,
      subject: 'Meet Acme',
      body: 'Grace, meet Acme.',
      recipients: { to: ['grace@navy.example'], cc: [], bcc: [] },
      source: 'template',
    });
    const draft = await app().inject({
      method: 'GET',
      url: `/api/referrals/${referral.id}/email-draft`,
      headers: referrer.headers,
    });
    expect(draft.json()).toMatchObject({
      from: 'Ivy Intro via Referral Hub',
      replyTo: referrer.email,
      alwaysCc: [acme.leadInbox],
      sendTo: { to: ['grace@navy.example'], cc: [acme.leadInbox], bcc: [] },
    });
    // The referrer removed the inbox from Cc and added someone: the server adds it back, once.
    const sent = await app().inject({
      method: 'POST',
      url: `/api/referrals/${referral.id}/send-email`,
      headers: referrer.headers,
      payload: {
        subject: 'Meet Acme',
        body: 'Grace, meet Acme.',
        recipients: { to: ['grace@navy.example'], cc: ['boss@navy.example', acme.leadInbox.toLowerCase()] },
      },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await published('referral.intro_email_requested', referral.id)).toEqual({
      referralId: referral.id,
      fromName: 'Ivy Intro via Referral Hub',
      replyTo: referrer.email,
      to: ['grace@navy.example'],
      cc: ['boss@navy.example', acme.leadInbox.toLowerCase()],
      bcc: [],
      subject: 'Meet Acme',
      body: 'Grace, meet Acme.',
    });
    const after = Referral.parse(
      (await app().inject({ method: 'GET', url: `/api/referrals/${referral.id}`, headers: referrer.headers })).json(),
    );
    expect(after.timeline.at(-1)).toMatchObject({
      actor: 'referrer',
      kind: 'intro_sent',
      text: 'Intro email sent to grace@navy.example',
    });
  });

  it("names no one when the referrer kept their name: from Referral Hub, replies to the vendor's lead inbox", async () => {
    const referrer = testUser('quiet');
    await deliver(ctx, 'user.registered', {
      userId: referrer.userId,
      email: referrer.email,
      firstName: 'Quinn',
      lastName: 'Quiet',
      companyName: 'Quiet Ltd',
    });
    const referral = await created(referrer, {
      website: acme.domain,
      client: fittingClient,
      canUseReferrerName: false,
    });
    await deliver(ctx, 'referral.draft_generated', {
      referralId: referral.id,
      subject: 'An introduction to Acme',
      body: 'Someone in your network thought Acme could help.',
      recipients: { to: ['grace@navy.example'], cc: [], bcc: [referrer.email] },
      source: 'template',
    });
    const draft = await app().inject({
      method: 'GET',
      url: `/api/referrals/${referral.id}/email-draft`,
      headers: referrer.headers,
    });
    expect(draft.json()).toMatchObject({
      from: 'Referral Hub',
      replyTo: acme.leadInbox,
      alwaysCc: [acme.leadInbox],
      sendTo: { to: ['grace@navy.example'], cc: [acme.leadInbox], bcc: [referrer.email] },
    });
    const sent = await app().inject({
      method: 'POST',
      url: `/api/referrals/${referral.id}/send-email`,
      headers: referrer.headers,
      payload: {
        subject: 'An introduction to Acme',
        body: 'Someone in your network thought Acme could help.',
        recipients: { to: ['grace@navy.example'], bcc: [referrer.email] },
      },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await published('referral.intro_email_requested', referral.id)).toMatchObject({
      fromName: 'Referral Hub',
      replyTo: acme.leadInbox,
      cc: [acme.leadInbox],
      bcc: [referrer.email],
    });
  });
});
