// Test helpers: throwaway PostgreSQL databases on 127.0.0.1:5432 and temporary Prisma projects,
// driven through the real prisma CLI (scripts/prisma.ts -> bin/schema-engine).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const WRAPPER = path.join(ROOT, 'scripts/prisma.ts');
const SERVER = 'postgresql://postgres@127.0.0.1:5432';

export function databaseUrl(database: string, schema: string): string {
  return `${SERVER}/${database}?schema=${schema}`;
}

export async function withClient<T>(database: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${SERVER}/${database}` });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(): Promise<string> {
  const name = `bridge_test_${randomBytes(6).toString('hex')}`;
  await withClient('postgres', (client) => client.query(`CREATE DATABASE "${name}"`));
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  await withClient('postgres', (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Databases on the server whose name starts with `prefix` (e.g. leftover shadow databases). */
export async function databasesLike(prefix: string): Promise<string[]> {
  const { rows } = await withClient('postgres', (client) =>
    client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]),
  );
  return rows.map((row) => row.datname);
}

export const USER_MODEL = `model User {
  id    String @id
  email String @unique
  @@map("users")
}
`;

export function schemaPrisma(models: string): string {
  return `generator client {
  provider = "prisma-client"
  output   = "../generated/prisma"
}

datasource db {
  provider = "postgresql"
}

${models}`;
}

export interface Project {
  dir: string;
  writeSchema(models: string): Promise<void>;
  /** Adds prisma/migrations/<name>/migration.sql by hand. */
  addMigration(name: string, sql: string): Promise<string>;
  remove(): Promise<void>;
}

/** A temporary project like services/<name>: prisma.config.ts (URL from DATABASE_URL) + prisma/schema.prisma. */
export async function createProject(models: string): Promise<Project> {
  const dir = await mkdtemp(path.join(tmpdir(), 'prisma-bridge-test-'));
  // prisma.config.ts imports 'prisma/config': resolve it from the repository.
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await mkdir(path.join(dir, 'prisma/migrations'), { recursive: true });
  await writeFile(
    path.join(dir, 'prisma.config.ts'),
    `import { defineConfig } from 'prisma/config';
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
`,
  );
  const project: Project = {
    dir,
    writeSchema: (m) => writeFile(path.join(dir, 'prisma/schema.prisma'), schemaPrisma(m)),
    async addMigration(name, sql) {
      const migrationDir = path.join(dir, 'prisma/migrations', name);
      await mkdir(migrationDir, { recursive: true });
      await writeFile(path.join(migrationDir, 'migration.sql'), sql);
      return migrationDir;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
  await project.writeSchema(models);
  return project;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  output: string;
}

/** Runs the real prisma CLI through scripts/prisma.ts in `cwd`. */
export function prisma(cwd: string, args: string[], databaseUrlValue: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      NODE,
      [WRAPPER, ...args],
      {
        cwd,
        env: { ...process.env, DATABASE_URL: databaseUrlValue, NO_COLOR: '1', FORCE_COLOR: '0' },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr, output: `${stdout}\n${stderr}` });
      },
    );
  });
}
