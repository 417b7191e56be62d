import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import { createDataService, type DataService, type EventBus } from '@app/kit';
import type { FastifyServerOptions } from 'fastify';
import type { AuthConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { authRoutes } from './routes.ts';
import { sessionStore } from './sessions.ts';

export const SCHEMA = 'auth';
const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export type AuthService = DataService<PrismaClient>;

/** Builds the auth service: migrations applied, routes registered, outbox relay running. Not listening yet. */
export async function createAuthService(options: {
  config: AuthConfig;
  bus: EventBus;
  logger?: FastifyServerOptions['logger'] | false;
}): Promise<AuthService> {
  const { config } = options;
  const service = await createDataService({
    name: 'auth',
    schema: SCHEMA,
    migrationsDir,
    databaseUrl: config.DATABASE_URL,
    internalSecret: config.INTERNAL_SECRET,
    bus: options.bus,
    logger: options.logger,
    poolSize: 10,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  const { app, prisma, relay } = service;
  await app.register(cookie);
  authRoutes(app, { config, prisma, sessions: sessionStore(prisma, config), relay });
  return service;
}
