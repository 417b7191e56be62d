import { baseConfig, createServiceApp, port, readConfig } from '@app/kit';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { z } from 'zod';

export const programsConfigSchema = z.object({ ...baseConfig, PROGRAMS_PORT: port(4003) });
export type ProgramsConfig = z.output<typeof programsConfigSchema>;
export const readProgramsConfig = (env?: Record<string, string | undefined>) => readConfig(programsConfigSchema, env);

/** The programs service. Its routes arrive with their issue; until then it answers health checks only. */
export async function createProgramsService(options: { config: ProgramsConfig; logger?: FastifyServerOptions['logger'] | false }): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const app = createServiceApp({ name: 'programs', internalSecret: options.config.INTERNAL_SECRET, logger: options.logger });
  return { app, close: () => app.close() };
}
