import { createHmac, createSecretKey, hkdfSync, timingSafeEqual } from 'node:crypto';
import { EVENT_PRODUCERS, events, type EventEnvelope, type EventName, type ServiceName } from '@app/contracts';
import type { TraceCarrier } from '../tracing.ts';

/**
 * Handles one delivered event; `trace` is the trace context it was published under (NATS headers, or the
 * in-process bus's column), outside the signed envelope: it links spans, it proves nothing.
 */
export type EventHandler<N extends EventName = EventName> = (
  event: EventEnvelope<N>,
  trace?: TraceCarrier,
) => Promise<void>;

/**
 * How one subscriber consumes, per instance. Defaults (`CONSUMER_DEFAULTS`) suit quick database work; a
 * subscriber doing slow work (a model call) raises `ackWaitMs` or `concurrency` in its definition, and
 * operators override any of them per subscriber with `SUBSCRIBERS` (README "Operate").
 */
export interface ConsumerOptions {
  /** Handlers of this subscriber running at once in one instance. */
  concurrency?: number;
  /** Messages an instance takes ahead of its handlers (the pull batch; in process, the lease). */
  prefetch?: number;
  /** Messages delivered and not yet acknowledged, per subscriber across instances (JetStream max_ack_pending). */
  maxAckPending?: number;
  /** Unacknowledged this long, a message goes to another instance; a running handler signals progress every third of it. */
  ackWaitMs?: number;
  /** Deliveries before the message is dead-lettered (reason `max-deliveries`) instead of retried. */
  maxDeliver?: number;
}

export const CONSUMER_DEFAULTS: Required<ConsumerOptions> = {
  concurrency: 1,
  prefetch: 10,
  maxAckPending: 1000,
  ackWaitMs: 30_000,
  maxDeliver: 10,
};

export interface Subscription<N extends EventName = EventName> {
  event: N;
  /** Stable id: one durable consumer per subscriber, shared by all instances of the service. */
  subscriber: string;
  handle: EventHandler<N>;
  /** Over the bus's defaults. */
  options?: ConsumerOptions | undefined;
}

/**
 * Where a bus tells what happens to deliveries (metrics count them here): an event given again after its
 * handler failed or its ack wait ran out, and a message moved to the dead letters (refused, or past
 * `maxDeliver`).
 */
export interface BusHooks {
  redelivered?: (info: { subscriber: string; event: string; attempt: number }) => void;
  deadLettered?: (info: { subscriber: string; event: string | undefined; reason: DeadLetterReason }) => void;
}

/** A message a subscriber dead-lettered, as `deadLetters` lists it (never the payload). */
export interface DeadLetter {
  /** Its position in the dead letters (NATS: the dead-letter stream's sequence; in process: the message's). */
  seq: string;
  eventId: string | null;
  name: string | null;
  reason: DeadLetterReason;
  at: string;
}

/**
 * One interface, two transports with one contract: JetStream between processes, in-process (stored in
 * PostgreSQL) when everything runs in one process. Delivery is at least once, each subscriber on its own;
 * subscribers make handling idempotent (`bindSubscriber` in subscriber.ts claims each event once).
 */
export interface EventBus {
  readonly kind: 'nats' | 'in-process';
  /**
   * Resolves once the event is durably accepted (stored); subscribers handle it later, each on its own.
   * `trace` (the publisher's trace context) travels beside the signed envelope, to the subscribers.
   */
  publish(event: EventEnvelope, trace?: TraceCarrier): Promise<void>;
  /** A durable, at-least-once subscription; a handler that throws gets the event again later. */
  subscribe<N extends EventName>(subscription: Subscription<N>): Promise<void>;
  /** Every running instance hears the event, best effort (for cache invalidation). */
  listen<N extends EventName>(event: N, handle: EventHandler<N>): Promise<void>;
  /** The backlog of each subscriber this bus consumes for (read by the metrics when scraped). */
  pending?(): Promise<SubscriberBacklog[]>;
  /** Throws when the bus cannot deliver (NATS unreachable, its database down): readiness. */
  check(): Promise<void>;
  /** What a subscriber dead-lettered and still keeps (7 days). */
  deadLetters(subscriber: string): Promise<DeadLetter[]>;
  /**
   * Gives dead letters of reason `max-deliveries` back to their subscriber (only it), once: all of them, or
   * the one with event id `eventId`. Refused messages (forged, unsigned...) are never replayed. Returns the
   * event ids given back.
   */
  replay(subscriber: string, eventId?: string): Promise<string[]>;
  close(): Promise<void>;
}

/** How far behind a subscriber is. */
export interface SubscriberBacklog {
  subscriber: string;
  /** Events not delivered to it yet. */
  pending: number;
  /** Delivered, not acknowledged yet (being handled, or waiting for a retry). */
  unacknowledged: number;
}

/** Why a delivered message is refused (and dead-lettered) instead of handled. */
export type RefusalReason = 'malformed' | 'unsigned' | 'forged' | 'wrong-producer' | 'invalid-payload';
/** Why a message sits in the dead letters: refused, or its handler failed `maxDeliver` times. */
export type DeadLetterReason = RefusalReason | 'max-deliveries';

