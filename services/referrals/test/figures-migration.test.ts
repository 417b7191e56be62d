import { fileURLToPath } from 'node:url';
import { databaseBefore } from '@app/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Migration 20261128000000_referral_figures on data written by the previous version: the Impact figures
 * built from the referrals and confirmations already there, then kept by the triggers.
 */

const migrations = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
let db: Awaited<ReturnType<typeof databaseBefore>>;
let client: pg.Client;

beforeAll(async () => {
  db = await databaseBefore(migrations, 'referrals', '20261128000000');
  client = db.client;
});

afterAll(async () => {
  await db?.drop();
});

const rows = async (table: string, key: string) =>
  (await client.query(`SELECT * FROM ${table} WHERE count <> 0 ORDER BY ${key}`)).rows;
const months = () => rows('referrer_month_figures', 'user_id, month, status, furthest_stage, closed_won_month');
const pending = () => rows('referrer_pending_figures', 'user_id, vendor_id, milestone, deal_cents');

describe('the referral figures migration', () => {
  it('builds the figures of the referrals already made, and the triggers keep them', async () => {
    await client.query(`
      INSERT INTO projects (id, product_name, company_name, company_key) VALUES ('p', 'Rocket', 'Acme', 'acme'), ('q', 'Sled', 'Zed', 'zed');
      INSERT INTO vendors (id, version, name, domain, company_key, lead_inbox, verified, members)
      VALUES ('v1', 1, 'Acme', 'acme.example', 'acme', 'leads@acme.example', true, '[]');
      INSERT INTO referrals (id, user_id, project_id, status, furthest_stage, referred_first_name, referred_last_name, referred_email,
                             referral_reason, company, search_text, vendor_id, lead_status, created_at, closed_won_at, deal_value_cents, expected_value_cents)
      VALUES (1, 'u1', 'p', 'pending', 0, 'A', 'B', 'a@b.example', 'r', 'Acme', 'a', 'v1', 'new', '2026-01-10T12:00:00Z', NULL, NULL, NULL),
             (2, 'u1', 'p', 'became_customer', 4, 'A', 'B', 'a@b.example', 'r', 'Acme', 'a', 'v1', 'accepted', '2026-01-31T23:30:00Z', '2026-02-03T00:00:00Z', 500000, 400000),
             (3, 'u1', 'q', 'intro_made', 1, 'A', 'B', 'a@b.example', 'r', 'Zed', 'a', NULL, NULL, '2026-02-01T00:00:00Z', NULL, NULL, 1000),
             (4, 'u2', 'p', 'declined', 2, 'A', 'B', 'a@b.example', 'r', 'Acme', 'a', 'v1', 'new', '2026-02-02T00:00:00Z', NULL, NULL, NULL);
      INSERT INTO milestone_confirmations (referral_id, milestone, actor, actor_name) VALUES (2, 'closedWon', 'vendor', 'Acme');`);

    await db.migrateAll();

    // Months in UTC (23:30 on January 31st is January); a referral never Closed-Won has closed_won_month 1970-01-01.
    const day = (iso: string) => new Date(`${iso}T00:00:00`);
    expect(await months()).toEqual([
      {
        user_id: 'u1',
        month: day('2026-01-01'),
        status: 'pending',
        furthest_stage: 0,
        closed_won_month: day('1970-01-01'),
        count: 1,
        expected_value_cents: '0',
      },
      {
        user_id: 'u1',
        month: day('2026-01-01'),
        status: 'became_customer',
        furthest_stage: 4,
        closed_won_month: day('2026-02-01'),
        count: 1,
        expected_value_cents: '400000',
      },
      {
        user_id: 'u1',
        month: day('2026-02-01'),
        status: 'intro_made',
        furthest_stage: 1,
        closed_won_month: day('1970-01-01'),
        count: 1,
        expected_value_cents: '1000',
      },
      {
        user_id: 'u2',
        month: day('2026-02-01'),
        status: 'declined',
        furthest_stage: 2,
        closed_won_month: day('1970-01-01'),
        count: 1,
        expected_value_cents: '0',
      },
    ]);
    expect(await rows('referrer_project_figures', 'user_id, project_id, vendor_id')).toEqual([
      { user_id: 'u1', project_id: 'p', vendor_id: 'v1', count: 2, revenue_cents: '500000' },
      { user_id: 'u1', project_id: 'q', vendor_id: '', count: 1, revenue_cents: '0' },
      { user_id: 'u2', project_id: 'p', vendor_id: 'v1', count: 1, revenue_cents: '0' },
    ]);
    // Only the routed, undeclined referral past Tee-up: its three milestones not confirmed, at its actual deal value
    // (no terms at referral: its workspace has no bounties, 20261205000000).
    const referral2 = (milestone: string) => ({
      user_id: 'u1',
      vendor_id: 'v1',
      milestone,
      deal_cents: '500000',
      terms: '',
      count: 1,
    });
    expect(await pending()).toEqual([
      referral2('meetingHeld'),
      referral2('opportunityCreated'),
      referral2('qualifiedLead'),
    ]);

    // Kept from now on: a stage change, a confirmation, a lead declined.
    await client.query(`UPDATE referrals SET status = 'intro_made', furthest_stage = 1 WHERE id = 1`);
    await client.query(
      `INSERT INTO milestone_confirmations (referral_id, milestone, actor, actor_name) VALUES (2, 'qualifiedLead', 'vendor', 'Acme')`,
    );
    expect(await pending()).toEqual([
      referral2('meetingHeld'),
      referral2('opportunityCreated'),
      { user_id: 'u1', vendor_id: 'v1', milestone: 'qualifiedLead', deal_cents: '-1', terms: '', count: 1 },
    ]);
    await client.query(`UPDATE referrals SET lead_status = 'declined' WHERE id = 2`);
    expect(await pending()).toEqual([
      { user_id: 'u1', vendor_id: 'v1', milestone: 'qualifiedLead', deal_cents: '-1', terms: '', count: 1 },
    ]);
    // A deleted referral (none is, today) leaves its figures.
    await client.query(`DELETE FROM referrals WHERE id = 3`);
    expect(await rows('referrer_project_figures', 'user_id, project_id, vendor_id')).toEqual([
      { user_id: 'u1', project_id: 'p', vendor_id: 'v1', count: 2, revenue_cents: '500000' },
      { user_id: 'u2', project_id: 'p', vendor_id: 'v1', count: 1, revenue_cents: '0' },
    ]);
    expect((await months()).filter((row) => row.status === 'intro_made' && row.month.getMonth() === 1)).toEqual([]);
    expect((await months()).filter((row) => row.user_id === 'u1' && row.month.getMonth() === 0)).toMatchObject([
      { status: 'intro_made', furthest_stage: 1, count: 1 },
      { status: 'became_customer', furthest_stage: 4, count: 1 },
    ]);
  });
});
