import {
  BOUNTY_MESSAGES,
  DEFAULT_BOUNTIES,
  SavedBounties,
  ERRORS,
  SavedLeadCriteria,
  type ErrorCode,
  type EventEnvelope,
} from '@app/contracts';
import { identitySigner } from '@app/kit';
import { eventually, TEST_SECRET } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userProfile } from '../src/subscribers/user-profile.ts';
import {
  deliver,
  eventsOfVendor,
  snapshot,
  startProfiles,
  testUser,
  verifiedVendor,
  type TestContext,
  type TestUser,
} from './helpers.ts';

let ctx: TestContext;
const app = () => ctx.service.app;

type Method = 'GET' | 'POST';
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  app().inject({
    method,
    url,
    headers: user.headers,
    payload: payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

const saveCriteria = (user: TestUser, payload: unknown) => call(user, 'POST', '/api/lead-criteria', payload);
const saveBounties = (user: TestUser, payload: unknown) => call(user, 'POST', '/api/bounties', payload);

const fullCriteria = {
  employeeCount: ['11-50', '51-200'],
  industries: ['Computer Software', 'Fintech (custom)'],
  countries: ['United States', 'Germany'],
  minRevenue: '1000000',
  fundingStage: ['Seed', 'Series A'],
  techStack: ['Salesforce', 'HubSpot'],
  companyNotes: ['Fast-growing sales team'],
  jobTitles: ['Chief Revenue Officer', 'VP of Sales'],
  seniority: ['C-suite', 'VP'],
  departments: ['Sales', 'Marketing'],
  contactNotes: ['Owns the CRM budget'],
};

const bounties = (overrides: Record<string, unknown> = {}) => ({
  qualifiedLead: { enabled: false },
  meetingHeld: { enabled: true, type: 'flat', amount: 100 },
  opportunityCreated: { enabled: false, type: 'flat', amount: 250 },
  closedWon: { enabled: true, type: 'percentage_arr', amount: 10 },
  retentionBonus: { enabled: true, type: 'percentage_mrr', amount: 5, months: 12 },
  ...overrides,
});

/** A user who owns a verified workspace: the one place lead criteria and bounties can be saved. */
const vendorUser = async (name = 'vendor') => {
  const { owner, vendorId } = await verifiedVendor(ctx, name);
  return Object.assign(owner, { vendorId });
};

/** Waits for the relay, then answers the events published for a workspace. */
async function eventsOf(vendorId: string, name: string, count = 1): Promise<EventEnvelope[]> {
  return eventually(
    () => {
      const found = ctx.published.filter(
        (e) => e.name === name && (e.payload as { vendorId: string }).vendorId === vendorId,
      );
      return found.length >= count ? found : undefined;
    },
    5000,
    `${count} ${name} event(s)`,
  );
}

/** Bad input: the status and message, and every table exactly as before. */
async function expectRejected(send: () => ReturnType<typeof call>, status: number, message: string | RegExp) {
  const before = await snapshot(ctx.sql);
  const response = await send();
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<{ message: string; code: ErrorCode }>();
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
  expect(ERRORS[body.code].status, `code ${body.code}`).toBe(status);
  expect(await snapshot(ctx.sql)).toEqual(before);
}

beforeAll(async () => {
  ctx = await startProfiles();
});

afterAll(async () => {
  await ctx?.close();
});

describe('authentication and verification', () => {
  const routes = [
    ['GET', '/api/lead-criteria'],
    ['POST', '/api/lead-criteria'],
    ['GET', '/api/bounties'],
    ['POST', '/api/bounties'],
  ] as const;
  const identity = { userId: 'u', sessionId: 's', email: 'a@b.co', isAdmin: false, emailVerified: true };

  it.each(routes)(
    '%s %s answers 401 without an identity, and with a forged or expired one, changing nothing',
    async (method, url) => {
      const forged = identitySigner('another-secret-that-is-long-enough-000000').sign(identity, 60);
      const expired = identitySigner(TEST_SECRET).sign(identity, 60, Date.now() - 3600_000);
      for (const headers of [{}, { 'x-identity': forged }, { 'x-identity': expired }]) {
        const before = await snapshot(ctx.sql);
        const payload = url === '/api/bounties' ? JSON.stringify(bounties()) : JSON.stringify(fullCriteria);
        const response = await app().inject({
          method,
          url,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: method === 'GET' ? undefined : payload,
        });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
        expect(await snapshot(ctx.sql)).toEqual(before);
      }
    },
  );

  it('refuses saving for an unverified email with 403, even with a bad body, and still lets it read', async () => {
    const unverified = testUser('unverified', { emailVerified: false });
    const message = ERRORS.EMAIL_NOT_VERIFIED.message;
    expect(message).toBe('Email Verification Required – Please verify your email address before proceeding.');
    await expectRejected(() => saveCriteria(unverified, fullCriteria), 403, message);
    await expectRejected(() => saveBounties(unverified, bounties()), 403, message);
    await expectRejected(() => saveCriteria(unverified, { nonsense: true }), 403, message);
    await expectRejected(() => saveBounties(unverified, '{not json'), 400, 'Malformed JSON body');
    // Reading is allowed; this user has no workspace to read from.
    expect((await call(unverified, 'GET', '/api/lead-criteria')).json()).toMatchObject({ code: 'NO_WORKSPACE' });
    expect((await call(unverified, 'GET', '/api/bounties')).json()).toMatchObject({ code: 'NO_WORKSPACE' });
  });
});

describe('lead criteria', () => {
  it('answers 404 before anything is saved', async () => {
    const response = await call(await vendorUser(), 'GET', '/api/lead-criteria');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No lead criteria saved yet', code: 'LEAD_CRITERIA_NOT_FOUND' });
  });

  it('saves and reads back the eleven fields, replaces them on a second save, and keeps workspaces apart', async () => {
    const vendor = await vendorUser('vendor');
    const other = await vendorUser('other');
    const first = await saveCriteria(vendor, fullCriteria);
    expect(first.statusCode, first.body).toBe(200);
    const saved = SavedLeadCriteria.parse(first.json());
    expect(saved).toEqual({ ...fullCriteria, updatedAt: expect.any(String) });
    const read = await call(vendor, 'GET', '/api/lead-criteria');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(first.json());

    const second = await saveCriteria(vendor, { industries: ['Banking'] });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual({
      employeeCount: [],
      industries: ['Banking'],
      countries: [],
      minRevenue: '',
      fundingStage: [],
      techStack: [],
      companyNotes: [],
      jobTitles: [],
      seniority: [],
      departments: [],
      contactNotes: [],
      updatedAt: expect.any(String),
    });
    expect(Date.parse(second.json<{ updatedAt: string }>().updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(saved.updatedAt),
    );
    expect((await call(vendor, 'GET', '/api/lead-criteria')).json()).toEqual(second.json());
    expect((await call(other, 'GET', '/api/lead-criteria')).json()).toMatchObject({ code: 'LEAD_CRITERIA_NOT_FOUND' });
    const { rows } = await ctx.sql.query(
      'SELECT count(*)::int n, max(version) version, max(updated_by) updated_by FROM profiles.lead_criteria WHERE vendor_id = $1',
      [vendor.vendorId],
    );
    expect(rows[0]).toEqual({ n: 1, version: 2, updated_by: vendor.userId });
  });

  it('trims custom tags and drops blanks and duplicates, choices deduplicated', async () => {
    const vendor = await vendorUser();
    const response = await saveCriteria(vendor, {
      industries: ['  Space Mining ', 'Space Mining', '', '   ', 'Banking'],
      countries: ['Atlantis', ' Atlantis'],
      jobTitles: [' Head of Growth '],
      seniority: ['VP', 'VP'],
      minRevenue: ' 5000 ',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      industries: ['Space Mining', 'Banking'],
      countries: ['Atlantis'],
      jobTitles: ['Head of Growth'],
      seniority: ['VP'],
      minRevenue: '5000',
    });
  });

  it('needs at least one field: empty body, blanks only, or a revenue of 0 answer 400', async () => {
    const vendor = await vendorUser();
    for (const payload of [
      {},
      { industries: ['  ', ''] },
      { minRevenue: '0' },
      { minRevenue: '' },
      { companyNotes: [] },
    ]) {
      await expectRejected(() => saveCriteria(vendor, payload), 400, ERRORS.EMPTY_CRITERIA.message);
    }
    const ok = await saveCriteria(vendor, { minRevenue: '1' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a revenue that is not a positive whole number, changing nothing', async () => {
    const vendor = await vendorUser();
    await saveCriteria(vendor, fullCriteria);
    for (const minRevenue of ['-5', '1.5', '1,000', 'abc', '1e6']) {
      await expectRejected(
        () => saveCriteria(vendor, { ...fullCriteria, minRevenue }),
        400,
        'Revenue must be a positive number',
      );
    }
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, minRevenue: 1000 }),
      400,
      'Revenue must be a positive number',
    );
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, minRevenue: '1234567890123456' }),
      400,
      'Revenue is too large',
    );
  });

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const vendor = await vendorUser();
    await saveCriteria(vendor, fullCriteria);
    await expectRejected(() => saveCriteria(vendor, '{"industries": ['), 400, 'Malformed JSON body');
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, favouriteColour: 'blue' }),
      400,
      /favouriteColour/,
    );
    await expectRejected(() => saveCriteria(vendor, { ...fullCriteria, industries: 'Banking' }), 400, 'Must be a list');
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, industries: [42] }),
      400,
      'Industries must be text',
    );
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, employeeCount: ['a million'] }),
      400,
      'Unknown company size',
    );
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, fundingStage: ['Series Z'] }),
      400,
      'Unknown funding stage',
    );
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, seniority: ['Overlord'] }),
      400,
      'Unknown seniority',
    );
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, departments: ['Alchemy'] }),
      400,
      'Unknown department',
    );
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, jobTitles: ['x'.repeat(121)] }),
      400,
      'Entries must be at most 120 characters',
    );
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, companyNotes: ['x'.repeat(2001)] }),
      400,
      'Entries must be at most 2000 characters',
    );
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, techStack: Array.from({ length: 201 }, (_, i) => `Tool ${i}`) }),
      400,
      'At most 200 entries',
    );
    await expectRejected(() => saveCriteria(vendor, [fullCriteria]), 400, /./);
    await expectRejected(() => saveCriteria(vendor, 'null'), 400, ERRORS.EMPTY_CRITERIA.message);
    await expectRejected(
      () => saveCriteria(vendor, { ...fullCriteria, companyNotes: ['x'.repeat(1024 * 1024)] }),
      413,
      'Request body is too large',
    );
    await expectRejected(
      () =>
        app().inject({
          method: 'POST',
          url: '/api/lead-criteria',
          headers: { ...vendor.headers, 'content-type': 'text/plain' },
          payload: 'industries=Banking',
        }),
      415,
      'Unsupported content type',
    );
    expect((await call(vendor, 'GET', '/api/lead-criteria')).json()).toMatchObject(fullCriteria);
  });
});

