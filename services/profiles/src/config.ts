import { baseConfig, databaseConfig, port, readConfig } from '@app/kit';
import { z } from 'zod';

/** Standard Webhooks' (Svix's) schedule: after a failure wait 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .default('false')
  .transform((value) => ['true', '1', 'yes'].includes(value));

const delays = z
  .string()
  .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'must be a comma-separated list of milliseconds, e.g. 5000,300000')
  .transform((value) => value.split(',').map((ms) => Number(ms.trim())))
  .optional()
  .transform((value) => value ?? WEBHOOK_RETRY_DELAYS_MS);

export const profilesConfigSchema = z.object({
  ...baseConfig,
  ...databaseConfig,
  PROFILES_PORT: port(4004),
  /**
   * Webhook URLs may resolve to private, loopback and link-local addresses (development and tests only): by
   * default they must resolve to public addresses only, when registered and at every delivery.
   */
  WEBHOOK_ALLOW_PRIVATE: flag,
  /** The waits after each failed webhook attempt (the number of retries is their count), for tests. */
  WEBHOOK_RETRY_DELAYS_MS: delays,
  /** A PEM file of extra certificate authorities webhook endpoints may use (test servers' self-signed certs). */
  WEBHOOK_CA_FILE: z.string().min(1).optional(),
  /** How often the webhook worker looks for due deliveries when nothing woke it. */
  WEBHOOK_POLL_MS: z.coerce.number().int().positive().default(1000),
  /** How long one delivery attempt may take. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});

export type ProfilesConfig = z.output<typeof profilesConfigSchema>;

export const readProfilesConfig = (env?: Record<string, string | undefined>) => readConfig(profilesConfigSchema, env);
