import { freshDatabase } from '@app/testing';
import { afterAll, beforeAll } from 'vitest';
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
