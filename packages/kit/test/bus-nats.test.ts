import { deleteConsumers, natsUrl } from '@app/testing';
import { afterAll } from 'vitest';
import { createLogger, natsBus } from '../src/index.ts';
import { describeBusContract } from './bus-contract.ts';

const consumers: string[] = [];
afterAll(() => deleteConsumers('KIT_TEST', consumers));

describeBusContract({
  kind: 'nats',
  url: natsUrl,
  created: (subscriber) => consumers.push(subscriber),
  connect: async () =>
    natsBus({
      url: await natsUrl(),
      name: 'test',
      namespace: 'kit_test',
      logger: createLogger('test', 'silent'),
      ackWaitMs: 1000,
      retryDelay: () => 100,
    }),
});
