/**
 * Readable starts: a process that cannot start says why in one line naming the variable and its target
 * (never a password), without a stack, and exits quickly; a taken public port fails first.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { prettyLine } from '@app/kit';
import { deleteStream, natsUrl, TEST_SECRET } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function run(entry: string, env: Record<string, string>): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const child = spawn(`${root}node_modules/.bin/node`, [`${root}${entry}`], {
    env: { PATH: process.env.PATH, INTERNAL_SECRET: TEST_SECRET, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.trim(), ms: Date.now() - started });
    }),
  );
}

let taken: Server;
let takenPort: number;
beforeAll(async () => {
  takenPort = await freePort();
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(takenPort, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => taken.close(resolve)));

describe('a start that cannot go on', () => {
  it('names the public port in use before connecting to anything (the gateway)', async () => {
    // NATS unreachable too: the port is checked first, so that is what it says.
    const result = await run('gateway/src/main.ts', { PORT: String(takenPort), NATS_URL: 'nats://127.0.0.1:1' });
    expect(result.code).toBe(1);
    expect(result.output).toBe(`Port ${takenPort} is in use (PORT)`);
    // About a second alone (mostly loading the code); generous for a loaded test machine.
    expect(result.ms).toBeLessThan(10_000);
  });

  it("names a service's own port in use (AUTH_PORT)", async () => {
    const result = await run('services/auth/src/main.ts', {
      AUTH_PORT: String(takenPort),
      NATS_URL: 'nats://127.0.0.1:1',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/app',
    });
    expect(result.output).toBe(`Port ${takenPort} is in use (AUTH_PORT)`);
    expect(result.code).toBe(1);
  });

  it('names NATS_URL and its host, not its password', async () => {
    const result = await run('services/auth/src/main.ts', {
      AUTH_PORT: '0',
      NATS_URL: 'nats://auth:s3cret-pass@127.0.0.1:1',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/app',
    });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^Cannot reach NATS at 127\.0\.0\.1:1 \(NATS_URL\): .+$/);
    expect(result.output).not.toContain('s3cret');
    expect(result.ms).toBeLessThan(10_000);
  });

  it('names S3_ENDPOINT when the document storage cannot be reached (programs)', async () => {
    const namespace = `starts_s3_${Date.now().toString(36)}`;
    try {
      const result = await run('services/programs/src/main.ts', {
        PROGRAMS_PORT: '0',
        S3_ENDPOINT: 'http://127.0.0.1:1',
        S3_BUCKET: 'documents',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 's3cret-key',
        // A real NATS (the storage is checked after it, before the database).
        NATS_URL: await natsUrl(),
        NATS_NAMESPACE: namespace,
        DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/app',
      });
      expect(result.code).toBe(1);
      expect(result.output).toMatch(/^Cannot reach S3-compatible storage at 127\.0\.0\.1:1 \(S3_ENDPOINT\): .+$/);
      expect(result.output).not.toContain('s3cret');
    } finally {
      await deleteStream(namespace.toUpperCase()).catch(() => undefined);
    }
  });

  it('names DATABASE_URL with host, port and database, not its password', async () => {
    const result = await run('services/auth/src/main.ts', {
      AUTH_PORT: '0',
      NATS_URL: `nats://127.0.0.1:4222`,
      NATS_NAMESPACE: 'starts_test',
      DATABASE_URL: 'postgresql://postgres:s3cret-pass@127.0.0.1:1/referrals_db',
    });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(
      /^Cannot reach PostgreSQL at 127\.0\.0\.1:1\/referrals_db \(DATABASE_URL\): connect ECONNREFUSED .+$/,
    );
    expect(result.output).not.toContain('s3cret');
    expect(result.ms).toBeLessThan(10_000);
  });
});

describe('logs on a terminal', () => {
  it('are one readable line each: time, level, service, message, fields, and the error stack', () => {
    const line = JSON.stringify({
      level: 40,
      time: Date.UTC(2026, 0, 1, 12, 0, 0),
      pid: 1,
      hostname: 'h',
      service: 'mail',
      msg: 'event handler failed; will retry',
      subscriber: 'mail-intro',
      attempt: 2,
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at send (sender.ts:1:1)' },
    });
    const shown = prettyLine(line);
    expect(shown).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}mail {2}event handler failed; will retry subscriber=mail-intro attempt=2\n {2}Error: boom\n {6}at send/,
    );
    expect(prettyLine('not json')).toBe('not json');
  });
});
