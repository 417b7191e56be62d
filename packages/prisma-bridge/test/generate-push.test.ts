import { access, readFile } from 'node:fs/promises';
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

let db: string;
let project: Project;

beforeAll(async () => {
  db = await createDatabase();
  project = await createProject(USER_MODEL);
});

afterAll(async () => {
  await project?.remove();
  if (db) await dropDatabase(db);
});

describe('generate and db push', { timeout: 60_000 }, () => {
  it('generate produces the prisma-client TypeScript client', async () => {
    const result = await prisma(project.dir, ['generate'], databaseUrl(db, 'public'));
    expect(result.code, result.output).toBe(0);
    const client = path.join(project.dir, 'generated/prisma/client.ts');
    await access(client);
    expect(await readFile(client, 'utf8')).toContain('PrismaClient');
  });

  it('db push creates the tables, and refuses data loss without --accept-data-loss', async () => {
    const url = databaseUrl(db, 'pushed');
    const push = await prisma(project.dir, ['db', 'push'], url);
    expect(push.code, push.output).toBe(0);
    await withClient(db, (client) =>
      client.query(`INSERT INTO pushed.users (id, email) VALUES ('1', 'a@example.com')`),
    );

    await project.writeSchema(USER_MODEL.replace('  email String @unique\n', ''));
    const lossy = await prisma(project.dir, ['db', 'push'], url);
    expect(lossy.code, lossy.output).not.toBe(0);
    expect(lossy.output).toContain('--accept-data-loss');
    const columns = await withClient(db, (client) =>
      client.query(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = 'pushed' AND table_name = 'users' ORDER BY 1`,
      ),
    );
    expect(columns.rows).toEqual([{ column_name: 'email' }, { column_name: 'id' }]);
    expect(await databasesLike(`${db}_prisma_shadow_`)).toEqual([]);
  });
});
