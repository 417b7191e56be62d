import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { EventEnvelope, EventName, MyVendors, Vendor } from '@app/contracts';
import { migrate, type EventBus } from '@app/kit';
import { eventually, freshDatabase, migrationsBefore, TEST_SECRET, testBus } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProfilesConfig } from '../src/config.ts';
import { createProfilesService, type ProfilesService } from '../src/service.ts';
import { caller, deliver, RECORDED, snapshot, testUser, type TestContext } from './helpers.ts';

/**
 * Issue 9's migration on a database that has issue 8's data: every user's lead criteria and bounties become
 * an unverified workspace they own, which they claim by verifying.
 */
const WORKSPACES = '20261124090000_vendor_workspaces';
const migrations = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

let db: Awaited<ReturnType<typeof freshDatabase>>;
let ctx: TestContext;
let before: ReturnType<typeof migrationsBefore> | undefined;
const call = caller(() => ctx);

const acme = `acme-${randomUUID().slice(0, 8)}.test`;
const bravo = `bravo-${randomUUID().slice(0, 8)}.test`;
const ana = { userId: randomUUID(), email: `ana@${acme}` };
const bo = { userId: randomUUID(), email: `bo@${bravo}` };
/** Saved bounties before user.registered ever arrived: no user copy. */
const ghost = { userId: randomUUID() };

const oldCriteria = {
  employeeCount: ['11-50'],
  industries: ['Computer Software'],
  countries: ['Germany'],
  minRevenue: '1000000',
  fundingStage: ['Seed'],
  techStack: ['HubSpot'],
  companyNotes: ['Growing sales team'],
  jobTitles: ['VP of Sales'],
  seniority: ['VP'],
  departments: ['Sales'],
  contactNotes: ['Owns the CRM budget'],
};
const oldBounties = {
  qualifiedLead: { enabled: false },
  meetingHeld: { enabled: true, type: 'flat', amount: 150 },
  opportunityCreated: { enabled: false, type: 'flat', amount: 300 },
  closedWon: { enabled: true, type: 'percentage_arr', amount: 10 },
  retentionBonus: { enabled: false },
};

/** Rows as issue 8's schema held them (lead criteria and bounties keyed by user). */
async function writeOldRows(sql: pg.Pool) {
  const users = [
    [ana.userId, ana.email, 'Acme, Inc.'],
    [bo.userId, bo.email, ''],
  ];
  for (const [id, email, company] of users)
    await sql.query('INSERT INTO profiles.users (user_id, email, company_name) VALUES ($1, $2, $3)', [
      id,
      email,
      company,
    ]);
  const c = oldCriteria;
  for (const userId of [ana.userId, bo.userId])
    await sql.query(
      `INSERT INTO profiles.lead_criteria (user_id, employee_count, industries, countries, min_revenue, funding_stage,
         tech_stack, company_notes, job_titles, seniority, departments, contact_notes, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '2026-01-02T03:04:05Z', '2026-02-03T04:05:06Z')`,
      [
        userId,
        c.employeeCount,
        c.industries,
        c.countries,
        c.minRevenue,
        c.fundingStage,
        c.techStack,
        c.companyNotes,
        c.jobTitles,
        c.seniority,
        c.departments,
        c.contactNotes,
      ],
    );
  for (const userId of [ana.userId, ghost.userId])
    await sql.query(
      `INSERT INTO profiles.bounties (user_id, bounties, created_at, updated_at)
       VALUES ($1, $2, '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z')`,
      [userId, JSON.stringify(oldBounties)],
    );
}

