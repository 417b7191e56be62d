import { deleteConsumers, natsUrl, TEST_SECRET } from '@app/testing';
import { afterAll } from 'vitest';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { createLogger, deadLetterSubject, natsBus } from '../src/index.ts';
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
      secret: TEST_SECRET,
      ackWaitMs: 1000,
      retryDelay: () => 100,
    }),
  inject: async (name, data) => {
    const nc = await connect({ servers: await natsUrl() });
    await jetstream(nc).publish(`kit_test.${name}`, data);
    await nc.close();
  },
  deadLetters: async (subscriber) => {
    const nc = await connect({ servers: await natsUrl() });
    try {
      const jsm = await jetstreamManager(nc);
      if (!(await jsm.streams.info('KIT_TEST_DEAD').catch(() => null))) return [];
      const { name } = await jsm.consumers.add('KIT_TEST_DEAD', {
        filter_subject: deadLetterSubject('kit_test', subscriber),
        ack_policy: AckPolicy.None,
        deliver_policy: DeliverPolicy.All,
        inactive_threshold: nanos(10_000),
      });
      const consumer = await jetstream(nc).consumers.get('KIT_TEST_DEAD', name);
      const pending = (await consumer.info()).num_pending;
      if (!pending) return [];
      const letters: Array<{ eventId: string | null; reason: string }> = [];
      for await (const message of await consumer.fetch({ max_messages: pending, expires: 2000 })) {
        letters.push({
          eventId: (message.json() as { id?: string }).id ?? null,
          reason: message.headers?.get('Refused-Reason') ?? '',
        });
        if (letters.length === pending) break;
      }
      return letters;
    } finally {
      await nc.close();
    }
  },
});
