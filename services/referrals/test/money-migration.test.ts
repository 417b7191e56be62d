import { readdirSync, readFileSync } from 'node:fs';
import { freshDatabase } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The money migration on data written by the previous version: Decimal dollars become cents, each old
 * commission gets an 'earned' ledger entry (actor system, "Migrated") and a 'paid' one when it was paid out.
 */

const root = new URL('../prisma/migrations/', import.meta.url);
const migrations = readdirSync(root)
  .filter((name) => /^\d+_/.test(name))
  .sort();
const money = migrations.findIndex((name) => name.endsWith('_money'));
const sqlOf = (name: string) => readFileSync(new URL(`${name}/migration.sql`, root), 'utf8');

let db: Awaited<ReturnType<typeof freshDatabase>>;
let client: pg.Client;

beforeAll(async () => {
  db = await freshDatabase();
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('CREATE SCHEMA referrals; SET search_path = referrals');
  for (const name of migrations.slice(0, money)) await client.query(sqlOf(name));
});

afterAll(async () => {
  await client?.end();
  await db?.drop();
});

describe('the money migration', () => {
  it('converts dollars to cents and writes the ledger of existing commissions', async () => {
    await client.query(`
      INSERT INTO projects (id, product_name, company_name, company_key) VALUES ('p', 'Rocket', 'Acme', 'acme');
      INSERT INTO referrals (user_id, project_id, status, referred_first_name, referred_last_name, referred_email, referral_reason,
                             company, search_text, deal_value, vendor_id, lead_status)
      VALUES ('u1', 'p', 'became_customer', 'A', 'B', 'a@b.example', 'r', 'Acme', 'a b', 12345.67, 'v1', 'accepted'),
             ('u1', 'p', 'pending', 'C', 'D', 'c@d.example', 'r', 'Acme', 'c d', NULL, NULL, NULL);
      INSERT INTO commissions (referral_id, user_id, milestone, gross_amount, referrer_amount, platform_fee, state, earned_at, paid_out_at)
      VALUES (1, 'u1', 'qualifiedLead', 250.55, 175.39, 75.16, 'paid_out', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'),
             (1, 'u1', 'closedWon', 2469.13, 1728.39, 740.74, 'in_escrow', '2026-03-01T00:00:00Z', NULL);`);

    await client.query(sqlOf(migrations[money]!));

    const { rows: referrals } = await client.query(
      `SELECT id, deal_value_cents::text, expected_value_cents FROM referrals ORDER BY id`,
    );
    expect(referrals).toEqual([
      { id: 1, deal_value_cents: '1234567', expected_value_cents: null },
      { id: 2, deal_value_cents: null, expected_value_cents: null },
    ]);
    const { rows: commissions } = await client.query(
      `SELECT milestone, gross_cents::int, referrer_cents::int, fee_cents::int, deal_value_cents::int, vendor_id, currency
         FROM commissions ORDER BY earned_at`,
    );
    expect(commissions).toEqual([
      {
        milestone: 'qualifiedLead',
        gross_cents: 25055,
        referrer_cents: 17539,
        fee_cents: 7516,
        deal_value_cents: 1234567,
        vendor_id: 'v1',
        currency: 'USD',
      },
      {
        milestone: 'closedWon',
        gross_cents: 246913,
        referrer_cents: 172839,
        fee_cents: 74074,
        deal_value_cents: 1234567,
        vendor_id: 'v1',
        currency: 'USD',
      },
    ]);
    const { rows: entries } = await client.query(
      `SELECT c.milestone, e.kind, e.amount_cents::int, e.actor, e.reason, e.at
         FROM commission_entries e JOIN commissions c ON c.id = e.commission_id ORDER BY e.at`,
    );
    expect(entries).toEqual([
      {
        milestone: 'qualifiedLead',
        kind: 'earned',
        amount_cents: 17539,
        actor: 'system',
        reason: 'Migrated',
        at: new Date('2026-01-01T00:00:00Z'),
      },
      {
        milestone: 'qualifiedLead',
        kind: 'paid',
        amount_cents: -17539,
        actor: 'system',
        reason: 'Migrated',
        at: new Date('2026-02-01T00:00:00Z'),
      },
      {
        milestone: 'closedWon',
        kind: 'earned',
        amount_cents: 172839,
        actor: 'system',
        reason: 'Migrated',
        at: new Date('2026-03-01T00:00:00Z'),
      },
    ]);
    // From now on the rows are append-only.
    await expect(client.query(`UPDATE commissions SET gross_cents = 1`)).rejects.toThrow(/append-only/);
    await expect(client.query(`DELETE FROM commission_entries`)).rejects.toThrow(/append-only/);
  });
});
