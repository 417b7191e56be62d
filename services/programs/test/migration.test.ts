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
  // The schema as it was before programs belonged to vendors.
  before = migrationsBefore(migrations, '20261123');
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
  before?.remove();
});

describe('the vendors migration', () => {
  it('keeps typed company names as a hint only: every existing program starts unlinked', async () => {
    await migrateService(db.url, 'programs', before.dir);
    await sql.query(
      `INSERT INTO programs.programs (id, name, description, website, reward_details, company_name, is_active, created_by)
       VALUES ('00000000-0000-4000-8000-000000000001', 'HubSpot Partners', 'CRM', 'https://hubspot.com', '20%', 'HubSpot, Inc.', true, 'admin'),
              ('00000000-0000-4000-8000-000000000002', 'Plain', 'Tool', 'https://plain.example.com', '$5', NULL, false, 'admin')`,
    );
    await migrateService(db.url, 'programs', migrations);
    const { rows } = await sql.query(
      'SELECT name, vendor_id, company_hint, is_active FROM programs.programs ORDER BY id',
    );
    expect(rows).toEqual([
      { name: 'HubSpot Partners', vendor_id: null, company_hint: 'HubSpot, Inc.', is_active: true },
      { name: 'Plain', vendor_id: null, company_hint: null, is_active: false },
    ]);
    const vendors = await sql.query('SELECT count(*)::int AS n FROM programs.vendors');
    expect(vendors.rows).toEqual([{ n: 0 }]);
  });
});
