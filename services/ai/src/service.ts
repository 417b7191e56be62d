import { fileURLToPath } from 'node:url';
import { createDataService, type DataService, type EventBus } from '@app/kit';
import type { FastifyServerOptions } from 'fastify';
import { catalogueSource } from './catalogue/catalogue.ts';
import type { AiConfig } from './config.ts';
import { INTRO_DRAFT_SUBSCRIBER, introDrafts } from './drafts/intro-drafts.ts';
import { enrichmentRequests } from './enrichment/requests.ts';
import { enrichmentRoutes } from './enrichment/routes.ts';
import { enrichmentWebhook } from './enrichment/webhook.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { languageModel } from '@app/llm';
import { Matcher } from './match/engine.ts';
import { programProducts } from './match/program-source.ts';
import { MATCH_SUBSCRIBERS, matchReadModel } from './match/read-model.ts';
import { matchRoutes, smartMatch } from './match/routes.ts';
import { referralProgramRoutes } from './programs/referral-program.ts';
import { knownProducts } from './search/known-products.ts';
import { searchRoutes } from './search/routes.ts';
import { productSearch } from './search/search.ts';

export const SCHEMA = 'ai';
const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

/** Search texts and match requests are short and enrichment callbacks carry one email: nothing legitimate is larger. */
const BODY_LIMIT = 64 * 1024;

export type AiService = DataService<PrismaClient>;

/**
 * Builds the ai service: product search, Smart Match (read model of programs and vendor profiles), intro drafts for new referrals (through its outbox), optional
 * enrichment, the referral-program question. Migrations applied, subscriptions made; not listening yet.
 */
export async function createAiService(options: {
  config: AiConfig;
  bus: EventBus;
  logger?: FastifyServerOptions['logger'] | false;
}): Promise<AiService> {
  const { config, bus } = options;
  const service = await createDataService({
    name: 'ai',
    schema: SCHEMA,
    migrationsDir,
    databaseUrl: config.DATABASE_URL,
    internalSecret: config.INTERNAL_SECRET,
    bus,
    logger: options.logger,
    bodyLimit: BODY_LIMIT,
    poolSize: 4,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  const { app, prisma, relay } = service;
  const model = languageModel(config, app.log);

  // Smart Match: programs and vendor profiles from events, in memory for ranking, loaded before any request.
  const matcher = new Matcher();
  const readModel = matchReadModel({ prisma, matcher, log: app.log });
  await readModel.sync();

  const known = knownProducts(prisma);
  // Active referral programs first: among equal matches, the more trusted origin wins (ORIGINS).
  const search = productSearch({ sources: [programProducts(matcher), catalogueSource(), known], model });

  const webhook =
    config.ENRICHMENT_WEBHOOK_URL && config.ENRICHMENT_WEBHOOK_SECRET
      ? enrichmentWebhook({
          url: config.ENRICHMENT_WEBHOOK_URL,
          secret: config.ENRICHMENT_WEBHOOK_SECRET,
          timeoutMs: config.ENRICHMENT_TIMEOUT_MS,
          maxRetries: config.ENRICHMENT_MAX_RETRIES,
        })
      : null;
  const requests = webhook
    ? enrichmentRequests({ prisma, webhook, callbackUrl: new URL('/api/enrichment/callback', config.PUBLIC_URL).href })
    : null;

  searchRoutes(app, search);
  enrichmentRoutes(app, { prisma, relay, secret: config.ENRICHMENT_WEBHOOK_SECRET, webhook, requests });
  referralProgramRoutes(app, model);
  matchRoutes(app, smartMatch({ matcher, readModel, model }));

  await bus.subscribe({
    event: 'referral.created',
    subscriber: INTRO_DRAFT_SUBSCRIBER,
    handle: introDrafts({ prisma, relay, model, enrichment: requests, log: app.log }),
  });
  await bus.subscribe({
    event: 'referral.created',
    subscriber: 'ai-known-products',
    handle: async (event) => known.remember(event.payload.project),
  });
  await bus.subscribe({
    event: 'program.saved',
    subscriber: MATCH_SUBSCRIBERS.programs,
    handle: readModel.programSaved,
  });
  await bus.subscribe({
    event: 'lead_criteria.saved',
    subscriber: MATCH_SUBSCRIBERS.leadCriteria,
    handle: readModel.leadCriteriaSaved,
  });
  await bus.subscribe({
    event: 'bounties.saved',
    subscriber: MATCH_SUBSCRIBERS.bounties,
    handle: readModel.bountiesSaved,
  });
  return service;
}
