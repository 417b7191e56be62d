import { createDataService, defineService, registerOperations, type DataService, type ServiceOptions } from '@app/kit';
import { readProfilesConfig, type ProfilesConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { membershipUseCases } from './membership.ts';
import { profileUseCases } from './profiles.ts';
import { profileRoutes } from './routes.ts';
import { emailVerified } from './subscribers/email-verified.ts';
import { userProfile } from './subscribers/user-profile.ts';
import { webhookCommissionCreated } from './subscribers/webhook-commission.ts';
import { webhookLeadCreated } from './subscribers/webhook-lead-created.ts';
import { webhookLeadStatusChanged } from './subscribers/webhook-lead-status.ts';
import { webhookSender } from './webhook-sender.ts';
import { WebhookWorker } from './webhook-worker.ts';
import { webhookUseCases } from './webhooks.ts';
import { workspaceUseCases } from './workspaces.ts';

export type ProfilesService = DataService<PrismaClient> & { webhooks: WebhookWorker };

/**
 * Builds the profiles service (vendor workspaces, their lead criteria, bounties and webhooks, demo requests):
 * migrations applied, operations registered, subscribers bound, outbox relay and webhook worker running once
 * the app is ready (the worker stops when the app closes). Not listening yet.
 */
export async function createProfilesService(options: ServiceOptions<ProfilesConfig>): Promise<ProfilesService> {
  const { config, bus } = options;
  const service = await createDataService({
    name: 'profiles',
    config,
    migrations: new URL('../prisma/migrations', import.meta.url),
    bus,
    logger: options.logger,
    // The relay and the webhook worker (claims and outcomes).
    pgShare: 1 / 2,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  const { app, transaction, prisma, pool } = service;
  const worker = new WebhookWorker({
    pool,
    attempt: webhookSender({
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      caFile: config.WEBHOOK_CA_FILE,
    }),
    logger: app.log,
    retryDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS,
    pollMs: config.WEBHOOK_POLL_MS,
  });
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
  registerOperations(
    service.app,
    'profiles',
    profileRoutes({
      profiles: profileUseCases(transaction, prisma),
      workspaces: workspaceUseCases(transaction, prisma),
      membership: membershipUseCases(transaction),
      webhooks: webhookUseCases({
        transaction,
        db: prisma,
        allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
        kick: () => worker.kick(),
      }),
    }),
  );
  await service.subscribe(userProfile);
  await service.subscribe(emailVerified);
  await service.subscribe(webhookLeadCreated);
  await service.subscribe(webhookLeadStatusChanged);
  await service.subscribe(webhookCommissionCreated);
  return { ...service, webhooks: worker };
}

export const profilesService = defineService({
  name: 'profiles',
  readConfig: readProfilesConfig,
  port: (config) => config.PROFILES_PORT,
  create: createProfilesService,
});
