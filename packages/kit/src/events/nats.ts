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
import { metricsHooks } from '../metrics.ts';
import { connecting } from '../startup.ts';
import type { TraceCarrier } from '../tracing.ts';
import {
  consumerOptions,
  eventCodec,
  refusalFields,
  retryDelayMs,
  slots,
  withProgress,
  type BusHooks,
  type ConsumerOptions,
  type DeadLetter,
  type DeadLetterReason,
  type EventBus,
  type EventHandler,
  type Subscription,
} from './bus.ts';

export interface NatsBusOptions {
  url: string;
  name: string;
  logger: Logger;
  /** INTERNAL_SECRET: events are signed with a key derived from it, and checked before any handler runs. */
  secret: string;
  /** The service this process publishes for (its events are signed as produced by it). */
  producer?: ServiceName | undefined;
  /** How long a delivered event may stay unacknowledged before JetStream delivers it again (`consumers.ackWaitMs`). */
  ackWaitMs?: number;
  /** Defaults of every subscriber of this bus (ack wait, deliveries before dead-lettering...). */
  consumers?: ConsumerOptions;
  /** Told of each redelivery and dead letter; default `metricsHooks` (the process's Prometheus counters). */
  hooks?: BusHooks;
  /** Subject prefix and stream name: separate namespaces share a NATS server without seeing each other. */
  namespace?: string;
  /** Delay before delivering again after the handler failed, by attempt (1, 2...). */
  retryDelay?: (attempt: number) => number;
}

export const streamName = (namespace: string) => namespace.toUpperCase().replace(/[^A-Z0-9_-]/g, '_');
/** Where subscribers put the messages they refuse (unsigned, forged, invalid): one subject per subscriber. */
export const deadLetterStreamName = (namespace: string) => `${streamName(namespace)}_DEAD`;
export const deadLetterSubject = (namespace: string, subscriber: string) => `dead.${namespace}.${subscriber}`;
/** On a replayed message: the one subscriber it is for (the others of its event acknowledge it unhandled). */
export const REPLAY_HEADER = 'Replay-For';

