import { fileURLToPath } from 'node:url';
import type { EventName, ServiceName } from '@app/contracts';
import type { PrismaPg } from '@prisma/adapter-pg';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type pg from 'pg';
import { createServiceApp } from './app.ts';
import { createPool, databaseReadiness, migrateService, prepared, prismaAdapter } from './db.ts';
import type { ConsumerOptions, EventBus } from './events/bus.ts';
import { observeOutbox } from './metrics.ts';
import { connecting } from './startup.ts';
import {
  batchedClaimAndEmit,
  OutboxRelay,
  withOutbox,
  type SqlTransaction,
  type TransactionalClient,
  type TransactionOf,
  type TransactionRunner,
} from './events/outbox.ts';
import { bindSubscriber, type Subscriber } from './events/subscriber.ts';

export interface DataServiceOptions<P> {
  /** The service: its name, its PostgreSQL schema, and whose contract operations its routes must be. */
  name: ServiceName;
  /** Its committed Prisma migrations (`new URL('../prisma/migrations', import.meta.url)`). */
  migrations: URL;
  config: {
    DATABASE_URL: string;
    INTERNAL_SECRET: string;
    /** The process's connection budget (default 6), split between the Prisma pool and the pg pool. */
    DATABASE_POOL_MAX?: number | undefined;
    APP_VERSION?: string | undefined;
    /** Consumer settings by subscriber id, over the subscribers' own. */
    SUBSCRIBERS?: Record<string, ConsumerOptions> | undefined;
  };
  bus: EventBus;
  logger?: FastifyServerOptions['logger'] | false;
  bodyLimit?: number;
  /**
   * The share of DATABASE_POOL_MAX for the plain pg pool (the outbox relay, and raw reads where a service
   * has them; at least 2), the rest for the Prisma client's pool (at least 1). Default 1/3.
   */
  pgShare?: number;
  /** The service's generated Prisma client on the adapter, e.g. `(adapter) => new PrismaClient({ adapter })`. */
  prisma: (adapter: PrismaPg) => P;
}

/** What every create<Name>Service takes: its configuration, the bus, and a logger (false in tests). */
export interface ServiceOptions<C> {
  config: C;
  bus: EventBus;
  logger?: FastifyServerOptions['logger'] | false;
}

export interface DataService<P> {
  app: FastifyInstance;
  prisma: P;
  pool: pg.Pool;
  /** The Prisma client's own pool: plain SQL on it waits where Prisma's transactions wait, apart from `pool`. */
  prismaPool: pg.Pool;
  relay: OutboxRelay;
  /** A transaction whose emitted events are written in it and relayed after the commit (`withOutbox`). */
  transaction: TransactionRunner<TransactionOf<P>>;
  /** Subscribes to an event with its once-only semantics (see events/subscriber.ts). */
  subscribe<N extends EventName, R>(subscriber: Subscriber<N, TransactionOf<P>, R>): Promise<void>;
  close(): Promise<void>;
}

/** A process's connection budget split between its two pools: together never more than `max` (at least 3). */
export function poolSizes(max: number, pgShare: number): { prisma: number; pg: number } {
  const pg = Math.max(2, Math.round(max * pgShare));
  return { pg, prisma: Math.max(1, max - pg) };
}

type PrismaLike = { $disconnect(): Promise<void> } & TransactionalClient<SqlTransaction>;

/**
 * What every service that owns data starts with: its migrations and the kit's platform tables applied, its
 * Prisma client and a small pool in its schema, the app (ready when the database answers; only contract
 * routes), the transaction-with-outbox runner, subscriptions, and the outbox relay, started once the app
 * is ready. `close` stops taking requests first, then the relay, then the connections.
 */
export async function createDataService<P extends PrismaLike>(options: DataServiceOptions<P>): Promise<DataService<P>> {
  const { DATABASE_URL: databaseUrl, INTERNAL_SECRET: internalSecret } = options.config;
  const schema = options.name;
  await connecting('PostgreSQL', 'DATABASE_URL', databaseUrl, () =>
    migrateService(databaseUrl, schema, fileURLToPath(options.migrations)),
  );
  const sizes = poolSizes(options.config.DATABASE_POOL_MAX ?? 6, options.pgShare ?? 1 / 3);
  const adapter = prismaAdapter(databaseUrl, schema, sizes.prisma);
  const prisma = options.prisma(adapter.adapter);
  const pool = createPool(databaseUrl, schema, sizes.pg);
  const app = createServiceApp({
    name: options.name,
    service: options.name,
    internalSecret,
    logger: options.logger,
    bodyLimit: options.bodyLimit,
    readiness: {
      database: databaseReadiness([pool, adapter.pool]),
      // No events delivered or published without it: NATS (or the in-process bus's database).
      events: () => options.bus.check(),
    },
    version: options.config.APP_VERSION,
  });
  const relay = new OutboxRelay({ pool, bus: options.bus, logger: app.log, service: options.name });
  app.addHook('onReady', async () => relay.start());
  const stopObservingOutbox = observeOutbox(schema, pool);
  const transaction = withOutbox(
    prisma as unknown as TransactionalClient<TransactionOf<P>>,
    relay,
  ) as TransactionRunner<TransactionOf<P>>;
  const isProcessed = async (subscriber: string, eventId: string) =>
    (
      await pool.query(
        prepared('SELECT 1 FROM processed_events WHERE subscriber = $1 AND event_id = $2', [subscriber, eventId]),
      )
    ).rowCount === 1;
  // The emitting subscribers' claims of this process, made at once, share one statement.
  const claimOnce = batchedClaimAndEmit(pool, `${options.name}.claim_and_emit`);

  return {
    app,
    prisma,
    pool,
    prismaPool: adapter.pool,
    relay,
    transaction,
    subscribe: (subscriber) =>
      bindSubscriber(options.bus, subscriber as never, {
        transaction: transaction as unknown as TransactionRunner<SqlTransaction>,
        isProcessed,
        claimAndEmit: async (subscriber, eventId, rows) => {
          const claimed = await claimOnce({ subscriber, eventId, rows });
          if (claimed && rows.length) relay.kick(rows.map((row) => row.id));
          return claimed;
        },
        log: app.log,
        overrides: options.config.SUBSCRIBERS,
        service: options.name,
      }),
    async close() {
      stopObservingOutbox();
      await app.close();
      await relay.stop();
      await pool.end();
      await prisma.$disconnect();
      // $disconnect ends the adapter's pool only when Prisma itself had connected through it: a service whose
      // only use of that pool was `prismaPool` (the create's pg transactions) kept its connections open.
      if (!adapter.pool.ending) await adapter.pool.end();
    },
  };
}
