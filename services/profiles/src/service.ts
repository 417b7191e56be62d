import { fileURLToPath } from 'node:url';
import { createPool, createServiceApp, migrate, OutboxRelay, prismaAdapter, type EventBus } from '@app/kit';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { ProfilesConfig } from './config.ts';
import { subscribeConsumers } from './consumers.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { profileRoutes } from './routes.ts';

export const SCHEMA = 'profiles';
const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export interface ProfilesService {
  app: FastifyInstance;
  relay: OutboxRelay;
  close(): Promise<void>;
}

/**
 * Builds the profiles service (lead criteria and bounties): migrations applied, routes registered,
 * consumers subscribed, outbox relay running once the app is ready. Not listening yet.
 */
export async function createProfilesService(options: {
  config: ProfilesConfig;
  bus: EventBus;
  logger?: FastifyServerOptions['logger'] | false;
}): Promise<ProfilesService> {
  const { config, bus } = options;
  await migrate(config.DATABASE_URL, SCHEMA, migrationsDir);
  const prisma = new PrismaClient({ adapter: prismaAdapter(config.DATABASE_URL, SCHEMA, 5) });
  const pool = createPool(config.DATABASE_URL, SCHEMA, 5);
  const app = createServiceApp({
    name: 'profiles',
    internalSecret: config.INTERNAL_SECRET,
    logger: options.logger,
    readiness: [async () => void (await pool.query('SELECT 1'))],
  });
  // An idle connection the server drops (restart, failover, database dropped) must not crash the process.
  pool.on('error', (error) => app.log.warn({ err: error }, 'idle database connection failed'));
  const relay = new OutboxRelay({ pool, bus, logger: app.log });
  profileRoutes(app, { prisma, relay });
  await subscribeConsumers(bus, prisma);
  app.addHook('onReady', async () => relay.start());

  return {
    app,
    relay,
    async close() {
      await app.close();
      await relay.stop();
      await pool.end();
      await prisma.$disconnect();
    },
  };
}