beforeAll(async () => {
  db = await freshDatabase();
  // The database as issue 8 left it: every migration before this one.
  before = migrationsBefore(migrations, WORKSPACES);
  expect(before.names.length).toBeGreaterThan(0);
  expect(await migrate(db.url, 'profiles', before.dir)).toEqual(before.names);
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  sql.on('error', () => {});
  await writeOldRows(sql);

  // The service applies the rest on start.
  const bus: EventBus = await testBus(db.url);
  const published: EventEnvelope[] = [];
  for (const name of RECORDED)
    await bus.subscribe({
      event: name,
      subscriber: `test-${name}`,
      handle: async (event) => void published.push(event),
    });
  const service: ProfilesService = await createProfilesService({
    config: readProfilesConfig({ DATABASE_URL: db.url, INTERNAL_SECRET: TEST_SECRET }),
    bus,
    logger: false,
  });
  await service.app.ready();
  ctx = {
    service,
    bus,
    sql,
    published,
    async close() {
      await bus.close();
      await service.close();
      await sql.end();
      await db.drop();
    },
  };
}, 60_000);

afterAll(async () => {
  await ctx?.close();
  before?.remove();
});

const rows = async (query: string, values: unknown[] = []) => (await ctx.sql.query(query, values)).rows;
const vendorOf = async (userId: string) =>
  (await rows('SELECT vendor_id::text FROM profiles.vendor_members WHERE user_id = $1', [userId]))[0]?.vendor_id as
    string | undefined;
const eventsOf = <N extends EventName>(vendorId: string, name: N, count = 1) =>
  eventually(
    () => {
      const found = ctx.published.filter(
        (e): e is EventEnvelope<N> => e.name === name && (e.payload as { vendorId: string }).vendorId === vendorId,
      );
      return found.length >= count ? found : undefined;
    },
    5000,
    `${count} ${name}`,
  );

