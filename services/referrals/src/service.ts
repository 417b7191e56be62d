import { fileURLToPath } from 'node:url';
import { createPool, createServiceApp, migrate, OutboxRelay, prismaAdapter, type EventBus } from '@app/kit';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { ReferralsConfig } from './config.ts';
import { subscribeConsumers } from './consumers.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { aiProgramSource, referralProgramFinder, type ProgramSource } from './programs.ts';
import { referralReads } from './reads.ts';
import { referralRoutes } from './routes.ts';

export const SCHEMA = 'referrals';
const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export interface ReferralsService {
  app: FastifyInstance;
  relay: OutboxRelay;
  close(): Promise<void>;
}

/**
 * Builds the referrals service: migrations applied, routes registered, consumers subscribed, outbox
 * relay running once the app is ready. Not listening yet.
 */
export async function createReferralsService(options: {
  config: ReferralsConfig;
  bus: EventBus;
  logger?: FastifyServerOptions['logger'] | false;
}): Promise<ReferralsService> {
  const { config, bus } = options;
  await migrate(config.DATABASE_URL, SCHEMA, migrationsDir);
  // Writes go through Prisma; the dashboard's reads and the relay share a plain pg pool (see reads.ts).
  const prisma = new PrismaClient({ adapter: prismaAdapter(config.DATABASE_URL, SCHEMA, 5) });
  const pool = createPool(config.DATABASE_URL, SCHEMA, 10);
  const app = createServiceApp({
    name: 'referrals',
    internalSecret: config.INTERNAL_SECRET,
    logger: options.logger,
    readiness: [async () => void (await pool.query('SELECT 1'))],
  });
  // An idle connection the server drops (restart, failover, database dropped) must not crash the process.
  pool.on('error', (error) => app.log.warn({ err: error }, 'idle database connection failed'));
  const relay = new OutboxRelay({ pool, bus, logger: app.log });
  const sources: ProgramSource[] = config.AI_URL ? [aiProgramSource({ ...config, AI_URL: config.AI_URL })] : [];
  referralRoutes(app, {
    prisma,
    reads: referralReads(pool),
    relay,
    findReferralProgram: referralProgramFinder({ prisma, sources, recheckHours: config.PROGRAM_RECHECK_HOURS, log: app.log }),
  });
  await subscribeConsumers(bus, prisma, app.log);
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
