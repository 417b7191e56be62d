import { JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { natsConnectOptions } from './events/nats.ts';
import { connecting } from './startup.ts';

/** A key's count in its current window (which starts at the key's first hit): shared, or this process's own. */
export interface Counter {
  incr(key: string, windowMs: number): Promise<{ current: number; ttl: number }>;
}

/** The rate-limit bucket of a namespace: a NATS key-value bucket (a JetStream stream `KV_<bucket>`). */
export const rateLimitBucket = (namespace: string) => `rate_limits_${namespace.replace(/[^\w-]/g, '_')}`;

/**
 * Counters in NATS KV, so every gateway replica draws on one budget. Fixed windows that start at a key's
 * first hit (as @fastify/rate-limit's own store counts); the increment is a compare-and-set on the key's
 * last revision (retried on conflict), and entries expire a window after their last write (max age).
 */
export async function natsCounter(
  nc: NatsConnection,
  options: { namespace: string; maxWindowMs: number },
): Promise<Counter> {
  const bucket = rateLimitBucket(options.namespace);
  const stream = `KV_${bucket}`;
  const jsm = await jetstreamManager(nc);
  const js = jetstream(nc);
  await jsm.streams.info(stream).catch(() =>
    jsm.streams.add({
      name: stream,
      subjects: [`$KV.${bucket}.>`],
      max_msgs_per_subject: 1,
      max_age: nanos(options.maxWindowMs),
      allow_rollup_hdrs: true,
      deny_delete: true,
    }),
  );
  return {
    async incr(key, windowMs) {
      const subject = `$KV.${bucket}.${key}.${windowMs}`;
      let ttl = windowMs;
      for (let attempt = 0; attempt < 30; attempt++) {
        const last = await jsm.streams.getMessage(stream, { last_by_subj: subject });
        const now = Date.now();
        // The value is `count:windowStart`; a window that has run out starts again at this attempt.
        const [count = 0, start = now] = last ? new TextDecoder().decode(last.data).split(':').map(Number) : [];
        const next = start + windowMs > now ? { count: count + 1, start } : { count: 1, start: now };
        ttl = next.start + windowMs - now;
        try {
          await js.publish(subject, `${next.count}:${next.start}`, { expect: { lastSubjectSequence: last?.seq ?? 0 } });
          return { current: next.count, ttl };
        } catch (error) {
          if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence)) {
            throw error;
          }
          // Another replica counted in between: read again and retry, a little later.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));
        }
      }
      // That many attempts at once on one key is itself an attack: counted as over any limit.
      return { current: Number.MAX_SAFE_INTEGER, ttl };
    },
  };
}

/** A plain NATS connection (credentials in the URL, as for the bus), for what is not an event. */
export const natsConnection = (url: string, name: string) =>
  connecting('NATS', 'NATS_URL', url, () => connect({ ...natsConnectOptions(url), name, maxReconnectAttempts: -1 }));