/** The W3C trace context a message carries in its headers (never part of the signed envelope). */
function traceOf(h: MsgHdrs | undefined): TraceCarrier | undefined {
  const traceparent = h?.get('traceparent');
  if (!traceparent) return undefined;
  const tracestate = h?.get('tracestate');
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/** Sets a trace context's headers (traceparent, tracestate) on a message's headers. */
function setTrace(h: MsgHdrs, trace: TraceCarrier | undefined): MsgHdrs {
  if (trace?.traceparent) h.set('traceparent', trace.traceparent);
  if (trace?.traceparent && trace.tracestate) h.set('tracestate', trace.tracestate);
  return h;
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
  // noAsyncTraces: the client would otherwise build two errors with stack traces for every request (each
  // JetStream publish is one) in case it times out: 1-2 % of a service's CPU in bench:pipeline's profiles. A
  // publish that fails is logged with its event, which says where it came from.
  const nc = await connecting('NATS', 'NATS_URL', options.url, () =>
    connect({ ...natsConnectOptions(options.url), name: options.name, maxReconnectAttempts: -1, noAsyncTraces: true }),
  );
  const jsm = await jetstreamManager(nc);
  const js = jetstream(nc);
  const log = options.logger;
  const hooks = options.hooks ?? metricsHooks;
  const retryDelay = options.retryDelay ?? retryDelayMs;
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
  const subscribers = new Set<string>();

  async function consume(subscription: Subscription) {
    const { subscriber } = subscription;
    const settings = consumerOptions({ ackWaitMs: options.ackWaitMs }, options.consumers, subscription.options);
    const config = {
      durable_name: subscriber,
      filter_subject: subjectOf(subscription.event),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(settings.ackWaitMs),
      max_ack_pending: settings.maxAckPending,
      // The cap is counted here (dead-lettered with its reason), not by the server, which would drop silently.
      max_deliver: -1,
    };
    await jsm.consumers.info(STREAM, subscriber).then(
      () =>
        jsm.consumers.update(STREAM, subscriber, {
          ack_wait: config.ack_wait,
          max_ack_pending: config.max_ack_pending,
        }),
      () => jsm.consumers.add(STREAM, config),
    );
    const consumer = await js.consumers.get(STREAM, subscriber);
    const messages = await consumer.consume({ max_messages: settings.prefetch });
    running.push(messages);
    const inFlight = slots(settings.concurrency);
    for await (const message of messages) await inFlight.run(() => deliver(subscription, message, settings));
    await inFlight.idle();
  }

  async function deliver(subscription: Subscription, message: JsMsg, settings: ReturnType<typeof consumerOptions>) {
    const { subscriber } = subscription;
    let event: EventEnvelope;
    try {
      event = codec.decode(message.data);
    } catch (error) {
      await deadLetter(subscriber, message, refusalFields(error));
      return;
    }
    const replayFor = message.headers?.get(REPLAY_HEADER);
    if (replayFor && replayFor !== subscriber) return message.ack(); // another subscriber's replay
    const attempt = message.info.deliveryCount;
    if (attempt > 1) hooks.redelivered?.({ subscriber, event: event.name, attempt });
    const maxed = { eventId: event.id, event: event.name, reason: 'max-deliveries' as const };
    // Delivered past the cap without a failure seen (its handlers' instances died mid-work): not again.
    if (attempt > settings.maxDeliver) return deadLetter(subscriber, message, { ...maxed, detail: 'ack wait ran out' });
    try {
      await withProgress(
        settings.ackWaitMs,
        () => message.working(),
        () => subscription.handle(event, traceOf(message.headers)),
      );
      message.ack();
    } catch (error) {
      if (attempt >= settings.maxDeliver) {
        await deadLetter(subscriber, message, { ...maxed, detail: String(error) });
        return;
      }
      const delay = retryDelay(attempt);
      log.warn(
        { err: error, eventId: event.id, requestId: event.requestId, subscriber, attempt, delay },
        'event handler failed; will retry',
      );
      message.nak(delay);
    }
  }

  const ensureDeadLetters = () =>
    (deadLetters ??= jsm.streams
      .info(DEAD)
      .catch(() =>
        jsm.streams.add({ name: DEAD, subjects: [`dead.${namespace}.>`], max_age: nanos(7 * 24 * 3600_000) }),
      ));

  /**
   * A message that is not a valid event signed by its producer is never handled nor retried, nor is one
   * whose handler failed `maxDeliver` times: it is copied to the dead-letter stream (kept 7 days, with the
   * reason) and terminated. If the copy fails (NATS going down), the message comes back later.
   */
  async function deadLetter(
    subscriber: string,
    message: JsMsg,
    refusal: { reason: string; eventId?: string | undefined; event?: string | undefined; detail: string },
  ) {
    const fields = { ...refusal, subscriber, streamSeq: message.seq };
    try {
      await ensureDeadLetters();
      const h = headers();
      h.set('Refused-Reason', fields.reason);
      h.set('Refused-Stream-Seq', String(message.seq));
      setTrace(h, traceOf(message.headers)); // kept for a replay
      await js.publish(deadLetterSubject(namespace, subscriber), message.data, { headers: h });
      message.term();
      hooks.deadLettered?.({ subscriber, event: refusal.event, reason: refusal.reason as DeadLetterReason });
      log.error(
        fields,
        refusal.reason === 'max-deliveries' ? 'gave up on an event: dead-lettered' : 'refused an event: dead-lettered',
      );
    } catch (failure) {
      deadLetters = undefined;
      log.error({ ...fields, err: failure }, 'could not dead-letter an event yet');
      message.nak(retryDelay(message.info.deliveryCount));
    }
  }

  /** The dead letters of one subscriber, read through a short-lived consumer of the dead-letter stream. */
  async function readDeadLetters(subscriber: string) {
    if (!(await jsm.streams.info(DEAD).catch(() => null))) return [];
    const { name } = await jsm.consumers.add(DEAD, {
      filter_subject: deadLetterSubject(namespace, subscriber),
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.All,
      inactive_threshold: nanos(30_000),
    });
    try {
      const consumer = await js.consumers.get(DEAD, name);
      const pending = (await consumer.info()).num_pending;
      const letters: Array<DeadLetter & { data: Uint8Array; trace: TraceCarrier | undefined }> = [];
      if (!pending) return letters;
      for await (const message of await consumer.fetch({ max_messages: pending, expires: 5000 })) {
        const raw = (() => {
          try {
            return message.json<{ id?: unknown; name?: unknown }>();
          } catch {
            return {};
          }
        })();
        letters.push({
          seq: String(message.seq),
          eventId: typeof raw.id === 'string' ? raw.id : null,
          name: typeof raw.name === 'string' ? raw.name : null,
          reason: (message.headers?.get('Refused-Reason') ?? 'malformed') as DeadLetterReason,
          at: new Date(message.info.timestampNanos / 1_000_000).toISOString(),
          data: message.data,
          trace: traceOf(message.headers),
        });
        if (letters.length === pending) break;
      }
      return letters;
    } finally {
      await jsm.consumers.delete(DEAD, name).catch(() => {});
    }
  }

  return {
    kind: 'nats',
    async publish(event: EventEnvelope, trace?: TraceCarrier) {
      const h = trace?.traceparent ? setTrace(headers(), trace) : undefined;
      await js.publish(subjectOf(event.name), codec.encode(event), { msgID: event.id, ...(h ? { headers: h } : {}) });
    },
    async subscribe<N extends EventName>(subscription: Subscription<N>) {
      subscribers.add(subscription.subscriber);
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
          if (message.headers?.get(REPLAY_HEADER)) continue; // a replay is for one durable subscriber
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
    async pending() {
      const infos = await Promise.all(
        [...subscribers].map((subscriber) => jsm.consumers.info(STREAM, subscriber).catch(() => null)),
      );
      return infos
        .filter((info) => info !== null)
        .map((info) => ({ subscriber: info.name, pending: info.num_pending, unacknowledged: info.num_ack_pending }));
    },
    async check() {
      if (nc.isClosed()) throw new Error('NATS connection closed');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        nc.flush(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('NATS does not answer')), 2000);
        }),
      ]).finally(() => clearTimeout(timer));
    },
    async deadLetters(subscriber: string) {
      return (await readDeadLetters(subscriber)).map(({ data: _data, trace: _trace, ...letter }) => letter);
    },
    async replay(subscriber: string, eventId?: string) {
      const replayed: string[] = [];
      for (const letter of await readDeadLetters(subscriber)) {
        if (letter.reason !== 'max-deliveries' || !letter.eventId || !letter.name) continue;
        if (eventId !== undefined && letter.eventId !== eventId) continue;
        // The same signed message, for this subscriber only: its signature is checked again on delivery;
        // it keeps the trace context it was published under.
        const h = setTrace(headers(), letter.trace);
        h.set(REPLAY_HEADER, subscriber);
        await js.publish(subjectOf(letter.name as EventName), letter.data, {
          headers: h,
          msgID: `${letter.eventId}:replay:${letter.seq}`,
        });
        await jsm.streams.deleteMessage(DEAD, Number(letter.seq));
        replayed.push(letter.eventId);
      }
      return replayed;
    },
    async close() {
      for (const messages of running) messages.stop();
      await Promise.allSettled(loops);
      await nc.drain();
    },
  };
}
