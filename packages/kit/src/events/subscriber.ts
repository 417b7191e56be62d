import type { EventEnvelope, EventName } from '@app/contracts';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { runInContext } from '../context.ts';
import { activeTraceId, consumerSpan } from '../tracing.ts';
import type { ConsumerOptions, EventBus } from './bus.ts';
import { collector, type Emit, type outboxEvent, type SqlTransaction, type TransactionRunner } from './outbox.ts';

export interface TransactionalContext<N extends EventName, Tx, P> {
  event: EventEnvelope<N>;
  /** The transaction in which the event is marked handled: the handler's writes commit with the mark. */
  tx: Tx;
  emit: Emit;
  /** What `prepare` produced (undefined without one). */
  prepared: P;
  log: Logger;
}

/**
 * A subscriber whose effects are database writes: the event is claimed in `processed_events` and handled
 * in one transaction, so a redelivery (the bus delivers at least once) finds the claim and does nothing,
 * and a failure leaves neither. Work that cannot sit in a transaction (a model call) goes in `prepare`,
 * which runs first and is skipped for events already handled.
 */
export interface TransactionalSubscriber<N extends EventName, Tx, P = undefined> {
  kind?: 'transactional';
  /** Stable for good: it names the durable consumer (all instances of the service share it). */
  id: string;
  event: N;
  prepare?: (event: EventEnvelope<N>, log: Logger) => Promise<P>;
  handle: (context: TransactionalContext<N, Tx, P>) => Promise<void>;
  /** Concurrency, pre-fetch, ack wait, redelivery cap (defaults: `CONSUMER_DEFAULTS`; `SUBSCRIBERS` overrides). */
  options?: ConsumerOptions;
}

/**
 * A subscriber that is idempotent by itself (an upsert of the same values, an SMTP send guarded by its
 * own record): no claim, no transaction.
 */
export interface IdempotentSubscriber<N extends EventName> {
  kind: 'idempotent';
  id: string;
  event: N;
  handle: (context: { event: EventEnvelope<N>; log: Logger }) => Promise<void>;
  options?: ConsumerOptions;
}

/**
 * A subscriber whose only effect is the events it emits in answer (no writes of its own): the claim and
 * the emitted events are written in one statement (`claimAndEmit`), a redelivery writing nothing. Cheaper
 * than a transactional subscriber (one round trip and commit, no interactive transaction). `handle` runs
 * before the claim; with `skipHandled` (when it is costly, e.g. a model call) an event already handled is
 * looked up first and not handled again.
 */
export interface EmittingSubscriber<N extends EventName> {
  kind: 'emitting';
  id: string;
  event: N;
  skipHandled?: boolean;
  handle: (context: { event: EventEnvelope<N>; emit: Emit; log: Logger }) => Promise<void>;
  options?: ConsumerOptions;
}

export type Subscriber<N extends EventName, Tx, P = undefined> =
  TransactionalSubscriber<N, Tx, P> | IdempotentSubscriber<N> | EmittingSubscriber<N>;

/**
 * `defineSubscriber` bound to a service's transaction type, so subscriber files need no type arguments:
 * `export const defineSubscriber = subscriberDefiner<Tx>();` once in the service.
 */
export const subscriberDefiner =
  <Tx>() =>
  <N extends EventName, P = undefined>(subscriber: Subscriber<N, Tx, P>): Subscriber<N, Tx, P> =>
    subscriber;

/** Subscribes a subscriber to the bus with its once-only semantics and a logger naming the event. */
export async function bindSubscriber<N extends EventName, Tx extends SqlTransaction, P>(
  bus: EventBus,
  subscriber: Subscriber<N, Tx, P>,
  deps: {
    transaction: TransactionRunner<Tx>;
    isProcessed: (subscriber: string, eventId: string) => Promise<boolean>;
    /** Claims the event and writes its answers in one statement, then wakes the relay (emitting subscribers). */
    claimAndEmit?: (subscriber: string, eventId: string, rows: ReturnType<typeof outboxEvent>[]) => Promise<boolean>;
    log: Logger;
    /** The operator's settings by subscriber id (`SUBSCRIBERS`), over the subscriber's own. */
    overrides?: Record<string, ConsumerOptions> | undefined;
    /** The service the subscriber belongs to: its consumer spans carry its name. */
    service?: string;
  },
): Promise<void> {
  await bus.subscribe({
    event: subscriber.event,
    subscriber: subscriber.id,
    options: { ...subscriber.options, ...deps.overrides?.[subscriber.id] },
    // A CONSUMER span child of the publisher's (when traced), and the event's request id on every log line.
    handle: (event, trace) =>
      consumerSpan(deps.service ?? subscriber.id, subscriber.id, event, trace, () => handleEvent(event)),
  });

  function handleEvent(event: EventEnvelope<N>) {
    return runInContext({ requestId: event.requestId, eventId: event.id }, async () => {
      const traceId = activeTraceId();
      const log = deps.log.child({
        subscriber: subscriber.id,
        eventId: event.id,
        requestId: event.requestId,
        ...(traceId ? { traceId } : {}),
      });
      if (subscriber.kind === 'idempotent') return subscriber.handle({ event, log });
      if (subscriber.kind === 'emitting') {
        if (!deps.claimAndEmit) throw new Error(`${subscriber.id}: an emitting subscriber needs claimAndEmit`);
        if (subscriber.skipHandled && (await deps.isProcessed(subscriber.id, event.id))) return;
        const { rows, emit } = collector();
        await subscriber.handle({ event, emit, log });
        await deps.claimAndEmit(subscriber.id, event.id, rows);
        return;
      }
      if (subscriber.prepare && (await deps.isProcessed(subscriber.id, event.id))) return;
      const prepared = subscriber.prepare ? await subscriber.prepare(event, log) : (undefined as P);
      await deps.transaction(async (tx, emit) => {
        const claimed = await tx.$executeRawUnsafe(
          'INSERT INTO processed_events (subscriber, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
          subscriber.id,
          event.id,
        );
        if (claimed === 0) return; // handled before: a redelivery
        await subscriber.handle({ event, tx, emit, prepared, log });
      });
    });
  }
}
