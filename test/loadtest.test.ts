/**
 * The load test's smoke scenario, offline: the app as `npm start` runs it (in a child process, on a free
 * port, against a fresh database), seeded through its API by `npm run loadtest:seed`'s code, then every
 * journey k6 runs (loadtest/shared/journeys.ts) driven by autocannon: every request must answer the status
 * its step expects. Also: each step calls its contract operation with the right method and path.
 */
import { operations } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSmoke } from '../loadtest/node/smoke.ts';
import { seedThroughApi } from '../loadtest/node/seed.ts';
import { JOURNEY_NAMES, JOURNEYS, type Seed, type VirtualUser } from '../loadtest/shared/journeys.ts';
import { startApp, type RunningApp } from './processes.ts';

let app: RunningApp | undefined;
let baseUrl: string;

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
    app = await startApp('loadtest-app', {
      LOG_LEVEL: 'warn',
      // The load-test setting of loadtest/README.md: sign-ins are not rate limited per address.
      RATE_LIMIT_AUTH_MAX: '1000000',
    });
    baseUrl = app.url;
  }, 90_000);

  afterAll(async () => {
    await app?.stop();
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
