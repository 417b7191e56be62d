import { createDataService, defineService, registerOperations, type DataService, type ServiceOptions } from '@app/kit';
import { readProfilesConfig, type ProfilesConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { membershipUseCases } from './membership.ts';
import { profileUseCases } from './profiles.ts';
import { profileRoutes } from './routes.ts';
import { emailVerified } from './subscribers/email-verified.ts';
import { userProfile } from './subscribers/user-profile.ts';
import { workspaceUseCases } from './workspaces.ts';

export type ProfilesService = DataService<PrismaClient>;

/**
 * Builds the profiles service (vendor workspaces, their lead criteria and bounties, demo requests): migrations applied, operations
 * registered, subscribers bound, outbox relay running once the app is ready. Not listening yet.
 */
export async function createProfilesService(options: ServiceOptions<ProfilesConfig>): Promise<ProfilesService> {
  const { config, bus } = options;
  const service = await createDataService({
    name: 'profiles',
    config,
    migrations: new URL('../prisma/migrations', import.meta.url),
    bus,
    logger: options.logger,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  const { transaction, prisma } = service;
  registerOperations(
    service.app,
    'profiles',
    profileRoutes({
      profiles: profileUseCases(transaction, prisma),
      workspaces: workspaceUseCases(transaction, prisma),
      membership: membershipUseCases(transaction),
    }),
  );
  await service.subscribe(userProfile);
  await service.subscribe(emailVerified);
  return service;
}

export const profilesService = defineService({
  name: 'profiles',
  readConfig: readProfilesConfig,
  port: (config) => config.PROFILES_PORT,
  create: createProfilesService,
});
