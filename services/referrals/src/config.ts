import { baseConfig, databaseConfig, port, readConfig } from '@app/kit';
import { z } from 'zod';

export const referralsConfigSchema = z.object({
  ...baseConfig,
  ...databaseConfig,
  REFERRALS_PORT: port(4002),
  /** The AI service, asked about a vendor's referral program when no program is known; unset: never asked. */
  AI_URL: z.url().optional(),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** After the AI provider knew no program for a product, it is not asked again for this long. */
  PROGRAM_RECHECK_HOURS: z.coerce.number().min(0).default(24),
  /** How often Closed-Won referrals are checked for a due retention bonus (also once at start). */
  RETENTION_CHECK_MS: z.coerce.number().int().positive().default(3_600_000),
});

export type ReferralsConfig = z.output<typeof referralsConfigSchema>;

export const readReferralsConfig = (env?: Record<string, string | undefined>) => readConfig(referralsConfigSchema, env);
