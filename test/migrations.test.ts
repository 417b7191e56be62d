import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const services = readdirSync(`${root}services`).filter((name) =>
  existsSync(`${root}services/${name}/prisma/schema.prisma`),
);
let db: Awaited<ReturnType<typeof freshDatabase>>;

beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('committed migrations', () => {
  it('exist for the services that own data', () => {
    expect(services.sort()).toEqual(expect.arrayContaining(['auth', 'mail']));
  });

  it.each(services)(
    'of %s produce exactly its Prisma schema (real `prisma migrate diff`, offline)',
    (service) => {
      const result = spawnSync(
        `${root}node_modules/.bin/node`,
        [
          `${root}scripts/prisma.ts`,
          'migrate',
          'diff',
          '--from-migrations',
          'prisma/migrations',
          '--to-schema',
          'prisma/schema.prisma',
          '--exit-code',
        ],
        {
          cwd: `${root}services/${service}`,
          env: { ...process.env, DATABASE_URL: db.url },
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      expect(result.stdout + result.stderr).toContain('No difference detected');
      expect(result.status).toBe(0);
    },
    150_000,
  );
});
