import { createDataService, defineService, registerOperations, type DataService, type ServiceOptions } from '@app/kit';
import { readProfilesConfig, type ProfilesConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { profileUseCases } from './profiles.ts';
import { profilesRepository } from './repository.ts';
import { profileRoutes } from './routes.ts';
import { userProfile } from './subscribers/user-profile.ts';

export type ProfilesService = DataService<PrismaClient>;

/**
 * Builds the profiles service (lead criteria, bounties, demo requests): migrations applied, operations
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
  registerOperations(
    service.app,
    'profiles',
    profileRoutes({ repository: profilesRepository(service.prisma), useCases: profileUseCases(service.transaction) }),
  );
  await service.subscribe(userProfile);
  return service;
}

export const profilesService = defineService({
  name: 'profiles',
  readConfig: readProfilesConfig,
  port: (config) => config.PROFILES_PORT,
  create: createProfilesService,
});