describe('bounties', () => {
  it('answers 404 before anything is saved', async () => {
    const response = await call(await vendorUser(), 'GET', '/api/bounties');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No bounties saved yet', code: 'BOUNTIES_NOT_FOUND' });
  });

  it('saves and reads back every milestone, disabled ones with their values, and re-enabling restores them', async () => {
    const vendor = await vendorUser();
    const response = await saveBounties(vendor, bounties());
    expect(response.statusCode, response.body).toBe(200);
    const saved = SavedBounties.parse(response.json());
    expect(saved.bounties).toEqual(bounties());
    expect((await call(vendor, 'GET', '/api/bounties')).json()).toEqual(response.json());

    // The form sends the stored values back with the switch turned on.
    const again = await saveBounties(
      vendor,
      bounties({ opportunityCreated: { ...saved.bounties.opportunityCreated, enabled: true } }),
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ bounties: unknown }>().bounties).toMatchObject({
      opportunityCreated: { enabled: true, type: 'flat', amount: 250 },
    });
  });

  it('accepts the defaults once closedWon has an amount, and a percentage of exactly 100 and months 1 and 60', async () => {
    const vendor = await vendorUser();
    const ok = [
      { ...DEFAULT_BOUNTIES, closedWon: { enabled: true, type: 'flat', amount: 500 } },
      bounties({ closedWon: { enabled: true, type: 'percentage_arr', amount: 100 } }),
      bounties({ retentionBonus: { enabled: true, type: 'percentage_mrr', amount: 2.5, months: 1 } }),
      bounties({ retentionBonus: { enabled: true, type: 'percentage_mrr', amount: 2.5, months: 60 } }),
    ];
    for (const payload of ok) {
      const response = await saveBounties(vendor, payload);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ bounties: unknown }>().bounties).toEqual(payload);
    }
  });

  it('applies the rules of spec 5 with their messages, changing nothing', async () => {
    const vendor = await vendorUser();
    await saveBounties(vendor, bounties());
    const off = { enabled: false };
    const cases: Array<[unknown, string | RegExp]> = [
      [
        { qualifiedLead: off, meetingHeld: off, opportunityCreated: off, closedWon: off, retentionBonus: off },
        BOUNTY_MESSAGES.noneEnabled,
      ],
      [DEFAULT_BOUNTIES, BOUNTY_MESSAGES.missingAmount],
      [bounties({ closedWon: { enabled: true, type: 'flat', amount: 0 } }), BOUNTY_MESSAGES.missingAmount],
      [bounties({ closedWon: { enabled: true, type: 'flat' } }), BOUNTY_MESSAGES.missingAmount],
      [bounties({ closedWon: { enabled: true, type: 'percentage_arr', amount: 100.5 } }), BOUNTY_MESSAGES.percentage],
      [
        bounties({ retentionBonus: { enabled: true, type: 'percentage_mrr', amount: 101, months: 12 } }),
        BOUNTY_MESSAGES.percentage,
      ],
      [bounties({ retentionBonus: { enabled: true, type: 'percentage_mrr', amount: 5 } }), BOUNTY_MESSAGES.months],
      [
        bounties({ retentionBonus: { enabled: true, type: 'percentage_mrr', amount: 5, months: 0 } }),
        BOUNTY_MESSAGES.months,
      ],
      [
        bounties({ retentionBonus: { enabled: true, type: 'percentage_mrr', amount: 5, months: 61 } }),
        BOUNTY_MESSAGES.months,
      ],
      [
        bounties({ retentionBonus: { enabled: true, type: 'percentage_mrr', amount: 5, months: 6.5 } }),
        BOUNTY_MESSAGES.months,
      ],
      [bounties({ closedWon: { enabled: true, type: 'flat', amount: -1 } }), 'Payout amount must be positive'],
      [bounties({ closedWon: { enabled: true, type: 'flat', amount: 10_000_001 } }), 'Payout amount is too large'],
      // A flat amount is money: whole cents (a $0.001 bounty paid nothing, $50.555 a rounded amount).
      [bounties({ closedWon: { enabled: true, type: 'flat', amount: 0.001 } }), BOUNTY_MESSAGES.flatCents],
      [bounties({ closedWon: { enabled: true, amount: 50.555 } }), BOUNTY_MESSAGES.flatCents],
      [bounties({ closedWon: { enabled: true, type: 'flat', amount: '100' } }), 'Payout amount must be a number'],
      [bounties({ closedWon: { enabled: true, type: 'bitcoin', amount: 100 } }), 'Unknown payout type'],
      [bounties({ closedWon: { enabled: 'yes', type: 'flat', amount: 100 } }), 'enabled must be true or false'],
      [bounties({ closedWon: { enabled: true, type: 'flat', amount: 100, currency: 'EUR' } }), /currency/],
      [{ ...bounties(), signingBonus: { enabled: true, type: 'flat', amount: 5 } }, /signingBonus/],
      [{ closedWon: { enabled: true, type: 'flat', amount: 100 } }, /qualifiedLead/],
    ];
    for (const [payload, message] of cases) await expectRejected(() => saveBounties(vendor, payload), 400, message);
    await expectRejected(() => saveBounties(vendor, '{"closedWon":'), 400, 'Malformed JSON body');
    await expectRejected(
      () => saveBounties(vendor, { ...bounties(), note: 'x'.repeat(1024 * 1024) }),
      413,
      'Request body is too large',
    );
    expect((await call(vendor, 'GET', '/api/bounties')).json<{ bounties: unknown }>().bounties).toEqual(bounties());
    // Cents and fractional percentages are fine.
    const exact = bounties({
      qualifiedLead: { enabled: true, type: 'flat', amount: 250.55 },
      closedWon: { enabled: true, type: 'percentage_arr', amount: 0.125 },
    });
    expect((await saveBounties(vendor, exact)).statusCode).toBe(200);
  });
});

