import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/index.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let sql: pg.Pool;

const write = (dir: string, name: string, body: string) => {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'migration.sql'), body);
};

beforeAll(async () => {
  db = await freshDatabase();
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});
afterAll(async () => {
  await sql.end();
  await db.drop();
});

describe('migrate', () => {
  it('applies pending migrations in order into the schema, records them like Prisma, and is idempotent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mig-'));
    const first = 'CREATE TABLE "things" ("id" INT PRIMARY KEY);\n';
    write(dir, '20260101000000_init', first);
    write(dir, '20260102000000_more', 'ALTER TABLE "things" ADD COLUMN "name" TEXT;\n');

    expect(await migrate(db.url, 'demo', dir)).toEqual(['20260101000000_init', '20260102000000_more']);
    expect(await migrate(db.url, 'demo', dir)).toEqual([]);

    const { rows } = await sql.query(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM demo._prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(['20260101000000_init', '20260102000000_more']);
    expect(rows[0].checksum).toBe(createHash('sha256').update(first).digest('hex'));
    expect(rows.every((r) => r.finished_at && r.applied_steps_count === 1)).toBe(true);
    const columns = await sql.query(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = 'demo' AND table_name = 'things' ORDER BY column_name",
    );
    expect(columns.rows.map((r) => r.column_name)).toEqual(['id', 'name']);
  });

  it('rolls back a failing migration, says which one failed, and retries it on the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mig-'));
    write(dir, '20260101000000_ok', 'CREATE TABLE "a" ("id" INT);\n');
    write(dir, '20260102000000_bad', 'CREATE TABLE "b" ("id" INT);\nSELECT * FROM "missing_table";\n');

    await expect(migrate(db.url, 'failing', dir)).rejects.toThrow(/20260102000000_bad.*missing_table/);
    const tables = await sql.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'failing' ORDER BY table_name",
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(['_prisma_migrations', 'a']);
    const { rows } = await sql.query(
      "SELECT rolled_back_at, logs FROM failing._prisma_migrations WHERE migration_name = '20260102000000_bad'",
    );
    expect(rows[0].rolled_back_at).not.toBeNull();
    expect(rows[0].logs).toContain('missing_table');

    write(dir, '20260102000000_bad', 'CREATE TABLE "b" ("id" INT);\n');
    expect(await migrate(db.url, 'failing', dir)).toEqual(['20260102000000_bad']);
  });

  it('refuses to start over a migration that Prisma left half-applied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mig-'));
    write(dir, '20260101000000_x', 'SELECT 1;\n');
    await migrate(db.url, 'halfway', dir);
    await sql.query(
      "INSERT INTO halfway._prisma_migrations (id, checksum, migration_name) VALUES ('x', 'y', '20260103000000_broken')",
    );
    await expect(migrate(db.url, 'halfway', dir)).rejects.toThrow(/20260103000000_broken.*failed earlier/);
  });
});
