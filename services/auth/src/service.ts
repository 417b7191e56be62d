import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import { createPool, createServiceApp, migrate, OutboxRelay, prismaAdapter, type EventBus } from '@app/kit';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { AuthConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { authRoutes } from './routes.ts';
import { sessionStore } from './sessions.ts';

export const SCHEMA = 'auth';
const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export interface AuthService {
  app: FastifyInstance;
  relay: OutboxRelay;
  close(): Promise<void>;
}

/** Builds the auth service: migrations applied, routes registered, outbox relay running. Not listening yet. */
export async function createAuthService(options: { config: AuthConfig; bus: EventBus; logger?: FastifyServerOptions['logger'] | false }): Promise<AuthService> {
  const { config, bus } = options;
  await migrate(config.DATABASE_URL, SCHEMA, migrationsDir);
  const prisma = new PrismaClient({ adapter: prismaAdapter(config.DATABASE_URL, SCHEMA) });
  const pool = createPool(config.DATABASE_URL, SCHEMA, 2);
  const app = createServiceApp({
    name: 'auth',
    internalSecret: config.INTERNAL_SECRET,
    logger: options.logger,
    readiness: [async () => void (await pool.query('SELECT 1'))],
  });
  const relay = new OutboxRelay({ pool, bus, logger: app.log });
  await app.register(cookie);
  authRoutes(app, { config, prisma, sessions: sessionStore(prisma, config), relay });
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
