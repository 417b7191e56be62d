import { fileURLToPath } from 'node:url';
import { databaseBefore } from '@app/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 15's migrations on data written by the previous version: the search indexes built on the existing rows,
 * and each vendor workspace's referrals counted into vendor_lead_counts (what "received" now sums; the
 * per-project counts of "received" by company name went: 20261204000000).
 */

const migrations = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
let db: Awaited<ReturnType<typeof databaseBefore>>;
let client: pg.Client;

beforeAll(async () => {
  // The schema as it was before the first of them (20261127000000_search_trigrams), applied by the service's migrator.
  db = await databaseBefore(migrations, 'referrals', '20261127000000');
  client = db.client;
});

afterAll(async () => {
  await db?.drop();
});

describe("issue 15's migrations", () => {
  it("index the search text of the referrals already made, and count each workspace's referrals", async () => {
    await client.query(`
      INSERT INTO projects (id, product_name, company_name, company_key) VALUES ('p', 'Rocket', 'Acme', 'acme'), ('q', 'Sled', 'Acme', 'acme'), ('z', 'None', 'Zed', 'zed');
      INSERT INTO referrals (user_id, project_id, status, referred_first_name, referred_last_name, referred_email, referral_reason, company, search_text)
      SELECT 'u' || (n % 3), CASE WHEN n % 4 = 0 THEN 'q' ELSE 'p' END, 'pending', 'Anna', 'B', 'a@b.example', 'r', 'Acme', 'anna b' || n
        FROM generate_series(1, 10) n;
      UPDATE referrals SET vendor_id = CASE WHEN id % 3 = 0 THEN 'v1' ELSE 'v2' END WHERE id % 2 = 0;`);

    await db.migrateAll();

    // "Received" by workspace (20261204000000): each workspace's referrals counted, the per-project counts gone.
    const { rows } = await client.query(`SELECT vendor_id, count FROM vendor_lead_counts ORDER BY vendor_id`);
    const { rows: counted } = await client.query(
      `SELECT vendor_id, count(*)::int AS count FROM referrals WHERE vendor_id IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    expect(counted.length).toBe(2);
    expect(rows).toEqual(counted);
    const { rows: gone } = await client.query(`SELECT to_regclass('project_referral_counts') AS counts`);
    expect(gone).toEqual([{ counts: null }]);
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'referrals' AND indexname LIKE 'referrals_%search%' ORDER BY 1`,
    );
    // The extensions live in the service's schema (the first of the migration's search_path).
    const { rows: extensions } = await client.query(
      `SELECT e.extname, n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname IN ('pg_trgm', 'btree_gin') ORDER BY 1`,
    );
    expect(extensions).toEqual([
      { extname: 'btree_gin', nspname: 'referrals' },
      { extname: 'pg_trgm', nspname: 'referrals' },
    ]);
    // The trigram index of the first migration gave way to the covering B-tree (20261129000000_search_covering).
    expect(indexes.map((index) => index.indexdef.replace(/^.* USING /, ''))).toEqual([
      'btree (user_id, status) WHERE (octet_length(search_text) > 2000)',
      'btree (user_id, status) INCLUDE (created_at, id, company, search_text) WHERE (octet_length(search_text) <= 2000)',
    ]);
  });
});
