import { freshDatabase } from '@app/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, databaseReadiness } from '../src/index.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
const pools: pg.Pool[] = [];
const pool = (url: string) => {
  const created = createPool(url, 'public', 1);
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

describe('databaseReadiness', () => {
  it('is ready at once while the pool is busy with work the database answered, without queueing behind it', async () => {
    const busy = pool(db.url);
    const check = databaseReadiness([busy], 500);
    await busy.query('SELECT 2'); // the service's own work, answered
    const held = await busy.connect(); // the pool's only connection taken by the load
    try {
      expect(await within(check(), 200)).toBe('resolved');
      // Past the window, the check probes for itself: it waits for a connection like any query.
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

  it('counts any of its pools, and only a clean release', async () => {
    const first = pool(db.url);
    const second = pool(db.url);
    const check = databaseReadiness([first, second], 500);
    const held = await first.connect();
    await second.query('SELECT 1'); // the other pool's work
    expect(await within(check(), 200)).toBe('resolved');
    held.release();

    const failing = pool(db.url);
    const alone = databaseReadiness([failing], 500);
    const client = await failing.connect();
    await expect(client.query('SELECT nope')).rejects.toThrow();
    client.release(new Error('broken')); // released with an error: no evidence (and the connection dropped)
    const busy = await failing.connect();
    const probe = alone();
    expect(await within(probe, 300)).toBe('pending'); // it probes, behind the pool's one connection
    busy.release();
    expect(await within(probe, 2000)).toBe('resolved');
  });

  it('is not ready when the database does not answer', async () => {
    const gone = pool('postgresql://postgres@127.0.0.1:1/nowhere');
    const check = databaseReadiness([gone], 500);
    await expect(check()).rejects.toThrow();
    await expect(gone.query('SELECT 1')).rejects.toThrow();
    await expect(check()).rejects.toThrow(); // failed work is no evidence
  });
});
