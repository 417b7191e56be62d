import { baseConfig, createServiceApp, port, readConfig } from '@app/kit';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { z } from 'zod';

export const aiConfigSchema = z.object({ ...baseConfig, AI_PORT: port(4005) });
export type AiConfig = z.output<typeof aiConfigSchema>;
export const readAiConfig = (env?: Record<string, string | undefined>) => readConfig(aiConfigSchema, env);

/** The ai service. Its routes arrive with their issue; until then it answers health checks only. */
export async function createAiService(options: { config: AiConfig; logger?: FastifyServerOptions['logger'] | false }): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const app = createServiceApp({ name: 'ai', internalSecret: options.config.INTERNAL_SECRET, logger: options.logger });
  return { app, close: () => app.close() };
}
