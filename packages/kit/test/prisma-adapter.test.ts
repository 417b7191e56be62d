import { freshDatabase } from '@app/testing';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prismaAdapter } from '../src/index.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.drop();
});

/** The most `query()` calls a pool's connections had under way at once (what pg 9 refuses past one). */
function watchConnections(pool: pg.Pool) {
  const watch = { mostAtOnce: 0 };
  pool.on('acquire', (client) => {
    if ((client as { watched?: true }).watched) return;
    (client as { watched?: true }).watched = true;
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    let underWay = 0;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      watch.mostAtOnce = Math.max(watch.mostAtOnce, ++underWay);
      const answer = query(...args);
      void Promise.resolve(answer).then(
        () => underWay--,
        () => underWay--,
      );
      return answer;
    };
  });
  return watch;
}

const statement = (sql: string) => ({ sql, args: [], argTypes: [] });

/** What Prisma's interpreter does for an `include` of several relations in a transaction: reads at once. */
async function readsAtOnce(adapter: PrismaPg) {
  const connected = await adapter.connect();
  try {
    const tx = await connected.startTransaction();
    const answers = await Promise.all(
      [1, 2, 3].map((n) =>
        tx.queryRaw(statement(`SELECT ${n} AS n, txid_current()::text AS tx FROM generate_series(1, 20000)`)),
      ),
    );
    await tx.executeRaw(statement('COMMIT'));
    await tx.commit();
    return answers.map((answer) => answer.rows[0]);
  } finally {
    await connected.dispose();
  }
}

describe('prismaAdapter: a transaction sends its statements one at a time', () => {
  it('never calls query() on the connection while a statement is under way, and keeps them in one transaction', async () => {
    const { adapter, pool } = prismaAdapter(db.url, 'public', 2);
    const watch = watchConnections(pool);
    const rows = await readsAtOnce(adapter);
    expect(rows.map((row) => row?.[0])).toEqual([1, 2, 3]);
    expect(new Set(rows.map((row) => String(row?.[1]))).size).toBe(1);
    expect(watch.mostAtOnce).toBe(1);
  });

  it('(the check sees it: the adapter as published calls query() three times at once)', async () => {
    const { pool } = prismaAdapter(db.url, 'public', 2);
    const watch = watchConnections(pool);
    await readsAtOnce(new PrismaPg(pool, { disposeExternalPool: true }));
    expect(watch.mostAtOnce).toBe(3);
  });

  it('goes on after a statement that fails, in turn', async () => {
    const { adapter, pool } = prismaAdapter(db.url, 'public', 2);
    const watch = watchConnections(pool);
    const connected = await adapter.connect();
    try {
      const tx = await connected.startTransaction();
      const [failed, after] = await Promise.allSettled([
        tx.queryRaw(statement('SELECT * FROM no_such_table')),
        tx.queryRaw(statement('SELECT 1')),
      ]);
      expect(failed.status).toBe('rejected');
      // The failed statement aborted the transaction: the next one is refused by PostgreSQL, not lost.
      expect(after.status).toBe('rejected');
      expect(String((after as PromiseRejectedResult).reason)).toMatch(/aborted|25P02/);
      await tx.executeRaw(statement('ROLLBACK'));
      await tx.rollback();
      expect(watch.mostAtOnce).toBe(1);
    } finally {
      await connected.dispose();
    }
  });
});
