import type { PrismaPg } from '@prisma/adapter-pg';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type pg from 'pg';
import { createServiceApp } from './app.ts';
import { createPool, migrate, prismaAdapter } from './db.ts';
import type { EventBus } from './events/bus.ts';
import { OutboxRelay } from './events/outbox.ts';

export interface DataServiceOptions<P> {
  name: string;
  /** The service's own PostgreSQL schema. */
  schema: string;
  migrationsDir: string;
  databaseUrl: string;
  internalSecret: string;
  bus: EventBus;
  logger?: FastifyServerOptions['logger'] | false;
  bodyLimit?: number;
  /** Connections of the Prisma client's pool. */
  poolSize?: number;
  /** Connections of the plain pg pool (the outbox relay, and raw reads where a service has them). */
  pgPoolSize?: number;
  /** The service's generated Prisma client on the adapter, e.g. `(adapter) => new PrismaClient({ adapter })`. */
  prisma: (adapter: PrismaPg) => P;
}

export interface DataService<P> {
  app: FastifyInstance;
  prisma: P;
  pool: pg.Pool;
  relay: OutboxRelay;
  close(): Promise<void>;
}

/**
 * What every service that owns data starts with: its migrations applied, its Prisma client and a small
 * pool in its schema, the app (ready when the database answers), and the outbox relay, started once the
 * app is ready. `close` stops taking requests first, then the relay, then the connections.
 */
export async function createDataService<P extends { $disconnect(): Promise<void> }>(
  options: DataServiceOptions<P>,
): Promise<DataService<P>> {
  await migrate(options.databaseUrl, options.schema, options.migrationsDir);
  const prisma = options.prisma(prismaAdapter(options.databaseUrl, options.schema, options.poolSize ?? 5));
  const pool = createPool(options.databaseUrl, options.schema, options.pgPoolSize ?? 2);
  const app = createServiceApp({
    name: options.name,
    internalSecret: options.internalSecret,
    logger: options.logger,
    bodyLimit: options.bodyLimit,
    readiness: [async () => void (await pool.query('SELECT 1'))],
  });
  const relay = new OutboxRelay({ pool, bus: options.bus, logger: app.log });
  app.addHook('onReady', async () => relay.start());

  return {
    app,
    prisma,
    pool,
    relay,
    async close() {
      await app.close();
      await relay.stop();
      await pool.end();
      await prisma.$disconnect();
    },
  };
}
