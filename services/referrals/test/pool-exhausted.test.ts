import { ERRORS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { referralInput, startReferrals, testUser, type TestContext } from './helpers.ts';

// Issue 15: past the pipeline's ceiling a request that finds no database connection free in time answers
// a retryable 503, never a 500. The create runs on the Prisma client's pool: a budget of 3 leaves it one
// connection, held busy here.
let ctx: TestContext;
let url: string;

beforeAll(async () => {
  ctx = await startReferrals({ DATABASE_POOL_MAX: '3' });
  url = await ctx.service.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await ctx?.close();
});

const create = (user = testUser()) =>
  fetch(`${url}/api/referrals`, { method: 'POST', headers: user.headers, body: JSON.stringify(referralInput()) });

describe('no database connection free in time', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, then serves again once a connection is free', async () => {
    const pool = ctx.service.prismaPool;
    const holder = await pool.connect();
    const before = (await ctx.sql.query('SELECT count(*)::int n FROM referrals.referrals')).rows[0].n;

    const busy = await create();
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await busy.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: ERRORS.SERVICE_UNAVAILABLE.message,
    });
    expect((await ctx.sql.query('SELECT count(*)::int n FROM referrals.referrals')).rows[0].n).toBe(before);

    // The create still waiting for a connection when it gave up takes none once they are free.
    holder.release();
    await vi.waitFor(() => expect(pool.idleCount).toBe(pool.totalCount));
    expect(pool.waitingCount).toBe(0);
    const again = await create();
    expect(again.status).toBe(201);
  });
});

describe('closing the service', () => {
  it('ends both its pools, the one only the create used included (no connection left to the database)', async () => {
    const own = await startReferrals();
    const ownUrl = await own.service.app.listen({ host: '127.0.0.1', port: 0 });
    const created = await fetch(`${ownUrl}/api/referrals`, {
      method: 'POST',
      headers: testUser().headers,
      body: JSON.stringify(referralInput()),
    });
    expect(created.status).toBe(201);
    const { pool, prismaPool } = own.service;
    expect(prismaPool.totalCount).toBeGreaterThan(0);
    await own.close();
    expect([pool.ending, prismaPool.ending]).toEqual([true, true]);
    expect(prismaPool.totalCount + pool.totalCount).toBe(0);
  });
});
