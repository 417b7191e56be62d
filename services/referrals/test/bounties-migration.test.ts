import { fileURLToPath } from 'node:url';
import { databaseBefore } from '@app/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The terms at referral (20261205000000_bounties_at_referral) on data written by the previous version: each
 * referral routed to a verified workspace keeps that workspace's bounties of the migration's moment (the best
 * known of what it was told); the others keep none.
 */

const migrations = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
let db: Awaited<ReturnType<typeof databaseBefore>>;
let client: pg.Client;

beforeAll(async () => {
  db = await databaseBefore(migrations, 'referrals', '20261205000000');
  client = db.client;
});

afterAll(async () => {
  await db?.drop();
});

describe('the terms at referral migration', () => {
  it("keeps today's bounties of a verified workspace on its referrals, none on the others", async () => {
    const paid = { closedWon: { enabled: true, type: 'flat', amount: 500 } };
    const json = `'${JSON.stringify(paid)}'::jsonb`;
    await client.query(
      `INSERT INTO projects (id, product_name, company_name, company_key) VALUES ('p', 'Rocket', 'Acme', 'acme');
       INSERT INTO vendors (id, version, name, domain, company_key, lead_inbox, verified, members)
       VALUES ('verified', 1, 'Acme', 'acme.example', 'acme', '', true, '[]'),
              ('unverified', 1, 'Acme', 'acme.example', 'acme', '', false, '[]'),
              ('no-bounties', 1, 'Acme', 'acme.example', 'acme', '', true, '[]');
       INSERT INTO vendor_bounties (vendor_id, version, bounties)
       VALUES ('verified', 3, ${json}), ('unverified', 1, ${json});
       INSERT INTO referrals (user_id, project_id, status, referred_first_name, referred_last_name, referred_email,
                              referral_reason, company, search_text, vendor_id, lead_status)
       VALUES ('u', 'p', 'pending', 'A', 'B', 'a@b.example', 'r', 'Acme', 'a', 'verified', 'new'),
              ('u', 'p', 'pending', 'A', 'B', 'a@b.example', 'r', 'Acme', 'a', 'unverified', 'new'),
              ('u', 'p', 'pending', 'A', 'B', 'a@b.example', 'r', 'Acme', 'a', 'no-bounties', 'new'),
              ('u', 'p', 'pending', 'A', 'B', 'a@b.example', 'r', 'Acme', 'a', NULL, NULL);`,
    );

    await db.migrateAll();

    const { rows } = await client.query(`SELECT vendor_id, bounties_at_referral FROM referrals ORDER BY id`);
    expect(rows).toEqual([
      { vendor_id: 'verified', bounties_at_referral: paid },
      { vendor_id: 'unverified', bounties_at_referral: null },
      { vendor_id: 'no-bounties', bounties_at_referral: null },
      { vendor_id: null, bounties_at_referral: null },
    ]);
  });
});
