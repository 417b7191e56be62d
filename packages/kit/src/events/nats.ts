import type { EventEnvelope, EventName } from '@app/contracts';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import type { FastifyBaseLogger as Logger } from 'fastify';
import {
  decodeEvent,
  InvalidEventError,
  retryDelayMs,
  type EventBus,
  type EventHandler,
  type Subscription,
} from './bus.ts';

export interface NatsBusOptions {
  url: string;
  name: string;
  logger: Logger;
  /** How long a delivered event may stay unacknowledged before JetStream delivers it again. */
  ackWaitMs?: number;
  /** Subject prefix and stream name: separate namespaces share a NATS server without seeing each other. */
  namespace?: string;
  /** Delay before delivering again after the handler failed, by attempt (1, 2...). */
  retryDelay?: (attempt: number) => number;
}

export const streamName = (namespace: string) => namespace.toUpperCase().replace(/[^A-Z0-9_-]/g, '_');

/**
 * `nats://user:pass@host:4222` (several servers comma-separated): the client ignores credentials written
 * in a URL, so they are taken out and given as options (percent-encoded characters decoded). A user gets
 * its own inbox prefix (`_INBOX.<user>`), so the server can let it read replies meant for it only.
 */
export function natsConnectOptions(url: string): {
  servers: string[];
  user?: string;
  pass?: string;
  inboxPrefix?: string;
} {
  let user: string | undefined;
  let pass: string | undefined;
  const servers = url
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean)
    .map((server) => {
      const match = /^([a-z]+:\/\/)?([^@/]*)@(.*)$/i.exec(server);
      if (!match) return server;
      const [, scheme = '', credentials = '', rest = ''] = match;
      const colon = credentials.indexOf(':');
      user ??= decodeURIComponent(colon === -1 ? credentials : credentials.slice(0, colon));
      if (colon !== -1) pass ??= decodeURIComponent(credentials.slice(colon + 1));
      return `${scheme}${rest}`;
    });
  if (!user) return { servers };
  return { servers, user, ...(pass !== undefined ? { pass } : {}), inboxPrefix: `_INBOX.${user}` };
}

/** JetStream transport: file-backed stream, message-id de-duplication, durable pull consumers. */
export async function natsBus(options: NatsBusOptions): Promise<EventBus> {
  const nc = await connect({ ...natsConnectOptions(options.url), name: options.name, maxReconnectAttempts: -1 });
  const jsm = await jetstreamManager(nc);
  const js = jetstream(nc);
  const log = options.logger;
  const ackWait = options.ackWaitMs ?? 30_000;
  const namespace = options.namespace ?? 'events';
  const STREAM = streamName(namespace);
  const subjectOf = (event: EventName) => `${namespace}.${event}`;

  await jsm.streams.info(STREAM).catch(() =>
    jsm.streams.add({
      name: STREAM,
      subjects: [`${namespace}.>`],
      duplicate_window: nanos(2 * 60_000),
      max_age: nanos(7 * 24 * 3600_000),
    }),
  );

  const running: ConsumerMessages[] = [];
  const loops: Promise<void>[] = [];

  async function consume(subscription: Subscription) {
    const config = {
      durable_name: subscription.subscriber,
      filter_subject: subjectOf(subscription.event),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ackWait),
      max_deliver: -1,
    };
    await jsm.consumers.info(STREAM, subscription.subscriber).then(
      () => jsm.consumers.update(STREAM, subscription.subscriber, { ack_wait: config.ack_wait }),
      () => jsm.consumers.add(STREAM, config),
    );
    const consumer = await js.consumers.get(STREAM, subscription.subscriber);
    const messages = await consumer.consume({ max_messages: 20 });
    running.push(messages);
    for await (const message of messages) {
      let event: EventEnvelope;
      try {
        event = decodeEvent(message.data);
      } catch (error) {
        log.error({ err: error, subscriber: subscription.subscriber }, 'dropping undecodable event');
        message.term();
        continue;
      }
      try {
        await subscription.handle(event);
        message.ack();
      } catch (error) {
        const delay = (options.retryDelay ?? retryDelayMs)(message.info.deliveryCount);
        log.warn(
          { err: error, eventId: event.id, subscriber: subscription.subscriber, delay },
          'event handler failed; will retry',
        );
        message.nak(delay);
      }
    }
  }

  return {
    kind: 'nats',
    async publish(event: EventEnvelope) {
      await js.publish(subjectOf(event.name), JSON.stringify(event), { msgID: event.id });
    },
    async subscribe<N extends EventName>(subscription: Subscription<N>) {
      const started = consume(subscription as unknown as Subscription).catch((error: unknown) => {
        log.error({ err: error, subscriber: subscription.subscriber }, 'consumer stopped');
      });
      loops.push(started);
    },
    async listen<N extends EventName>(event: N, handle: EventHandler<N>) {
      // Core NATS subscription: every instance gets every message published to the subject.
      const sub = nc.subscribe(subjectOf(event));
      void (async () => {
        for await (const message of sub) {
          try {
            await handle(decodeEvent(message.data) as EventEnvelope<N>);
          } catch (error) {
            if (!(error instanceof InvalidEventError)) log.warn({ err: error }, 'listener failed');
          }
        }
      })().catch((error: unknown) => {
        // e.g. the server refuses the subscription (NATS permissions): said once, not an unhandled rejection.
        log.error({ err: error, event }, 'listener stopped');
      });
    },
    async close() {
      for (const messages of running) messages.stop();
      await Promise.allSettled(loops);
      await nc.drain();
    },
  };
}
