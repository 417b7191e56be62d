import { fileURLToPath } from 'node:url';
import { createDataService, type DataService, type EventBus } from '@app/kit';
import type { FastifyServerOptions } from 'fastify';
import type { ReferralsConfig } from './config.ts';
import { scheduleRetention } from './commissions.ts';
import { subscribeConsumers } from './consumers.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { impactReads } from './impact.ts';
import { aiProgramSource, referralProgramFinder, type ProgramSource } from './programs.ts';
import { referralReads } from './reads.ts';
import { referralRoutes } from './routes.ts';

export const SCHEMA = 'referrals';
const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export type ReferralsService = DataService<PrismaClient>;

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
  // Writes go through Prisma; the dashboard's reads and the relay share a plain pg pool (see reads.ts).
  const service = await createDataService({
    name: 'referrals',
    schema: SCHEMA,
    migrationsDir,
    databaseUrl: config.DATABASE_URL,
    internalSecret: config.INTERNAL_SECRET,
    bus,
    logger: options.logger,
    pgPoolSize: 10,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  const { app, prisma, pool, relay } = service;
  const sources: ProgramSource[] = config.AI_URL ? [aiProgramSource({ ...config, AI_URL: config.AI_URL })] : [];
  referralRoutes(app, {
    prisma,
    reads: referralReads(pool),
    relay,
    pool,
    impact: impactReads(pool),
    findReferralProgram: referralProgramFinder({
      prisma,
      sources,
      recheckHours: config.PROGRAM_RECHECK_HOURS,
      log: app.log,
    }),
  });
  await subscribeConsumers(bus, prisma, app.log);
  // Retention bonuses: checked at start and every RETENTION_CHECK_MS (see commissions.ts).
  const stopRetention = scheduleRetention(prisma, app.log, config.RETENTION_CHECK_MS);
  app.addHook('onClose', async () => stopRetention());
  return service;
}