/** The subscriber's options: the bus's defaults, its definition's, then the operator's (`SUBSCRIBERS`). */
export const consumerOptions = (...layers: Array<ConsumerOptions | undefined>): Required<ConsumerOptions> =>
  Object.assign({}, CONSUMER_DEFAULTS, ...layers.map((layer) => (layer ? withoutUndefined(layer) : {})));
const withoutUndefined = (value: object) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));

/**
 * Runs `work` while calling `progress` every third of the ack wait, so a long handler (a model call) keeps
 * its message instead of having it delivered to another instance.
 */
export async function withProgress<T>(ackWaitMs: number, progress: () => void, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(progress, Math.max(50, Math.floor(ackWaitMs / 3)));
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** A tiny semaphore: at most `limit` tasks at once; `run` waits for a free slot, then starts the task. */
export function slots(limit: number) {
  const running = new Set<Promise<void>>();
  return {
    async run(task: () => Promise<void>) {
      while (running.size >= limit) await Promise.race(running);
      const done: Promise<void> = task()
        .catch(() => {})
        .finally(() => running.delete(done));
      running.add(done);
    },
    idle: () => Promise.allSettled([...running]),
  };
}

export class InvalidEventError extends Error {
  readonly reason: RefusalReason;
  /** The envelope's id and name when it had them: logged (never the payload). */
  readonly eventId: string | undefined;
  readonly eventName: string | undefined;

  constructor(reason: RefusalReason, message: string, raw?: { id?: unknown; name?: unknown }) {
    super(message);
    this.reason = reason;
    this.eventId = typeof raw?.id === 'string' ? raw.id.slice(0, 100) : undefined;
    this.eventName = typeof raw?.name === 'string' ? raw.name.slice(0, 100) : undefined;
  }
}

/** Log fields naming a refused message: its id, name and why, never its payload. */
export const refusalFields = (error: unknown) =>
  error instanceof InvalidEventError
    ? { eventId: error.eventId, event: error.eventName, reason: error.reason, detail: error.message }
    : { reason: 'malformed', detail: String(error) };

/** What travels on the bus: the envelope, the service that produced it and its signature. */
interface SignedEnvelope extends EventEnvelope {
  producer: ServiceName;
  signature: string;
}

/** JSON with object keys sorted at every level: the same value gives the same text on both sides. */
function canonicalJson(value: unknown): string {
  if (value && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Signs envelopes on the way out and checks them on the way in (HMAC-SHA256, key derived from
 * INTERNAL_SECRET with its own label). The signature covers id, name, occurredAt, requestId, the producing
 * service and the payload; a consumer also checks that the producer is the one `EVENT_PRODUCERS` names
 * for the event. `producer` is the service this bus publishes for (its own process); a bus shared by every
 * service (`npm start`) signs each event as its contract's producer.
 */
export function eventCodec(secret: string, producer?: ServiceName) {
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'referral-platform', 'event-signing', 32)));
  const mac = (event: EventEnvelope, by: string) =>
    createHmac('sha256', key)
      .update(
        canonicalJson([event.id, event.name, event.occurredAt, event.requestId ?? null, by, event.payload ?? null]),
      )
      .digest();

  return {
    /** The message to publish: one HMAC per event. */
    encode(event: EventEnvelope): string {
      const by = producer ?? EVENT_PRODUCERS[event.name];
      const signed: SignedEnvelope = { ...event, producer: by, signature: mac(event, by).toString('base64url') };
      return JSON.stringify(signed);
    },
    /** The envelope, checked: signature, producer, then the payload against the event's contract. */
    decode(data: Uint8Array | string): EventEnvelope {
      let raw: Partial<SignedEnvelope>;
      try {
        raw = JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data)) as Partial<SignedEnvelope>;
      } catch {
        throw new InvalidEventError('malformed', 'not JSON');
      }
      if (!raw || typeof raw !== 'object' || typeof raw.id !== 'string' || typeof raw.name !== 'string') {
        throw new InvalidEventError('malformed', 'not an event envelope', raw ?? undefined);
      }
      if (typeof raw.signature !== 'string' || typeof raw.producer !== 'string') {
        throw new InvalidEventError('unsigned', 'the event is not signed', raw);
      }
      const given = Buffer.from(raw.signature, 'base64url');
      const expected = mac(raw as EventEnvelope, raw.producer);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new InvalidEventError('forged', 'the signature does not match', raw);
      }
      const schema = events[raw.name as EventName];
      if (!schema) throw new InvalidEventError('malformed', 'unknown event', raw);
      if (EVENT_PRODUCERS[raw.name as EventName] !== raw.producer) {
        throw new InvalidEventError('wrong-producer', `${raw.producer} does not produce ${raw.name}`, raw);
      }
      const payload = schema.safeParse(raw.payload);
      if (!payload.success) {
        throw new InvalidEventError('invalid-payload', `invalid payload: ${payload.error.message}`, raw);
      }
      const { producer: _producer, signature: _signature, ...envelope } = raw as SignedEnvelope;
      return { ...envelope, payload: payload.data } as EventEnvelope;
    },
  };
}

export type EventCodec = ReturnType<typeof eventCodec>;

/** Backoff before an event whose handler failed is delivered again: 0.5 s doubling, at most 30 s. */
export const retryDelayMs = (attempt: number) => Math.min(30_000, 500 * 2 ** Math.min(Math.max(attempt - 1, 0), 6));
