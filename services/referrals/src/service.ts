import { baseConfig, createServiceApp, port, readConfig } from '@app/kit';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { z } from 'zod';

export const referralsConfigSchema = z.object({ ...baseConfig, REFERRALS_PORT: port(4002) });
export type ReferralsConfig = z.output<typeof referralsConfigSchema>;
export const readReferralsConfig = (env?: Record<string, string | undefined>) => readConfig(referralsConfigSchema, env);

/** The referrals service. Its routes arrive with their issue; until then it answers health checks only. */
export async function createReferralsService(options: { config: ReferralsConfig; logger?: FastifyServerOptions['logger'] | false }): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const app = createServiceApp({ name: 'referrals', internalSecret: options.config.INTERNAL_SECRET, logger: options.logger });
  return { app, close: () => app.close() };
}
