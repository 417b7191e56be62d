import { createHash } from 'node:crypto';
import type { Counter } from '@app/kit';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger as Logger } from 'fastify';

/** Counters in this process's memory: `npm start`, where one gateway serves everything. */
export function memoryCounter(maxEntries = 50_000): Counter {
  const counts = new Map<string, { count: number; until: number }>();
  return {
    async incr(key, windowMs) {
      const now = Date.now();
      const id = `${key}.${windowMs}`;
      const found = counts.get(id);
      const entry = found && found.until > now ? found : { count: 0, until: now + windowMs };
      entry.count++;
      // Oldest first: the map is kept in insertion order, refreshed on each hit.
      counts.delete(id);
      counts.set(id, entry);
      for (const [oldKey, old] of counts) {
        if (counts.size <= maxEntries && old.until > now) break;
        counts.delete(oldKey);
      }
      return { current: entry.count, ttl: entry.until - now };
    },
  };
}

/**
 * The @fastify/rate-limit store over a counter: each route counts apart, client keys are hashed (no
 * address is written to NATS in clear). When the shared counter fails, this replica's own memory counts
 * instead (logged): limits get looser for a while, sign-in keeps working.
 */
export function rateLimitStore(counter: Counter, logger: Logger): FastifyRateLimitStoreCtor {
  const fallback = memoryCounter(10_000);
  const makeStore = (route: string): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow) {
      const hashed = createHash('sha256').update(`${route}\n${key}`).digest('hex').slice(0, 40);
      counter.incr(hashed, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => {
          logger.warn({ err: error }, 'shared rate-limit store failed; counting in this gateway only');
          fallback.incr(hashed, timeWindow).then((result) => callback(null, result), callback);
        },
      );
    },
    child: (options) => {
      // The plugin passes its merged options, the route itself under `routeInfo`.
      const route = (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? options;
      return makeStore(`${[route.method ?? ''].flat().join(',')} ${route.url ?? ''}`);
    },
  });
  return class {
    constructor() {
      return makeStore('');
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
