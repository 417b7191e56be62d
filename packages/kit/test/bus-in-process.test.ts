import { freshDatabase, TEST_SECRET } from '@app/testing';
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
      secret: TEST_SECRET,
      ackWaitMs: 1000,
      retryDelay: () => 100,
    }),
  inject: async (name, data) => {
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    const id = (JSON.parse(data) as { id: string }).id;
    await sql.query(
      `WITH m AS (INSERT INTO bus.messages (id, name, data) VALUES ($1, $2, $3) RETURNING seq, name)
       INSERT INTO bus.deliveries (subscriber, seq) SELECT c.subscriber, m.seq FROM m JOIN bus.consumers c ON c.event = m.name`,
      [id, name, data],
    );
    await sql.end();
  },
  deadLetters: async (subscriber) => {
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    const { rows } = await sql.query<{ eventId: string | null; reason: string }>(
      'SELECT event_id AS "eventId", reason FROM bus.dead_letters WHERE subscriber = $1',
      [subscriber],
    );
    await sql.end();
    return rows;
  },
});

describe('in-process bus when idle', () => {
  it('waits for work instead of polling the database in a loop', async () => {
    const bus = await inProcessBus({
      databaseUrl: db.url,
      logger: createLogger('test', 'silent'),
      secret: TEST_SECRET,
    });
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
