// The bridge must fail loudly: the CLI command exits non-zero with the cause in its output.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDatabase,
  createProject,
  databaseUrl,
  dropDatabase,
  prisma,
  ROOT,
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

describe('failures are loud', { timeout: 60_000 }, () => {
  it('migrate deploy: invalid SQL exits non-zero with the database error; $$ bodies and statements run as one script', async () => {
    await project.addMigration(
      '20240101000000_function',
      `CREATE TABLE counters (n int);
CREATE FUNCTION bump() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  UPDATE counters SET n = n + 1;
  RETURN 1;
END;
$$;
`,
    );
    await project.addMigration('20240102000000_broken', 'CREATE TABLE half_done (id int);\nSELEC broken;\n');
    const url = databaseUrl(db, 'public');
    const result = await prisma(project.dir, ['migrate', 'deploy'], url);
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toContain('syntax error at or near "SELEC"');

    await withClient(db, async (client) => {
      const fn = await client.query(`SELECT to_regprocedure('public.bump()') IS NOT NULL AS ok`);
      expect(fn.rows).toEqual([{ ok: true }]);
      // The failing script ran as one implicit transaction: nothing of it remains.
      const half = await client.query(`SELECT to_regclass('public.half_done') AS t`);
      expect(half.rows).toEqual([{ t: null }]);
      const rows = await client.query(
        'SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name',
      );
      expect(rows.rows).toEqual([
        { migration_name: '20240101000000_function', finished: true },
        { migration_name: '20240102000000_broken', finished: false },
      ]);
    });

    const status = await prisma(project.dir, ['migrate', 'status'], url);
    expect(status.code, status.output).not.toBe(0);
    expect(status.output).toContain('20240102000000_broken');
  });

  it('an unreachable database makes migrate deploy, status, diff and db push exit non-zero', async () => {
    const url = 'postgresql://postgres@127.0.0.1:1/nowhere?schema=public';
    const commands = [
      ['migrate', 'deploy'],
      ['migrate', 'status'],
      ['db', 'push'],
      [
        'migrate',
        'diff',
        '--from-migrations',
        'prisma/migrations',
        '--to-schema',
        'prisma/schema.prisma',
        '--exit-code',
      ],
    ];
    const results = await Promise.all(commands.map((args) => prisma(project.dir, args, url)));
    for (const [i, result] of results.entries()) {
      expect(result.code, `${commands[i]?.join(' ')}\n${result.output}`).toBe(1);
      expect(result.output).toContain("Can't reach database server at `127.0.0.1:1`");
    }
  });
});

interface RawRun {
  code: number | null;
  lines: { id?: number; result?: unknown; error?: { code: number; data?: { message?: string } } }[];
}

/** Talks JSON-RPC to bin/schema-engine directly, like the CLI does. */
function rawEngine(args: string[], requests: { method: string; params?: unknown }[]): Promise<RawRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'packages/prisma-bridge/bin/schema-engine'), args, {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const lines = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as RawRun['lines'][number]);
      resolve({ code, lines });
    });
    requests.forEach((request, i) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: i + 1, ...request })}\n`),
    );
    child.stdin.end();
  });
}

describe('bin/schema-engine JSON-RPC', { timeout: 60_000 }, () => {
  it('answers a method it cannot serve with a JSON-RPC error', async () => {
    const run = await rawEngine([], [{ method: 'noSuchMethod', params: {} }]);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]?.error?.code).toBe(-32601);
    expect(run.lines[0]?.error?.data?.message).toContain('noSuchMethod');
  });

  it('turns a WASM panic into an error reply and a non-zero exit', async () => {
    const datasource = JSON.stringify({ url: databaseUrl(db, 'public') });
    const run = await rawEngine(
      ['--datasource', datasource],
      [{ method: 'debugPanic' }, { method: 'getDatabaseVersion' }],
    );
    expect(run.code).not.toBe(0);
    expect(run.lines[0]?.error?.data?.message).toContain('This is the debugPanic artificial panic');
    // The engine is unusable after a panic: later requests fail too, never a fake success.
    expect(run.lines[1]?.error).toBeDefined();
  });
});
