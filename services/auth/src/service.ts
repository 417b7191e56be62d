import cookie from '@fastify/cookie';
import { createDataService, defineService, registerOperations, type DataService, type ServiceOptions } from '@app/kit';
import { accountUseCases } from './accounts.ts';
import { readAuthConfig, type AuthConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { authRoutes } from './routes.ts';
import { sessionUseCases } from './sessions.ts';
import { verificationUseCases } from './verification.ts';

export type AuthService = DataService<PrismaClient>;

/**
 * Builds the auth service (accounts, sessions, verification links): migrations applied, operations
 * registered, outbox relay running once the app is ready. Not listening yet.
 */
export async function createAuthService(options: ServiceOptions<AuthConfig>): Promise<AuthService> {
  const { config } = options;
  const service = await createDataService({
    name: 'auth',
    config,
    migrations: new URL('../prisma/migrations', import.meta.url),
    bus: options.bus,
    logger: options.logger,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  await service.app.register(cookie);
  const db = service.prisma;
  const { transaction } = service;
  const sessions = sessionUseCases({ db, transaction, config });
  const verification = verificationUseCases({ transaction, config, sessions });
  const accounts = accountUseCases({ db, transaction, config, sessions, verification });
  registerOperations(service.app, 'auth', authRoutes({ config, accounts, sessions, verification }));
  return service;
}

export const authService = defineService({
  name: 'auth',
  readConfig: readAuthConfig,
  port: (config) => config.AUTH_PORT,
  create: createAuthService,
});
