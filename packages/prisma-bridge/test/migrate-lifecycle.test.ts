import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDatabase,
  createProject,
  databasesLike,
  databaseUrl,
  dropDatabase,
  prisma,
  USER_MODEL,
  withClient,
} from './helpers.ts';
import type { Project } from './helpers.ts';

const SCHEMA = 'app';
let db: string;
let url: string;
let project: Project;

async function migrationNames(): Promise<string[]> {
  const entries = await readdir(path.join(project.dir, 'prisma/migrations'), { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

function migrationSql(name: string): Promise<string> {
  return readFile(path.join(project.dir, 'prisma/migrations', name, 'migration.sql'), 'utf8');
}

function query<R extends Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<R[]> {
  return withClient(db, async (client) => (await client.query<R>(sql, values)).rows);
}

async function columns(table: string): Promise<string[]> {
  const rows = await query<{ column_name: string }>(
    'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position',
    [SCHEMA, table],
  );
  return rows.map((r) => r.column_name);
}

async function expectNoShadowDatabaseLeft(): Promise<void> {
  expect(await databasesLike(`${db}_prisma_shadow_`)).toEqual([]);
}

beforeAll(async () => {
  db = await createDatabase();
  url = databaseUrl(db, SCHEMA);
  project = await createProject(USER_MODEL);
});

afterAll(async () => {
  await project?.remove();
  if (!db) return;
  const leftovers = await databasesLike(`${db}_prisma_shadow_`);
  for (const name of [...leftovers, db]) await dropDatabase(name);
  expect(leftovers).toEqual([]);
});

describe('real prisma CLI through the WASM schema engine bridge', { timeout: 60_000 }, () => {
  it('migrate dev --create-only writes a migration with the CREATE TABLE, without applying it', async () => {
    const result = await prisma(project.dir, ['migrate', 'dev', '--create-only', '--name', 'init'], url);
    expect(result.code, result.output).toBe(0);

    const names = await migrationNames();
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^\d{14}_init$/);
    const sql = await migrationSql(names[0] ?? '');
    expect(sql).toContain('CREATE TABLE "users"');
    expect(sql).toMatch(/"email" TEXT NOT NULL/);
    expect(sql).toContain('CREATE UNIQUE INDEX "users_email_key" ON "users"("email")');

    expect(await query(`SELECT to_regclass('${SCHEMA}.users') AS t`)).toEqual([{ t: null }]);
    await expectNoShadowDatabaseLeft();
  });

  it('migrate deploy applies it; _prisma_migrations records sha256(migration.sql)', async () => {
    const result = await prisma(project.dir, ['migrate', 'deploy'], url);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('All migrations have been successfully applied.');

    expect(await columns('users')).toEqual(['id', 'email']);
    const [name] = await migrationNames();
    const sql = await readFile(path.join(project.dir, 'prisma/migrations', name ?? '', 'migration.sql'));
    const rows = await query<{
      migration_name: string;
      checksum: string;
      finished: boolean;
      applied_steps_count: number;
    }>(
      `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, applied_steps_count FROM ${SCHEMA}._prisma_migrations`,
    );
    expect(rows).toEqual([
      {
        migration_name: name,
        checksum: createHash('sha256').update(sql).digest('hex'),
        finished: true,
        applied_steps_count: 1,
      },
    ]);
  });

  it('migrate status reports the database up to date and exits 0', async () => {
    const result = await prisma(project.dir, ['migrate', 'status'], url);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('Database schema is up to date!');
  });

  it('migrate diff --from-migrations --to-schema --exit-code: no difference when in sync', async () => {
    const args = [
      'migrate',
      'diff',
      '--from-migrations',
      'prisma/migrations',
      '--to-schema',
      'prisma/schema.prisma',
      '--exit-code',
    ];
    const result = await prisma(project.dir, args, url);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toContain('No difference detected.');
    await expectNoShadowDatabaseLeft();
  });

  it('migrate diff --exit-code: exit 2 and the change when the schema has a new field', async () => {
    await project.writeSchema(USER_MODEL.replace('email String @unique', 'email String @unique\n  name  String?'));
    const args = [
      'migrate',
      'diff',
      '--from-migrations',
      'prisma/migrations',
      '--to-schema',
      'prisma/schema.prisma',
      '--exit-code',
    ];
    const result = await prisma(project.dir, args, url);
    expect(result.code, result.output).toBe(2);
    expect(result.stdout).toContain('Added column `name`');

    const script = await prisma(project.dir, [...args.slice(0, -1), '--script'], url);
    expect(script.code, script.output).toBe(0);
    expect(script.stdout).toMatch(/ALTER TABLE "users" ADD COLUMN\s+"name" TEXT;/);
    await expectNoShadowDatabaseLeft();
  });

  it('migrate status exits non-zero and names a migration that is not applied yet', async () => {
    const created = await prisma(project.dir, ['migrate', 'dev', '--create-only', '--name', 'add_name'], url);
    expect(created.code, created.output).toBe(0);
    const pending = (await migrationNames()).find((n) => n.endsWith('_add_name'));
    expect(pending).toBeDefined();
    expect(await migrationSql(pending ?? '')).toMatch(/ALTER TABLE "users" ADD COLUMN\s+"name" TEXT;/);

    const result = await prisma(project.dir, ['migrate', 'status'], url);
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toContain('have not yet been applied');
    expect(result.output).toContain(pending);
  });

  it('migrate dev applies the pending migration, then creates and applies the next one', async () => {
    // The database is behind here: the engine's shadow-schema cache must be refilled after applying.
    await project.writeSchema(
      USER_MODEL.replace('email String @unique', 'email String @unique\n  name  String?\n  age   Int?'),
    );
    const result = await prisma(project.dir, ['migrate', 'dev', '--name', 'add_age'], url);
    expect(result.code, result.output).toBe(0);
    expect(await columns('users')).toEqual(['id', 'email', 'name', 'age']);
    const added = (await migrationNames()).find((n) => n.endsWith('_add_age'));
    expect(await migrationSql(added ?? '')).toMatch(/ADD COLUMN\s+"age" INTEGER;/);
    await expectNoShadowDatabaseLeft();
  });

  it('migrate diff from the live database introspects it (pg_catalog "char" columns included)', async () => {
    const args = ['migrate', 'diff', '--from-config-datasource', '--to-schema', 'prisma/schema.prisma', '--exit-code'];
    const result = await prisma(project.dir, args, url);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toContain('No difference detected.');
  });

  it('migrate reset --force empties its schema (only) and re-applies every migration', async () => {
    await query(`INSERT INTO ${SCHEMA}.users (id, email) VALUES ('1', 'a@example.com')`);
    // Services share a database, one schema each: another service's schema must survive.
    await query('CREATE SCHEMA other; CREATE TABLE other.kept (id int); INSERT INTO other.kept VALUES (1)');
    const result = await prisma(project.dir, ['migrate', 'reset', '--force'], url);
    expect(result.code, result.output).toBe(0);
    expect(await query(`SELECT count(*)::int AS n FROM ${SCHEMA}.users`)).toEqual([{ n: 0 }]);
    expect(await query('SELECT count(*)::int AS n FROM other.kept')).toEqual([{ n: 1 }]);
    expect(
      await query(`SELECT count(*)::int AS n FROM ${SCHEMA}._prisma_migrations WHERE finished_at IS NOT NULL`),
    ).toEqual([{ n: 3 }]);
  });

  it('migrate resolve --applied records a migration without running it, and refuses twice', async () => {
    const name = '29991231000000_hotfix';
    await project.addMigration(name, 'CREATE TABLE hotfix (id int);\n');
    const first = await prisma(project.dir, ['migrate', 'resolve', '--applied', name], url);
    expect(first.code, first.output).toBe(0);
    expect(
      await query(
        `SELECT finished_at IS NOT NULL AS done FROM ${SCHEMA}._prisma_migrations WHERE migration_name = $1`,
        [name],
      ),
    ).toEqual([{ done: true }]);
    expect(await query(`SELECT to_regclass('${SCHEMA}.hotfix') AS t`)).toEqual([{ t: null }]);

    const second = await prisma(project.dir, ['migrate', 'resolve', '--applied', name], url);
    expect(second.code).not.toBe(0);
    expect(second.output).toContain('P3008');
  });
});
