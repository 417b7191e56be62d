import { SERVICE_BODY_LIMITS } from '@app/contracts';
import { createDataService, defineService, registerOperations, type DataService, type ServiceOptions } from '@app/kit';
import { languageModel } from '@app/llm';
import { catalogueNeeds, catalogueSource, loadCatalogue } from './catalogue/catalogue.ts';
import { readAiConfig, type AiConfig } from './config.ts';
import { enrichmentCallbacks } from './enrichment/callback.ts';
import { enrichmentRequests } from './enrichment/requests.ts';
import { enrichmentWebhook } from './enrichment/webhook.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { Matcher } from './match/engine.ts';
import { programProducts } from './match/program-source.ts';
import { matchReadModel } from './match/read-model.ts';
import { smartMatch } from './match/smart-match.ts';
import { aiRoutes } from './routes.ts';
import { knownProducts } from './search/known-products.ts';
import { productSearch } from './search/search.ts';
import { enrichmentPost } from './subscribers/enrichment-post.ts';
import { introDraft, introDraftWithEnrichment } from './subscribers/intro-draft.ts';
import { knownProductsSubscriber } from './subscribers/known-products.ts';
import { matchBounties } from './subscribers/match-bounties.ts';
import { matchLeadCriteria } from './subscribers/match-lead-criteria.ts';
import { matchPrograms } from './subscribers/match-programs.ts';
import { matchVendors } from './subscribers/match-vendors.ts';

/** Search texts and match requests are short and enrichment callbacks carry one email: nothing legitimate is larger. */
const BODY_LIMIT = SERVICE_BODY_LIMITS.ai;

export type AiService = DataService<PrismaClient>;

/**
 * Builds the ai service: product search, Smart Match (read model of programs and vendor profiles), intro
 * drafts for new referrals, optional enrichment, the referral-program question. Migrations applied,
 * operations registered, subscribers bound; not listening yet.
 */
export async function createAiService(options: ServiceOptions<AiConfig>): Promise<AiService> {
  const { config } = options;
  const service = await createDataService({
    name: 'ai',
    config,
    migrations: new URL('../prisma/migrations', import.meta.url),
    bus: options.bus,
    logger: options.logger,
    bodyLimit: BODY_LIMIT,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  const { app, prisma } = service;
  const model = languageModel(config, app.log);

  // Smart Match: programs and vendor profiles from events, in memory for ranking, loaded before any request.
  const matcher = new Matcher();
  const readModel = matchReadModel({ prisma, matcher });
  await readModel.sync();

  const known = knownProducts(prisma);
  // Active referral programs first: among equal matches, the more trusted origin wins (ORIGINS).
  const catalogue = loadCatalogue();
  const search = productSearch({
    sources: [programProducts(matcher), catalogueSource(catalogue), known],
    model,
    needs: catalogueNeeds(catalogue),
  });

  const webhook =
    config.ENRICHMENT_WEBHOOK_URL && config.ENRICHMENT_WEBHOOK_SECRET
      ? enrichmentWebhook({
          url: config.ENRICHMENT_WEBHOOK_URL,
          secret: config.ENRICHMENT_WEBHOOK_SECRET,
          timeoutMs: config.ENRICHMENT_TIMEOUT_MS,
          maxRetries: config.ENRICHMENT_MAX_RETRIES,
        })
      : null;

  registerOperations(
    app,
    'ai',
    aiRoutes({
      search,
      match: smartMatch({ matcher, readModel, model }),
      callbacks: enrichmentCallbacks({
        transaction: service.transaction,
        secret: webhook ? (config.ENRICHMENT_WEBHOOK_SECRET ?? null) : null,
      }),
      webhook,
      model,
    }),
  );

  if (webhook) {
    await service.subscribe(introDraftWithEnrichment({ model }));
    const callbackUrl = new URL('/api/enrichment/callback', config.PUBLIC_URL).href;
    await service.subscribe(enrichmentPost(enrichmentRequests({ prisma, webhook, callbackUrl })));
  } else await service.subscribe(introDraft({ model }));
  await service.subscribe(knownProductsSubscriber(known));
  await service.subscribe(matchPrograms(readModel));
  await service.subscribe(matchVendors(readModel));
  await service.subscribe(matchLeadCriteria(readModel));
  await service.subscribe(matchBounties(readModel));
  return service;
}

export const aiService = defineService({
  name: 'ai',
  readConfig: readAiConfig,
  port: (config) => config.AI_PORT,
  create: createAiService,
});
