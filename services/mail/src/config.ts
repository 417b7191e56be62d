import { baseConfig, databaseConfig, port, readConfig } from '@app/kit';
import { z } from 'zod';

export const mailConfigSchema = z.object({
  ...baseConfig,
  ...databaseConfig,
  MAIL_PORT: port(4006),
  /** smtp://user:pass@host:port (smtps:// for implicit TLS). Unset in `npm start`: a built-in catcher. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL'),
  MAIL_FROM: z.string().min(3).default('Referral Hub <no-reply@referralhub.local>'),
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  APP_NAME: z.string().min(1).default('Referral Hub'),
  /** Where demo requests from the public site are sent (Reply-To is the requester). */
  SALES_EMAIL: z.email().default('sales@referralhub.local'),
  /** Named in account notices (password changed) as the address to write to if it was not the user. */
  SUPPORT_EMAIL: z.email().default('support@referralhub.local'),
});

export type MailConfig = z.output<typeof mailConfigSchema>;

export const readMailConfig = (env?: Record<string, string | undefined>) => readConfig(mailConfigSchema, env);
