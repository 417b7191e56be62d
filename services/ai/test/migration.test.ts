import { fileURLToPath } from 'node:url';
import { migrateService } from '@app/kit';
import { freshDatabase, migrationsBefore } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const migrations = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
let db: Awaited<ReturnType<typeof freshDatabase>>;
let sql: pg.Pool;
let before: ReturnType<typeof migrationsBefore>;

beforeAll(async () => {
  db = await freshDatabase();
  sql = new pg.Pool({ connectionString: db.url, max: 1 });
  // The read model as it was while vendors were company names.
  before = migrationsBefore(migrations, '20261123224231');
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
  before?.remove();
});

describe('the vendor ids migration', () => {
  it('drops the company-keyed criteria and bounties and keeps the programs, unlinked', async () => {
    await migrateService(db.url, 'ai', before.dir);
    await sql.query(
      `INSERT INTO ai.match_programs (id, name, description, website, reward_details, company_name, company_key, is_active, saved_at)
       VALUES ('p1', 'HubSpot Partners', 'CRM', 'https://hubspot.com', '20%', 'HubSpot, Inc.', 'hubspot', true, now())`,
    );
    await sql.query(
      `INSERT INTO ai.vendor_profiles (company_key, company_name, criteria, criteria_at)
       VALUES ('hubspot', 'HUBSPOT, INC.', '{"countries":["Germany"]}', now())`,
    );
    await migrateService(db.url, 'ai', migrations);
    const programs = await sql.query('SELECT id, vendor_id, company_name, is_active FROM ai.match_programs');
    expect(programs.rows).toEqual([{ id: 'p1', vendor_id: null, company_name: 'HubSpot, Inc.', is_active: true }]);
    const tables = await sql.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'ai' AND table_name IN ('vendor_profiles', 'match_vendors')",
    );
    expect(tables.rows).toEqual([{ table_name: 'match_vendors' }]);
    expect((await sql.query('SELECT count(*)::int AS n FROM ai.match_vendors')).rows).toEqual([{ n: 0 }]);
  });
});

describe('the known products migration', () => {
  it("clears the referrers' descriptions kept with products learnt from referrals, and keeps the products", async () => {
    const fresh = await freshDatabase();
    const pool = new pg.Pool({ connectionString: fresh.url, max: 1 });
    const earlier = migrationsBefore(migrations, '20261126110000');
    try {
      await migrateService(fresh.url, 'ai', earlier.dir);
      await pool.query(
        `INSERT INTO ai.known_products (id, key, product_name, company_name, description, website, updated_at)
         VALUES (gen_random_uuid(), 'quokkaledger|quokka', 'Quokka Ledger', 'Quokka Labs', 'Typed by one referrer.', 'https://quokka.example/', now()),
                (gen_random_uuid(), 'wombatwiki|wombat', 'Wombat Wiki', 'Wombat Co', '', null, now())`,
      );
      await migrateService(fresh.url, 'ai', migrations);
      const rows = await pool.query(
        'SELECT product_name, company_name, description, website FROM ai.known_products ORDER BY key',
      );
      expect(rows.rows).toEqual([
        {
          product_name: 'Quokka Ledger',
          company_name: 'Quokka Labs',
          description: '',
          website: 'https://quokka.example/',
        },
        { product_name: 'Wombat Wiki', company_name: 'Wombat Co', description: '', website: null },
      ]);
    } finally {
      await pool.end();
      await fresh.drop();
      earlier.remove();
    }
  });
});
