import { baseConfig, databaseConfig, port, readConfig } from '@app/kit';
import { z } from 'zod';

export const authConfigSchema = z.object({
  ...baseConfig,
  ...databaseConfig,
  AUTH_PORT: port(4001),
  /** Where the web app is served; verification links point here, never at the request's Host. */
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  /** Comma-separated; these users are administrators once their email is verified. */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform(
      (list) =>
        new Set(
          list
            .split(',')
            .map((email) => email.trim().toLowerCase())
            .filter(Boolean),
        ),
    ),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 60),
  SESSION_MAX_DAYS: z.coerce.number().int().positive().default(30),
  /** A resend within this window of the last link is accepted but sends nothing: no inbox flooding. */
  RESEND_COOLDOWN_SECONDS: z.coerce.number().int().min(0).default(60),
  VERIFICATION_TTL_HOURS: z.coerce.number().int().positive().default(24),
  /** Force the Secure cookie flag; by default it follows PUBLIC_URL's scheme. */
  COOKIE_SECURE: z.enum(['true', 'false']).optional(),
});

export type AuthConfig = z.output<typeof authConfigSchema>;

export const readAuthConfig = (env?: Record<string, string | undefined>) => readConfig(authConfigSchema, env);
