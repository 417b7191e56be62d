import { ERRORS, Referral, ReferralList, REFERRAL_MESSAGES, type ErrorCode, type EventPayload } from '@app/contracts';
import { identitySigner } from '@app/kit';
import { eventually, TEST_SECRET } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counts,
  deliver,
  saveVendor,
  referralInput,
  startReferrals,
  testUser,
  websiteOf,
  type TestContext,
  type TestUser,
} from './helpers.ts';

let ctx: TestContext;
const app = () => ctx.service.app;

const create = (user: TestUser, overrides: Record<string, unknown> = {}) =>
  app().inject({ method: 'POST', url: '/api/referrals', headers: user.headers, payload: referralInput(overrides) });

async function created(user: TestUser, overrides: Record<string, unknown> = {}): Promise<Referral> {
  const response = await create(user, overrides);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const list = async (user: TestUser, query = '') => {
  const response = await app().inject({ method: 'GET', url: `/api/referrals?${query}`, headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return ReferralList.parse(response.json());
};

beforeAll(async () => {
  ctx = await startReferrals();
});

afterAll(async () => {
  await ctx?.close();
});

describe('authentication and ownership', () => {
  const routes = [
    ['POST', '/api/referrals'],
    ['GET', '/api/referrals'],
    ['GET', '/api/referrals/1'],
    ['GET', '/api/referrals/1/email-draft'],
    ['GET', '/api/referrals/1/email-draft?checkOnly=true'],
    ['POST', '/api/referrals/1/send-email'],
    ['PUT', '/api/referrals/1/status'],
    ['GET', '/api/products/p/referral-program'],
    ['POST', '/api/referrals/1/automate'],
  ] as const;

  it.each(routes)('%s %s answers 401 without an identity, and with a forged or expired one', async (method, url) => {
    const forged = identitySigner('another-secret-that-is-long-enough-000000').sign(
      { userId: 'u', sessionId: 's', email: 'a@b.co', isAdmin: false, emailVerified: true },
      60,
    );
    const expired = identitySigner(TEST_SECRET).sign(
      { userId: 'u', sessionId: 's', email: 'a@b.co', isAdmin: false, emailVerified: true },
      60,
      Date.now() - 3600_000,
    );
    for (const headers of [{}, { 'x-identity': forged }, { 'x-identity': expired }]) {
      const response = await app().inject({
        method,
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: method === 'GET' ? undefined : '{}',
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
    }
  });

  it("answers 403 for another user's referral on every route, 404 for none, 400 for a non-numeric id, changing nothing", async () => {
    const owner = testUser('owner');
    const stranger = testUser('stranger');
    const { id } = await created(owner);
    const perRoute = (referralId: string) =>
      [
        { method: 'GET', url: `/api/referrals/${referralId}` },
        { method: 'GET', url: `/api/referrals/${referralId}/email-draft` },
        { method: 'GET', url: `/api/referrals/${referralId}/email-draft?checkOnly=true` },
        {
          method: 'POST',
          url: `/api/referrals/${referralId}/send-email`,
          payload: { subject: 'S', body: 'B', recipients: { to: ['x@example.com'] } },
        },
        { method: 'PUT', url: `/api/referrals/${referralId}/status`, payload: { status: 'became_customer' } },
        { method: 'POST', url: `/api/referrals/${referralId}/automate`, payload: { dryRun: true } },
      ] as const;
    const before = await counts(ctx.sql);
    const forbidden = { message: REFERRAL_MESSAGES.notAuthorized, code: 'REFERRAL_FORBIDDEN' };
    const notFound = { message: REFERRAL_MESSAGES.notFound, code: 'REFERRAL_NOT_FOUND' };
    const invalid = { message: REFERRAL_MESSAGES.invalidId, code: 'VALIDATION_FAILED', field: 'id' };
    const expectations: Array<[string, number, object]> = [
      [String(id), 403, forbidden],
      ['999999', 404, notFound],
      ['99999999999', 404, notFound],
      ['abc', 400, invalid],
      ['1.5', 400, invalid],
      ['-1', 400, invalid],
      ['1e3', 400, invalid],
      ['9'.repeat(40), 400, invalid],
    ];
    for (const [referralId, status, body] of expectations) {
      for (const route of perRoute(referralId)) {
        const response = await app().inject({ ...route, headers: stranger.headers });
        expect([route.url, response.statusCode, response.json()]).toEqual([route.url, status, body]);
      }
    }
    expect(await counts(ctx.sql)).toEqual(before);
    expect(
      (await app().inject({ method: 'GET', url: `/api/referrals/${id}`, headers: owner.headers })).json().status,
    ).toBe('pending');
  });

  it("ignores another user's identity fields in the body (no userId field is accepted)", async () => {
    const user = testUser();
    const response = await create(user, { userId: testUser().userId });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Unrecognized key: "userId"', code: 'VALIDATION_FAILED' });
  });
});

describe('POST /api/referrals', () => {
  it('creates the referral with its project, initial history and a referral.created event carrying the referrer', async () => {
    const user = testUser('ada');
    await deliver(ctx, 'user.registered', {
      userId: user.userId,
      email: user.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Analytical Ltd',
    });
    const response = await create(user);
    expect(response.statusCode).toBe(201);
    const referral = Referral.parse(response.json());
    expect(referral).toMatchObject({
      status: 'pending',
      referredFirstName: 'Grace',
      referredLastName: 'Hopper',
      referredName: 'Grace Hopper',
      referredEmail: 'grace@navy.example',
      referredPhone: null,
      referralReason: 'Needs a compiler for her team',
      isReferralAware: true,
      canUseReferrerName: false,
      notes: null,
      company: 'Salesforce, Inc.',
      emailDraft: null,
      fromClay: false,
      emailSentAt: null,
      // The referrer's description is the referral's own; the shared project only takes the vendor's.
      description: 'Team chat',
      project: {
        productName: 'Slack',
        companyName: 'Salesforce, Inc.',
        description: '',
        website: null,
        referralProgram: null,
      },
      client: { name: 'US Navy', website: '', country: '', industry: '' },
      // Salesforce is not on the platform: tracked as before, routed nowhere.
      lead: null,
      fit: null,
    });
    expect(referral.projectId).toMatch(/^salesforce-slack-[0-9a-f]{8}$/);
    expect(referral.history).toEqual([{ from: null, to: 'pending', at: referral.createdAt }]);
    expect(referral.timeline.map((t) => [t.actor, t.kind, t.text])).toEqual([
      ['referrer', 'submitted', 'Referral submitted'],
      [
        'system',
        'not_routed',
        'Salesforce, Inc. is not on Referral Hub yet: nothing was sent to the vendor, the referral is tracked here',
      ],
    ]);

    const event = await eventually(
      () =>
        ctx.published.find(
          (e) => e.name === 'referral.created' && (e.payload as { referralId: number }).referralId === referral.id,
        ),
      5000,
      'referral.created',
    );
    expect(event.payload).toEqual({
      referralId: referral.id,
      referrer: {
        userId: user.userId,
        email: user.email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        companyName: 'Analytical Ltd',
      },
      referred: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example' },
      reason: 'Needs a compiler for her team',
      isReferralAware: true,
      canUseReferrerName: false,
      project: {
        id: referral.projectId,
        productName: 'Slack',
        companyName: 'Salesforce, Inc.',
        description: 'Team chat',
        website: null,
      },
    } satisfies EventPayload<'referral.created'>);
  });

  it('works before user.registered arrived: a minimal referrer from the identity, completed by the event later', async () => {
    const user = testUser('early');
    const referral = await created(user);
    const event = await eventually(
      () =>
        ctx.published.find(
          (e) => e.name === 'referral.created' && (e.payload as { referralId: number }).referralId === referral.id,
        ),
      5000,
      'event',
    );
    expect((event.payload as EventPayload<'referral.created'>).referrer).toEqual({
      userId: user.userId,
      email: user.email,
      firstName: '',
      lastName: '',
      companyName: '',
    });
    await deliver(ctx, 'user.registered', {
      userId: user.userId,
      email: user.email,
      firstName: 'Late',
      lastName: 'Comer',
      companyName: 'Later GmbH',
    });
    const { rows } = await ctx.sql.query(
      'SELECT first_name, company_name, company_key FROM referrals.referrers WHERE user_id = $1',
      [user.userId],
    );
    expect(rows).toEqual([{ first_name: 'Late', company_name: 'Later GmbH', company_key: 'later' }]);
  });

  it('shares one project per product and company, whatever the case, spacing or legal suffix', async () => {
    const user = testUser();
    const a = await created(user, { product: 'Notion', company: 'Notion Labs Inc', description: '' });
    const b = await created(user, {
      product: ' notion ',
      company: 'NOTION  LABS, Inc.',
      description: 'Docs and wikis',
    });
    const c = await created(user, { product: 'Notion', company: 'Other Labs' });
    expect(b.projectId).toBe(a.projectId);
    expect(c.projectId).not.toBe(a.projectId);
    // The first spelling names the project; a referrer's description stays in their own referral.
    expect(b.project).toMatchObject({ productName: 'Notion', companyName: 'Notion Labs Inc', description: '' });
    expect([a.description, b.description, c.description]).toEqual(['', 'Docs and wikis', 'Team chat']);
    const { rows } = await ctx.sql.query('SELECT count(*)::int n FROM referrals.projects WHERE id = $1', [a.projectId]);
    expect(rows[0].n).toBe(1);
  });

  it('applies the form defaults (booleans false, productId auto-generated, description empty)', async () => {
    const referral = await created(testUser(), {
      isReferralAware: undefined,
      canUseReferrerName: undefined,
      productId: undefined,
      description: undefined,
    });
    expect(referral).toMatchObject({
      isReferralAware: false,
      canUseReferrerName: false,
      company: 'Salesforce, Inc.',
      description: '',
      notes: null,
      project: { companyName: 'Salesforce, Inc.', description: '' },
    });
  });

  it.each([
    ['malformed JSON', '{"referredFirstName":', 'Malformed JSON body'],
    ['an empty body', '', 'Request body is empty'],
    ['a JSON array', '[]', 'Invalid input'],
    ['a wrong type', { referredFirstName: 42 }, 'First name is required'],
    ['a wrong boolean type', { isReferralAware: 'yes' }, 'isReferralAware: Invalid input'],
    ['a missing first name', { referredFirstName: undefined }, 'First name is required'],
    ['a blank last name', { referredLastName: '   ' }, 'Last name is required'],
    ['an invalid email', { referredEmail: 'not-an-email' }, 'Invalid email address'],
    ['a missing reason', { referralReason: '' }, 'Please explain why this referral is a good fit'],
    ['a blank productId', { productId: ' ' }, 'Product selection is required'],
    ['a missing product', { product: undefined }, 'Product selection is required'],
    ['a blank product', { product: '  ' }, 'Product selection is required'],
    ['a "Not found" product (issue 12)', { product: 'Not found' }, 'Search found no product to refer'],
    ['a "Not found" company (issue 12)', { company: 'not found' }, 'Search found no product to refer'],
    ['a missing company (issue 12)', { company: undefined }, 'Company is required'],
    ['an empty company (issue 12)', { company: '' }, 'Company is required'],
    ['an unknown field', { status: 'became_customer' }, 'Unrecognized key: "status"'],
    ['an overlong first name', { referredFirstName: 'x'.repeat(101) }, 'Must be at most 100 characters'],
    ['an overlong reason', { referralReason: 'x'.repeat(5001) }, 'Must be at most 5000 characters'],
    ['an overlong company', { company: 'x'.repeat(201) }, 'Must be at most 200 characters'],
    ['an overlong description', { description: 'x'.repeat(2001) }, 'Must be at most 2000 characters'],
  ])('answers %s with a clear 400 and changes nothing', async (_case, input, message) => {
    const user = testUser();
    const before = await counts(ctx.sql);
    const payload = typeof input === 'string' ? input : JSON.stringify(referralInput(input));
    const response = await app().inject({ method: 'POST', url: '/api/referrals', headers: user.headers, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(ERRORS[response.json().code as ErrorCode].status).toBe(400);
    expect(await counts(ctx.sql)).toEqual(before);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const user = testUser();
    const response = await app().inject({
      method: 'POST',
      url: '/api/referrals',
      headers: { ...user.headers, 'content-type': 'text/plain' },
      payload: 'hi',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('GET /api/referrals/:id', () => {
  it('answers the referral with its project, draft and history', async () => {
    const user = testUser();
    const referral = await created(user);
    const response = await app().inject({ method: 'GET', url: `/api/referrals/${referral.id}`, headers: user.headers });
    expect(response.statusCode).toBe(200);
    expect(Referral.parse(response.json())).toEqual(referral);
  });
});

describe('GET /api/referrals (Tee ups dashboard)', () => {
  const alice = testUser('alice');
  const bob = testUser('bob');
  const ids: Record<string, number> = {};
  const DAY = 24 * 3600_000;

  beforeAll(async () => {
    await deliver(ctx, 'user.registered', {
      userId: alice.userId,
      email: alice.email,
      firstName: 'Alice',
      lastName: 'A',
      companyName: 'Wonder Software Ltd',
    });
    await deliver(ctx, 'user.registered', {
      userId: bob.userId,
      email: bob.email,
      firstName: 'Bob',
      lastName: 'B',
      companyName: 'Builder Co',
    });
    const rows: Array<[string, Record<string, unknown>, number]> = [
      [
        'fresh',
        {
          referredFirstName: 'Zelda',
          referredLastName: 'Fitzgerald',
          referredEmail: 'zelda@jazz.example',
          company: 'HubSpot',
          product: 'HubSpot CRM',
          referralReason: 'Wants a CRM',
        },
        0,
      ],
      [
        'week',
        {
          referredFirstName: 'Yuri',
          referredLastName: 'Gagarin',
          referredEmail: 'yuri@space.example',
          company: 'Atlassian',
          product: 'Jira',
          referralReason: 'Tracks 100% of rockets_',
        },
        7 * DAY - 60_000,
      ],
      [
        'month',
        {
          referredFirstName: 'Xena',
          referredLastName: 'Warrior',
          referredEmail: 'xena@myth.example',
          company: 'Atlassian',
          product: 'Confluence',
          referralReason: 'Needs docs',
        },
        7 * DAY + 60_000,
      ],
      [
        'quarter',
        {
          referredFirstName: 'Wanda',
          referredLastName: 'Maximoff',
          referredEmail: 'wanda@hex.example',
          company: 'Stripe',
          product: 'Billing',
          referralReason: 'Subscriptions',
        },
        31 * DAY,
      ],
      [
        'old',
        {
          referredFirstName: 'Victor',
          referredLastName: 'Hugo',
          referredEmail: 'victor@paris.example',
          company: 'Stripe',
          product: 'Atlas',
          referralReason: 'Incorporation',
        },
        90 * DAY + 60_000,
      ],
    ];
    for (const [key, input, age] of rows) {
      const referral = await created(alice, input);
      ids[key] = referral.id;
      await ctx.sql.query(
        "UPDATE referrals.referrals SET created_at = now() - $2 * interval '1 millisecond' WHERE id = $1",
        [referral.id, age],
      );
    }
    for (const [key, status] of [
      ['week', 'became_customer'],
      ['quarter', 'declined'],
      ['month', 'intro_made'],
    ] as const) {
      const response = await app().inject({
        method: 'PUT',
        url: `/api/referrals/${ids[key]}/status`,
        headers: alice.headers,
        payload: { status },
      });
      expect(response.statusCode).toBe(200);
    }
    // Alice is a member of her company's verified workspace. Bob refers two people to it (another spelling
    // of its name), and one elsewhere; a referral to another Wonder (not routed) is nobody's to receive.
    await saveVendor(ctx, { name: 'Wonder', members: [alice] });
    const wonder = websiteOf('Wonder');
    await created(bob, { product: 'Wonderland', company: 'WONDER, Inc.', website: wonder });
    await created(bob, { product: 'Looking Glass', company: 'Wonder', website: wonder });
    await created(bob, { product: 'Other', company: 'Elsewhere' });
    await created(testUser(), { product: 'Wonder Shop', company: 'Wonder', website: 'https://wonder-shop.example/' });
    // Alice's own referral to her own workspace is not "received".
    ids.own = (
      await created(alice, {
        product: 'Wonderland',
        company: 'Wonder',
        website: wonder,
        referredFirstName: 'Own',
        referredLastName: 'Company',
        referredEmail: 'own@x.example',
      })
    ).id;
  });

  const idsOf = (result: ReferralList) => result.referrals.map((r) => r.id);

  it('defaults to the last 90 days, newest first, with figures over all the referrals', async () => {
    const result = await list(alice);
    expect(idsOf(result)).toEqual([ids.own, ids.fresh, ids.week, ids.month, ids.quarter]);
    expect(result).toMatchObject({ total: 5, page: 1, pageSize: 25 });
    expect(result.summary).toEqual({ total: 6, inFlight: 4, closedWon: 1, declined: 1 });
    expect(result.referrals.map((r) => r.status)).toEqual([
      'pending',
      'pending',
      'became_customer',
      'intro_made',
      'declined',
    ]);
    expect(result.companies).toEqual(['Atlassian', 'HubSpot', 'Stripe', 'Wonder']);
    expect(result.reciprocity).toEqual({ sent: 6, received: 2 });
    expect(result.referrals[0]!.history).toHaveLength(1);
    expect(result.referrals[3]!.history.map((h) => h.to)).toEqual(['pending', 'intro_made']);
  });

  it('applies the date ranges at their boundaries (created later than now minus N days)', async () => {
    expect(idsOf(await list(alice, 'days=7'))).toEqual([ids.own, ids.fresh, ids.week]);
    expect(idsOf(await list(alice, 'days=30'))).toEqual([ids.own, ids.fresh, ids.week, ids.month]);
    expect(idsOf(await list(alice, 'days=90'))).toEqual([ids.own, ids.fresh, ids.week, ids.month, ids.quarter]);
    expect((await list(alice, 'days=all')).total).toBe(6);
  });

  it.each([
    ['first name', 'zel', 'fresh'],
    ['last name', 'GAGARIN', 'week'],
    ['referred full name', 'xena warr', 'month'],
    ['email', 'hex.example', 'quarter'],
    ['company', 'hubsp', 'fresh'],
    ['referral reason', 'incorporat', 'old'],
    ['a % taken literally', '%', 'week'],
    ['an _ taken literally', '_', 'week'],
  ])('searches case-insensitively by %s', async (_field, term, key) => {
    expect(idsOf(await list(alice, `days=all&search=${encodeURIComponent(term)}`))).toEqual([ids[key]]);
  });

  it("searches the project's company name too (as first spelled), not only the company shown", async () => {
    await created(testUser(), { product: 'Mail', company: 'Proton AG' });
    const carol = testUser('carol');
    const { id, project, company } = await created(carol, { product: 'Mail', company: 'PROTON' });
    expect([project.companyName, company]).toEqual(['Proton AG', 'PROTON']);
    expect(idsOf(await list(carol, 'days=all&search=proton%20ag'))).toEqual([id]);
  });

  it('filters by stage and company, combined with search', async () => {
    expect(idsOf(await list(alice, 'days=all&status=became_customer'))).toEqual([ids.week]);
    expect(idsOf(await list(alice, 'days=all&company=Stripe'))).toEqual([ids.quarter, ids.old]);
    expect(idsOf(await list(alice, 'days=all&company=Stripe&status=declined'))).toEqual([ids.quarter]);
    expect(idsOf(await list(alice, 'days=all&status=pending'))).toEqual([ids.own, ids.fresh, ids.old]);
    expect(idsOf(await list(alice, 'days=all&company=Atlassian&search=docs'))).toEqual([ids.month]);
    const none = await list(alice, 'days=all&search=nobody-like-this');
    expect(none).toMatchObject({ referrals: [], total: 0 });
    expect(none.summary.total).toBe(6);
  });

  it('pages', async () => {
    const first = await list(alice, 'days=all&pageSize=2');
    const second = await list(alice, 'days=all&pageSize=2&page=2');
    const beyond = await list(alice, 'days=all&pageSize=2&page=9');
    expect(idsOf(first)).toEqual([ids.own, ids.fresh]);
    expect(idsOf(second)).toEqual([ids.week, ids.month]);
    expect(second).toMatchObject({ total: 6, page: 2, pageSize: 2 });
    expect(beyond).toMatchObject({ referrals: [], total: 6 });
  });

  it("shows only the user's own referrals; received counts the other side", async () => {
    const result = await list(bob, 'days=all');
    expect(result.total).toBe(3);
    expect(result.referrals.every((r) => !Object.values(ids).includes(r.id))).toBe(true);
    expect(result.reciprocity).toEqual({ sent: 3, received: 0 });
    const nobody = await list(testUser(), 'days=all');
    expect(nobody).toMatchObject({
      referrals: [],
      total: 0,
      companies: [],
      summary: { total: 0, inFlight: 0, closedWon: 0, declined: 0 },
      reciprocity: { sent: 0, received: 0 },
    });
  });

  it.each([
    ['an unknown parameter', 'sort=id', 'Unrecognized key: "sort"'],
    ['an unknown date range', 'days=5', 'days: Invalid option'],
    ['an unknown status', 'status=won', 'Unknown referral status'],
    ['page 0', 'page=0', 'Page must be a whole number from 1 to 100,000'],
    ['a non-numeric page', 'page=two', 'Page must be a whole number from 1 to 100,000'],
    ['a page in exponent notation', 'page=1e3', 'Page must be a whole number from 1 to 100,000'],
    ['a page size in hexadecimal', 'pageSize=0x10', 'Page size must be a whole number from 1 to 100'],
    ['a fractional page size', 'pageSize=5.0', 'Page size must be a whole number from 1 to 100'],
    ['an empty page size', 'pageSize=', 'Page size must be a whole number from 1 to 100'],
    ['a repeated page', 'page=1&page=2', 'Page must be a whole number from 1 to 100,000'],
    ['a page size over 100', 'pageSize=101', 'Page size must be a whole number from 1 to 100'],
    ['an overlong search', `search=${'x'.repeat(201)}`, 'Must be at most 200 characters'],
    ['a repeated parameter', 'status=pending&status=declined', 'Unknown referral status'],
  ])('refuses %s with a clear 400', async (_case, query, message) => {
    const response = await app().inject({ method: 'GET', url: `/api/referrals?${query}`, headers: alice.headers });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(response.json().code).toBe('VALIDATION_FAILED');
  });
});
