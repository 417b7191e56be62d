import { baseConfig, databaseConfig, port, readConfig } from '@app/kit';
import { z } from 'zod';

export const profilesConfigSchema = z.object({ ...baseConfig, ...databaseConfig, PROFILES_PORT: port(4004) });

export type ProfilesConfig = z.output<typeof profilesConfigSchema>;

export const readProfilesConfig = (env?: Record<string, string | undefined>) => readConfig(profilesConfigSchema, env);
