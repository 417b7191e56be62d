import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES } from '@app/contracts';
import { freshDatabase } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const migrate = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(`${root}node_modules/.bin/node`, [`${root}scripts/migrate.ts`, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
  });
let db: Awaited<ReturnType<typeof freshDatabase>>;

beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('scripts/migrate.ts (the migration Job)', () => {
  it("applies every service's migrations and the platform tables, then finds nothing to do", async () => {
    const first = migrate({ DATABASE_URL: db.url });
    expect(first.status, first.stderr + first.stdout).toBe(0);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ schema: string }>(
        `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'outbox_events' ORDER BY 1`,
      );
      expect(rows.map((row) => row.schema)).toEqual([...SERVICE_NAMES].sort());
    } finally {
      await client.end();
    }
    const again = migrate({ DATABASE_URL: db.url, LOG_LEVEL: 'info' });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('auth: up to date');
  });

  it('names a bad DATABASE_URL and an unknown service', () => {
    const bad = migrate({ DATABASE_URL: 'mysql://db/x' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('DATABASE_URL: must be a postgresql:// URL');
    const unknown = migrate({ DATABASE_URL: db.url }, 'billing');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('Unknown service(s): billing');
  });
});
