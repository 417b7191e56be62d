import { baseConfig, createServiceApp, port, readConfig } from '@app/kit';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { z } from 'zod';

export const profilesConfigSchema = z.object({ ...baseConfig, PROFILES_PORT: port(4004) });
export type ProfilesConfig = z.output<typeof profilesConfigSchema>;
export const readProfilesConfig = (env?: Record<string, string | undefined>) => readConfig(profilesConfigSchema, env);

/** The profiles service. Its routes arrive with their issue; until then it answers health checks only. */
export async function createProfilesService(options: { config: ProfilesConfig; logger?: FastifyServerOptions['logger'] | false }): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const app = createServiceApp({ name: 'profiles', internalSecret: options.config.INTERNAL_SECRET, logger: options.logger });
  return { app, close: () => app.close() };
}
