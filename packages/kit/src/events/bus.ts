import { events, type EventEnvelope, type EventName } from '@app/contracts';

export type EventHandler<N extends EventName = EventName> = (event: EventEnvelope<N>) => Promise<void>;

export interface Subscription<N extends EventName = EventName> {
  event: N;
  /** Stable id: one durable consumer per subscriber, shared by all instances of the service. */
  subscriber: string;
  handle: EventHandler<N>;
}

/**
 * One interface, two transports with one contract: JetStream between processes, in-process (stored in
 * PostgreSQL) when everything runs in one process. Delivery is at least once, each subscriber on its own;
 * subscribers make handling idempotent (`bindSubscriber` in subscriber.ts claims each event once).
 */
export interface EventBus {
  readonly kind: 'nats' | 'in-process';
  /** Resolves once the event is durably accepted (stored); subscribers handle it later, each on its own. */
  publish(event: EventEnvelope): Promise<void>;
  /** A durable, at-least-once subscription; a handler that throws gets the event again later. */
  subscribe<N extends EventName>(subscription: Subscription<N>): Promise<void>;
  /** Every running instance hears the event, best effort (for cache invalidation). */
  listen<N extends EventName>(event: N, handle: EventHandler<N>): Promise<void>;
  close(): Promise<void>;
}

export class InvalidEventError extends Error {}

/** Parses a delivered envelope against the event's contract. */
export function decodeEvent(data: Uint8Array | string): EventEnvelope {
  const raw = JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data)) as EventEnvelope;
  const schema = events[raw.name as EventName];
  if (!schema || typeof raw.id !== 'string') throw new InvalidEventError(`Unknown event ${String(raw.name)}`);
  const payload = schema.safeParse(raw.payload);
  if (!payload.success) throw new InvalidEventError(`Invalid payload for ${raw.name}: ${payload.error.message}`);
  return { ...raw, payload: payload.data } as EventEnvelope;
}

/** Backoff before an event whose handler failed is delivered again: 0.5 s doubling, at most 30 s. */
export const retryDelayMs = (attempt: number) => Math.min(30_000, 500 * 2 ** Math.min(Math.max(attempt - 1, 0), 6));
