import { freshDatabase } from '@app/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, databaseReadiness } from '../src/index.ts';

/**
 * The services' database readiness (`databaseReadiness`): a probe of its own while a pool can run one at
 * once; while every pool is busy to its maximum, the service's own answered work instead of a probe queued
 * behind it (which would pass the readiness check's 2 s under load and answer 503).
 */

let db: Awaited<ReturnType<typeof freshDatabase>>;
const pools: pg.Pool[] = [];
const pool = (url: string, max = 1) => {
  const created = createPool(url, 'public', max);
  pools.push(created);
  return created;
};

beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await db.drop();
});

/** Whether `promise` settles within `ms`: 'resolved', 'rejected' or 'pending'. */
const within = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((resolve) => setTimeout(() => resolve('pending'), ms)),
  ]);

/** How many connections `p` hands out from now on (a probe takes one). */
const acquisitions = (p: pg.Pool) => {
  const counted = { n: 0 };
  p.on('acquire', () => counted.n++);
  return counted;
};

describe('databaseReadiness', () => {
  it('probes for itself while the pool has room, even right after the service’s own work', async () => {
    const roomy = pool(db.url, 3);
    const check = databaseReadiness([roomy], 60_000);
    await roomy.query('SELECT 2'); // answered work: no reason to skip the probe while a connection is free
    const taken = acquisitions(roomy);
    await check();
    expect(taken.n).toBe(1);
  });

  it('fails when the database does not answer', async () => {
    const wrong = new URL(db.url);
    wrong.pathname = '/no_such_database_for_readiness';
    const check = databaseReadiness([pool(wrong.toString(), 2)], 60_000);
    expect(await within(check(), 5000)).toBe('rejected');
  });

  it('is ready at once while the pool is saturated by work the database answered; past the window it queues', async () => {
    const busy = pool(db.url, 1);
    const check = databaseReadiness([busy], 500);
    await busy.query('SELECT 2'); // the service's own work, answered
    const held = await busy.connect(); // the pool's only connection taken by the load
    try {
      const taken = acquisitions(busy);
      expect(await within(check(), 200)).toBe('resolved');
      expect(taken.n).toBe(0);
      // Past the window, the check probes: it waits for a connection like any query.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const probe = check();
      expect(await within(probe, 300)).toBe('pending');
      held.release();
      expect(await within(probe, 2000)).toBe('resolved');
    } catch (error) {
      held.release();
      throw error;
    }
  });

  it('probes on another of its pools that has room; a release with an error is no evidence', async () => {
    const first = pool(db.url, 1);
    const second = pool(db.url, 1);
    const check = databaseReadiness([first, second], 60_000);
    const held = await first.connect();
    const taken = acquisitions(second);
    expect(await within(check(), 2000)).toBe('resolved');
    expect(taken.n).toBe(1);
    held.release();

    const failing = pool(db.url, 1);
    const alone = databaseReadiness([failing], 60_000);
    const client = await failing.connect();
    await expect(client.query('SELECT nope')).rejects.toThrow();
    client.release(new Error('broken')); // released with an error: no evidence (and the connection dropped)
    const busy = await failing.connect();
    const probe = alone();
    expect(await within(probe, 300)).toBe('pending'); // it probes, behind the pool's one connection
    busy.release();
    expect(await within(probe, 2000)).toBe('resolved');
  });
});
