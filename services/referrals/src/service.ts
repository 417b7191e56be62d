import {
  createDataService,
  defineService,
  pgTransactions,
  registerOperations,
  withOutbox,
  type DataService,
  type ServiceOptions,
} from '@app/kit';
import { readReferralsConfig, type ReferralsConfig } from './config.ts';
import { pgSql } from './db.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { impactReads } from './impact.ts';
import { leadReads } from './lead-reads.ts';
import { leadUseCases } from './leads.ts';
import { moneyUseCases } from './money.ts';
import { aiProgramSource, type ProgramSource } from './program-sources.ts';
import { referralProgramUseCases } from './programs.ts';
import { programsRepository } from './programs-repository.ts';
import { referralReads } from './reads.ts';
import { referralUseCases } from './referrals.ts';
import { referralRoutes } from './routes.ts';
import { bounties } from './subscribers/bounties.ts';
import { emailDraft } from './subscribers/email-draft.ts';
import { leadCriteria } from './subscribers/lead-criteria.ts';
import { programs } from './subscribers/programs.ts';
import { referrerEmail } from './subscribers/referrer-email.ts';
import { referrerProfile } from './subscribers/referrer-profile.ts';
import { vendors } from './subscribers/vendors.ts';

export type ReferralsService = DataService<PrismaClient>;

/**
 * Builds the referrals service (referrals, their routing to vendors and the vendors' lead inboxes, drafts
 * and stages, milestones confirmed by vendors, commissions and their ledger, payouts, program checks, the Impact dashboard):
 * migrations applied, operations registered, subscribers bound, outbox relay running once the app is ready. Not listening yet.
 */
export async function createReferralsService(options: ServiceOptions<ReferralsConfig>): Promise<ReferralsService> {
  const { config, bus } = options;
  // Writes go through Prisma, or plain SQL on its pool (the create); the dashboard's reads (reads.ts,
  // impact.ts), the relay, the send and the draft store share a plain pg pool.
  const service = await createDataService({
    name: 'referrals',
    config,
    migrations: new URL('../prisma/migrations', import.meta.url),
    bus,
    logger: options.logger,
    // Its list, impact and inbox reads, the send and the draft store are raw SQL on the pg pool; the create
    // (on the Prisma pool's connections) is the other hot path: half each. The creates stay apart, so that
    // past the ceiling they wait (and are refused 503) while the stages after them keep their connections.
    pgShare: 1 / 2,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  const { app, prisma, pool, prismaPool, transaction } = service;
  const settings = { currency: config.CURRENCY, dealValueMaxCents: config.DEAL_VALUE_MAX_CENTS };
  const reads = referralReads(pool, settings.currency);
  const money = moneyUseCases({ db: prisma, pool, transaction, reads, settings });
  const sources: ProgramSource[] = config.AI_URL ? [aiProgramSource({ ...config, AI_URL: config.AI_URL })] : [];
  registerOperations(
    app,
    'referrals',
    referralRoutes({
      referrals: referralUseCases({
        db: prisma,
        transaction,
        sql: pgSql(pool),
        sqlTransaction: withOutbox(pgTransactions(pool), service.relay),
        createTransaction: withOutbox(pgTransactions(prismaPool, { maxWaitMs: 2000 }), service.relay),
        reads,
        sendQuota: { perHour: config.SEND_RECIPIENTS_PER_HOUR, perDay: config.SEND_RECIPIENTS_PER_DAY },
      }),
      leads: leadUseCases({ db: prisma, transaction, reads: leadReads(pool, settings.currency), money, settings }),
      money,
      programs: referralProgramUseCases({
        repository: programsRepository(prisma),
        sources,
        recheckHours: config.PROGRAM_RECHECK_HOURS,
        log: app.log,
      }),
      reads,
      impact: impactReads(pool, settings.currency),
    }),
  );
  await service.subscribe(referrerProfile);
  await service.subscribe(referrerEmail);
  await service.subscribe(emailDraft(pool));
  await service.subscribe(programs);
  await service.subscribe(bounties);
  await service.subscribe(vendors);
  await service.subscribe(leadCriteria);
  return service;
}

export const referralsService = defineService({
  name: 'referrals',
  readConfig: readReferralsConfig,
  port: (config) => config.REFERRALS_PORT,
  create: createReferralsService,
});
