import type { EventEnvelope, EventName, ServiceName } from '@app/contracts';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JsMsg,
} from '@nats-io/jetstream';
import { headers, nanos, type MsgHdrs } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { TraceCarrier } from '../tracing.ts';
import { eventCodec, refusalFields, retryDelayMs, type EventBus, type EventHandler, type Subscription } from './bus.ts';

export interface NatsBusOptions {
  url: string;
  name: string;
  logger: Logger;
  /** INTERNAL_SECRET: events are signed with a key derived from it, and checked before any handler runs. */
  secret: string;
  /** The service this process publishes for (its events are signed as produced by it). */
  producer?: ServiceName | undefined;
  /** How long a delivered event may stay unacknowledged before JetStream delivers it again. */
  ackWaitMs?: number;
  /** Subject prefix and stream name: separate namespaces share a NATS server without seeing each other. */
  namespace?: string;
  /** Delay before delivering again after the handler failed, by attempt (1, 2...). */
  retryDelay?: (attempt: number) => number;
}

export const streamName = (namespace: string) => namespace.toUpperCase().replace(/[^A-Z0-9_-]/g, '_');
/** Where subscribers put the messages they refuse (unsigned, forged, invalid): one subject per subscriber. */
export const deadLetterStreamName = (namespace: string) => `${streamName(namespace)}_DEAD`;
export const deadLetterSubject = (namespace: string, subscriber: string) => `dead.${namespace}.${subscriber}`;

/** The W3C trace context a message carries in its headers (never part of the signed envelope). */
function traceOf(h: MsgHdrs | undefined): TraceCarrier | undefined {
  const traceparent = h?.get('traceparent');
  if (!traceparent) return undefined;
  const tracestate = h?.get('tracestate');
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

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
  const DEAD = deadLetterStreamName(namespace);
  const subjectOf = (event: EventName) => `${namespace}.${event}`;
  const codec = eventCodec(options.secret, options.producer);
  let deadLetters: Promise<unknown> | undefined;

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
        event = codec.decode(message.data);
      } catch (error) {
        await deadLetter(subscription.subscriber, message, error);
        continue;
      }
      try {
        await subscription.handle(event, traceOf(message.headers));
        message.ack();
      } catch (error) {
        const delay = (options.retryDelay ?? retryDelayMs)(message.info.deliveryCount);
        log.warn(
          { err: error, eventId: event.id, requestId: event.requestId, subscriber: subscription.subscriber, delay },
          'event handler failed; will retry',
        );
        message.nak(delay);
      }
    }
  }

  /**
   * A message that is not a valid event signed by its producer is never handled nor retried: it is copied
   * to the dead-letter stream (kept 7 days, with the reason) and terminated. If the copy fails (NATS
   * going down), the message comes back later and is refused again.
   */
  async function deadLetter(subscriber: string, message: JsMsg, error: unknown) {
    const fields = { ...refusalFields(error), subscriber, streamSeq: message.seq };
    try {
      deadLetters ??= jsm.streams
        .info(DEAD)
        .catch(() =>
          jsm.streams.add({ name: DEAD, subjects: [`dead.${namespace}.>`], max_age: nanos(7 * 24 * 3600_000) }),
        );
      await deadLetters;
      const h = headers();
      h.set('Refused-Reason', fields.reason);
      h.set('Refused-Stream-Seq', String(message.seq));
      await js.publish(deadLetterSubject(namespace, subscriber), message.data, { headers: h });
      message.term();
      log.error(fields, 'refused an event: dead-lettered');
    } catch (failure) {
      deadLetters = undefined;
      log.error({ ...fields, err: failure }, 'refused an event; could not dead-letter it yet');
      message.nak((options.retryDelay ?? retryDelayMs)(message.info.deliveryCount));
    }
  }

  return {
    kind: 'nats',
    async publish(event: EventEnvelope, trace?: TraceCarrier) {
      let h: MsgHdrs | undefined;
      if (trace?.traceparent) {
        h = headers();
        h.set('traceparent', trace.traceparent);
        if (trace.tracestate) h.set('tracestate', trace.tracestate);
      }
      await js.publish(subjectOf(event.name), codec.encode(event), { msgID: event.id, ...(h ? { headers: h } : {}) });
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
          let decoded: EventEnvelope<N>;
          try {
            decoded = codec.decode(message.data) as EventEnvelope<N>;
          } catch (error) {
            // A broadcast is best effort: a refused one is dropped and said, not dead-lettered by every instance.
            log.error({ ...refusalFields(error), listener: event }, 'refused a broadcast event');
            continue;
          }
          try {
            await handle(decoded);
          } catch (error) {
            log.warn({ err: error, eventId: decoded.id }, 'listener failed');
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
