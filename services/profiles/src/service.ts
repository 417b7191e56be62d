import { fileURLToPath } from 'node:url';
import { createDataService, type DataService, type EventBus } from '@app/kit';
import type { FastifyServerOptions } from 'fastify';
import type { ProfilesConfig } from './config.ts';
import { subscribeConsumers } from './consumers.ts';
import { demoRequestRoutes } from './demo.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { profileRoutes } from './routes.ts';

export const SCHEMA = 'profiles';
const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export type ProfilesService = DataService<PrismaClient>;

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
  const service = await createDataService({
    name: 'profiles',
    schema: SCHEMA,
    migrationsDir,
    databaseUrl: config.DATABASE_URL,
    internalSecret: config.INTERNAL_SECRET,
    bus,
    logger: options.logger,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  profileRoutes(service.app, { prisma: service.prisma, relay: service.relay });
  demoRequestRoutes(service.app, { prisma: service.prisma, relay: service.relay });
  await subscribeConsumers(bus, service.prisma);
  return service;
}
