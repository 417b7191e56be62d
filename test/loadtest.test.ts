/**
 * The load test's smoke scenario, offline: the app as `npm start` runs it (in a child process, on a free
 * port, against a fresh database), seeded through its API by `npm run loadtest:seed`'s code, then every
 * journey k6 runs (loadtest/shared/journeys.ts) driven by autocannon: every request must answer the status
 * its step expects. Also: each step calls its contract operation with the right method and path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operations } from '@app/contracts';
import { freePort } from '@app/kit';
import { freshDatabase } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSmoke } from '../loadtest/node/smoke.ts';
import { seedThroughApi } from '../loadtest/node/seed.ts';
import { JOURNEY_NAMES, JOURNEYS, type Seed, type VirtualUser } from '../loadtest/shared/journeys.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
let app: ChildProcess | undefined;
let output = '';
let baseUrl: string;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let dataDir: string;

describe('load test journeys', () => {
  it('call their contract operations with the right method and path', () => {
    const vu: VirtualUser = {
      index: 1,
      iteration: 0,
      seed: {
        runId: 'r',
        password: 'p',
        users: ['u@x.example'],
        vendors: [{ email: 'o@v.example', vendorId: 'v1', domain: 'v.example', name: 'V' }],
      },
      vars: { referralId: '7', vendorId: 'v1' },
    };
    for (const name of JOURNEY_NAMES) {
      for (const step of JOURNEYS[name].steps) {
        const operation = operations[step.operation as keyof typeof operations];
        expect(operation, `${name}: ${step.name} names operation ${step.operation}`).toBeDefined();
        expect(step.method, `${name}: ${step.name}`).toBe(operation.method);
        const pattern = new RegExp(`^${operation.path.replace(/\{\w+\}/g, '[^/?]+')}(\\?.*)?$`);
        expect(step.path(vu), `${name}: ${step.name}`).toMatch(pattern);
      }
    }
  });
});

describe('the smoke scenario against the app', () => {
  beforeAll(async () => {
    db = await freshDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'loadtest-app-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env: Record<string, string | undefined> = { ...process.env };
    // The embedded defaults: in-process events, the mail catcher (its inbox gives the verification links),
    // embedded S3, no model.
    for (const name of ['NATS_URL', 'SMTP_URL', 'S3_ENDPOINT', 'OPENAI_API_KEY', 'ENRICHMENT_WEBHOOK_URL'])
      delete env[name];
    app = spawn(`${root}node_modules/.bin/node`, [`${root}scripts/start.ts`], {
      env: {
        ...env,
        PORT: String(port),
        PUBLIC_URL: baseUrl,
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // The load-test setting of loadtest/README.md: sign-ins are not rate limited per address.
        RATE_LIMIT_AUTH_MAX: '1000000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    app.stdout!.on('data', (chunk) => (output += chunk));
    app.stderr!.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (app.exitCode !== null) throw new Error(`the app exited with ${app.exitCode}:\n${output}`);
      const ready = await fetch(`${baseUrl}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`the app did not become ready:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 90_000);

  afterAll(async () => {
    if (app && app.exitCode === null) {
      const exited = new Promise((resolve) => app!.once('exit', resolve));
      app.kill('SIGTERM');
      await exited;
    }
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('the smoke scenario: seeded through the API, every request of every journey answers as expected', async () => {
    const seed: Seed = await seedThroughApi({ baseUrl, users: 3, vendors: 1, referrals: 6, inbox: 'dev' });
    const report = await runSmoke({ baseUrl, seed, passes: 2 });
    expect(report.failures, JSON.stringify(report.failures, null, 2)).toEqual([]);
    expect(report.errors).toBe(0);
    const expectedRequests = JOURNEY_NAMES.reduce((sum, name) => sum + JOURNEYS[name].steps.length * 2, 0);
    expect(report.steps.reduce((sum, step) => sum + step.statuses.length, 0)).toBe(expectedRequests);
  }, 60_000);
});