describe('concurrency', () => {
  it('keeps one row per workspace when saves race, and writes one event per save, each with its own version', async () => {
    const vendor = await vendorUser();
    const responses = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => saveCriteria(vendor, { industries: [`Industry ${i}`] })),
      ...Array.from({ length: 5 }, (_, i) =>
        saveBounties(vendor, bounties({ meetingHeld: { enabled: true, type: 'flat', amount: 100 + i } })),
      ),
    ]);
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const { rows } = await ctx.sql.query(
      `SELECT (SELECT count(*)::int FROM profiles.lead_criteria WHERE vendor_id = $1::uuid) criteria,
              (SELECT count(*)::int FROM profiles.bounties WHERE vendor_id = $1::uuid) bounties,
              (SELECT count(*)::int FROM profiles.outbox_events
                WHERE payload->>'vendorId' = $1::text AND name <> 'vendor.saved') events`,
      [vendor.vendorId],
    );
    expect(rows[0]).toEqual({ criteria: 1, bounties: 1, events: 10 });
    const versions = (events: EventEnvelope[]) =>
      events.map((e) => (e.payload as { version: number }).version).sort((a, b) => a - b);
    expect(versions(await eventsOf(vendor.vendorId, 'lead_criteria.saved', 5))).toEqual([1, 2, 3, 4, 5]);
    expect(versions(await eventsOf(vendor.vendorId, 'bounties.saved', 5))).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('events', () => {
  it('publishes lead_criteria.saved and bounties.saved once per save, with the workspace id and a growing version', async () => {
    const vendor = await vendorUser('acme');
    expect((await saveCriteria(vendor, fullCriteria)).statusCode).toBe(200);
    expect((await saveBounties(vendor, bounties())).statusCode).toBe(200);

    const [criteriaEvent] = await eventsOf(vendor.vendorId, 'lead_criteria.saved');
    expect(criteriaEvent!.payload).toEqual({ vendorId: vendor.vendorId, version: 1, criteria: fullCriteria });
    const [bountiesEvent] = await eventsOf(vendor.vendorId, 'bounties.saved');
    expect(bountiesEvent!.payload).toEqual({ vendorId: vendor.vendorId, version: 1, bounties: bounties() });

    expect((await saveCriteria(vendor, { industries: ['Banking'] })).statusCode).toBe(200);
    const [, second] = await eventsOf(vendor.vendorId, 'lead_criteria.saved', 2);
    expect(second!.payload).toMatchObject({
      vendorId: vendor.vendorId,
      version: 2,
      criteria: { industries: ['Banking'] },
    });

    await new Promise((resolve) => setTimeout(resolve, 300));
    const saves = ctx.published.filter(
      (e) => e.name !== 'vendor.saved' && (e.payload as { vendorId: string }).vendorId === vendor.vendorId,
    );
    expect(saves).toHaveLength(3);
    const { rows } = await ctx.sql.query(
      "SELECT count(*)::int n FROM profiles.outbox_events WHERE payload->>'vendorId' = $1 AND published_at IS NULL",
      [vendor.vendorId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('shows members by their address until user.registered brings their name, then announces the workspace again', async () => {
    const vendor = await vendorUser('named');
    const first = await eventually(() => eventsOfVendor(ctx, vendor.vendorId, 'vendor.saved')[0], 5000, 'vendor.saved');
    expect(first.payload).toMatchObject({
      version: 1,
      members: [{ userId: vendor.userId, email: vendor.email, name: vendor.email, role: 'owner' }],
    });
    await deliver(ctx.bus, 'user.registered', {
      userId: vendor.userId,
      email: vendor.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Acme Analytics',
    });
    const renamed = await eventually(
      () => eventsOfVendor(ctx, vendor.vendorId, 'vendor.saved').find((e) => e.payload.version === 2),
      5000,
      'vendor.saved version 2',
    );
    expect(renamed.payload).toMatchObject({
      members: [{ userId: vendor.userId, email: vendor.email, name: 'Ada Lovelace', role: 'owner' }],
    });
  });

  it('handles a redelivered user.registered once, and a later registration event updates the copy', async () => {
    const vendor = testUser();
    const payload = {
      userId: vendor.userId,
      email: vendor.email,
      firstName: 'A',
      lastName: 'B',
      companyName: 'First Co',
    };
    const id = await deliver(ctx.bus, 'user.registered', payload);
    const user = async () =>
      (await ctx.sql.query('SELECT email, company_name FROM profiles.users WHERE user_id = $1', [vendor.userId])).rows;
    await eventually(async () => (await user()).length === 1);
    await deliver(ctx.bus, 'user.registered', { ...payload, companyName: 'Replayed Co' }, id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await user()).toEqual([{ email: vendor.email, company_name: 'First Co' }]);
    const processed = await ctx.sql.query(
      'SELECT count(*)::int n FROM profiles.processed_events WHERE subscriber = $1 AND event_id = $2',
      [userProfile.id, id],
    );
    expect(processed.rows[0].n).toBe(1);

    await deliver(ctx.bus, 'user.registered', { ...payload, companyName: 'Second Co' });
    await eventually(async () => (await user())[0]?.company_name === 'Second Co');
  });
});
