import { DEFAULT_CURRENCY, DEFAULT_DEAL_VALUE_MAX_CENTS } from '@app/domain';
import { baseConfig, databaseConfig, port, readConfig } from '@app/kit';
import { z } from 'zod';

export const referralsConfigSchema = z.object({
  ...baseConfig,
  ...databaseConfig,
  REFERRALS_PORT: port(4002),
  /** The AI service, asked about a vendor's referral program when no program is known; unset: never asked. */
  AI_URL: z.url().optional(),
  /** How long the program check waits for the AI service before it answers "couldn't check" (issue 11). */
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(8_000),
  /** Intro email recipients (To + Cc + Bcc) one user may reach per rolling hour and per rolling day (issue 11). */
  SEND_RECIPIENTS_PER_HOUR: z.coerce.number().int().positive().default(50),
  SEND_RECIPIENTS_PER_DAY: z.coerce.number().int().positive().default(200),
  /** After the AI provider knew no program for a product, it is not asked again for this long. */
  PROGRAM_RECHECK_HOURS: z.coerce.number().min(0).default(24),
  /** The platform's one currency (ISO 4217), answered with every amount. */
  CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'CURRENCY must be an ISO 4217 code such as USD')
    .default(DEFAULT_CURRENCY),
  /** The highest deal value a vendor may enter, in cents (default $10,000,000). */
  DEAL_VALUE_MAX_CENTS: z.coerce
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .default(DEFAULT_DEAL_VALUE_MAX_CENTS),
});

export type ReferralsConfig = z.output<typeof referralsConfigSchema>;

export const readReferralsConfig = (env?: Record<string, string | undefined>) => readConfig(referralsConfigSchema, env);
