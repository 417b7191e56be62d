import { JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { natsConnectOptions } from './events/nats.ts';

/** One fixed window's count for a key: shared by every replica, or this process's own. */
export interface Counter {
  incr(key: string, windowMs: number): Promise<{ current: number; ttl: number }>;
}

/** The rate-limit bucket of a namespace: a NATS key-value bucket (a JetStream stream `KV_<bucket>`). */
export const rateLimitBucket = (namespace: string) => `rate_limits_${namespace.replace(/[^\w-]/g, '_')}`;

/**
 * Counters in NATS KV, so every gateway replica draws on one budget. Fixed windows: the key names the
 * window (hashed client key + window number), the increment is a compare-and-set on the key's last
 * revision (retried on conflict), and entries expire with the window (the bucket's max age).
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
      const now = Date.now();
      const window = Math.floor(now / windowMs);
      const subject = `$KV.${bucket}.${key}.${windowMs}.${window}`;
      const ttl = (window + 1) * windowMs - now;
      for (let attempt = 0; attempt < 30; attempt++) {
        const last = await jsm.streams.getMessage(stream, { last_by_subj: subject });
        const current = (last ? Number(new TextDecoder().decode(last.data)) : 0) + 1;
        try {
          await js.publish(subject, String(current), { expect: { lastSubjectSequence: last?.seq ?? 0 } });
          return { current, ttl };
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
  connect({ ...natsConnectOptions(url), name, maxReconnectAttempts: -1 });