describe('the vendor workspaces migration', () => {
  it('turns each author’s criteria and bounties into an unverified workspace they own, named after their company', async () => {
    const vendors = await rows(
      `SELECT m.user_id, v.name, v.domain, v.verified_at, v.verified_domain, v.verification_method, v.version,
              v.lead_inbox, m.role
         FROM profiles.vendors v JOIN profiles.vendor_members m ON m.vendor_id = v.id ORDER BY v.name, m.user_id`,
    );
    const expected = (userId: string, name: string) => ({
      user_id: userId,
      name,
      domain: '',
      verified_at: null,
      verified_domain: null,
      verification_method: null,
      version: 1,
      lead_inbox: '',
      role: 'owner',
    });
    expect(vendors).toEqual(
      expect.arrayContaining([
        expected(ana.userId, 'Acme, Inc.'),
        expected(bo.userId, 'My company'),
        expected(ghost.userId, 'My company'),
      ]),
    );
    expect(vendors).toHaveLength(3);

    const criteria = await rows(
      `SELECT c.vendor_id::text, c.updated_by, c.version, c.industries, c.contact_notes, c.min_revenue, c.updated_at
         FROM profiles.lead_criteria c ORDER BY c.updated_by`,
    );
    expect(criteria).toHaveLength(2);
    for (const row of criteria) {
      expect(row.vendor_id).toBe(await vendorOf(row.updated_by));
      expect(row).toMatchObject({
        version: 1,
        industries: oldCriteria.industries,
        contact_notes: oldCriteria.contactNotes,
        min_revenue: oldCriteria.minRevenue,
        updated_at: new Date('2026-02-03T04:05:06Z'),
      });
    }
    const bounties = await rows('SELECT vendor_id::text, updated_by, version, bounties FROM profiles.bounties');
    expect(bounties).toHaveLength(2);
    for (const row of bounties) {
      expect(row.vendor_id).toBe(await vendorOf(row.updated_by));
      expect(row).toMatchObject({ version: 1, bounties: oldBounties });
    }
    // The author whose user copy never arrived has one now, with no address yet.
    expect(await rows('SELECT email, email_verified FROM profiles.users WHERE user_id = $1', [ghost.userId])).toEqual([
      { email: '', email_verified: false },
    ]);
    expect(
      await rows('SELECT actor, action, note FROM profiles.vendor_audit WHERE vendor_id = $1::uuid', [
        await vendorOf(ana.userId),
      ]),
    ).toEqual([
      {
        actor: 'Referral Hub',
        action: 'created',
        note: 'Carried over from the lead criteria and bounties saved before vendor workspaces existed',
      },
    ]);
    // Carried over, unverified: nothing announced.
    expect(ctx.published).toEqual([]);
  });

  it('lets the author read them, not change them until verified, then announces them again', async () => {
    const owner = testUser('ana', { ...ana });
    const vendorId = (await vendorOf(ana.userId))!;
    expect((await call(owner, 'GET', '/api/lead-criteria')).json()).toEqual({
      ...oldCriteria,
      updatedAt: '2026-02-03T04:05:06.000Z',
    });
    expect((await call(owner, 'GET', '/api/bounties')).json()).toEqual({
      bounties: oldBounties,
      updatedAt: '2026-03-01T00:00:00.000Z',
    });
    const mine = (await call(owner, 'GET', '/api/vendors/mine')).json<MyVendors>();
    expect(mine.vendors).toMatchObject([
      { id: vendorId, name: 'Acme, Inc.', domain: '', verified: false, hasLeadCriteria: true, hasBounties: true },
    ]);

    const unchanged = await snapshot(ctx.sql);
    const refused = await call(owner, 'POST', '/api/lead-criteria', { industries: ['Banking'] });
    expect(refused.json()).toMatchObject({ code: 'WORKSPACE_NOT_VERIFIED' });
    expect(await snapshot(ctx.sql)).toEqual(unchanged);

    // Setting the website on her own verified address's domain claims the workspace.
    const claimed = await call(owner, 'PATCH', `/api/vendors/${vendorId}`, { website: acme });
    expect(claimed.json<Vendor>()).toMatchObject({ domain: acme, verified: true, verification: 'domain' });
    const [saved] = await eventsOf(vendorId, 'vendor.saved');
    expect(saved!.payload).toMatchObject({ version: 2, verified: true, companyKey: 'acme', domain: acme });
    const [criteria] = await eventsOf(vendorId, 'lead_criteria.saved');
    expect(criteria!.payload).toEqual({ vendorId, version: 1, criteria: oldCriteria });
    const [bounties] = await eventsOf(vendorId, 'bounties.saved');
    expect(bounties!.payload).toEqual({ vendorId, version: 1, bounties: oldBounties });

    const next = await call(owner, 'POST', '/api/lead-criteria', { industries: ['Banking'] });
    expect(next.statusCode, next.body).toBe(200);
    const [, second] = await eventsOf(vendorId, 'lead_criteria.saved', 2);
    expect(second!.payload).toMatchObject({ version: 2, criteria: { industries: ['Banking'] } });
  });

  it('verifies a carried-over workspace by domain only once its owner’s address is verified', async () => {
    const vendorId = (await vendorOf(bo.userId))!;
    const admin = testUser('admin', { isAdmin: true });
    // An administrator fixes the website; the owner's copied address is on it but not verified yet.
    const fixed = await call(admin, 'PATCH', `/api/vendors/${vendorId}`, { website: bravo, name: 'Bravo' });
    expect(fixed.json<Vendor>()).toMatchObject({ domain: bravo, name: 'Bravo', verified: false });
    await deliver(ctx.bus, 'user.email_verified', { userId: bo.userId, email: bo.email });
    const [criteria] = await eventsOf(vendorId, 'lead_criteria.saved');
    expect(criteria!.payload).toEqual({ vendorId, version: 1, criteria: oldCriteria });
    const saved = await eventsOf(vendorId, 'vendor.saved', 2);
    expect(saved.map((e) => [e.payload.version, e.payload.verified])).toEqual([
      [2, false],
      [3, true],
    ]);
  });

  it('lets an administrator approve the workspace of an author nobody knows, announcing its bounties', async () => {
    const vendorId = (await vendorOf(ghost.userId))!;
    const admin = testUser('admin', { isAdmin: true });
    const approved = await call(admin, 'POST', `/api/vendors/${vendorId}/approve`, { note: 'Checked by phone' });
    expect(approved.json<Vendor>()).toMatchObject({ verified: true, verification: 'admin', domain: '' });
    const [bounties] = await eventsOf(vendorId, 'bounties.saved');
    expect(bounties!.payload).toEqual({ vendorId, version: 1, bounties: oldBounties });
  });
});
