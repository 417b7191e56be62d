import { freshDatabase } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, inProcessBus } from '../src/index.ts';
import { describeBusContract } from './bus-contract.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

describeBusContract({
  kind: 'in-process',
  url: async () => db.url,
  connect: () =>
    inProcessBus({
      databaseUrl: db.url,
      logger: createLogger('test', 'silent'),
      ackWaitMs: 1000,
      retryDelay: () => 100,
    }),
});

describe('in-process bus when idle', () => {
  it('waits for work instead of polling the database in a loop', async () => {
    const bus = await inProcessBus({ databaseUrl: db.url, logger: createLogger('test', 'silent') });
    try {
      for (let i = 0; i < 5; i++) {
        await bus.subscribe({ event: 'session.ended', subscriber: `idle-${i}`, handle: async () => {} });
      }
      const probe = new pg.Client({ connectionString: db.url });
      await probe.connect();
      const statements = async () =>
        Number(
          (await probe.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0]
            .xact_commit,
        );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = await statements();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const during = (await statements()) - before;
      await probe.end();
      // Five subscribers polling about once a second: a few dozen statements; a busy loop makes thousands.
      expect(during).toBeLessThan(200);
    } finally {
      await bus.close();
    }
  });
});
