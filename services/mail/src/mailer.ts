import type { sealer } from '@app/kit';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { MailConfig } from './config.ts';
import type { SendOnce } from './sender.ts';
import type { RenderedEmail } from './templates.ts';

/** What every email subscriber works with. */
export interface Mailer {
  config: MailConfig;
  sendOnce: SendOnce;
  /** Opens the link tokens the auth service seals into its events. */
  tokens: ReturnType<typeof sealer>;
  /** Emails go to the built-in catcher (`npm start` without SMTP_URL): links are logged for the developer too. */
  catching: boolean;
  /** Addresses whose emails the catcher withholds from its inbox (administrators): their links are not logged. */
  withholds?: (address: string) => boolean;
}

/**
 * A vendor team's addresses (its lead inbox and members) for one email: trimmed, blanks dropped, each once
 * whatever its case, in their first spelling.
 */
export function teamRecipients(recipients: string[]): string[] {
  const seen = new Set<string>();
  return recipients
    .map((address) => address.trim())
    .filter((address) => address && !seen.has(address.toLowerCase()) && seen.add(address.toLowerCase()));
}

/**
 * In development, the link of an email just sent, in the log next to where the inbox is; not for an
 * address the catcher withholds (it printed that link once itself).
 */
export function logLinkForDeveloper(
  mailer: Mailer,
  log: Logger,
  label: string,
  email: RenderedEmail,
  recipient?: string,
): void {
  if (!mailer.catching || (recipient && mailer.withholds?.(recipient))) return;
  const link = /https?:\/\/\S+/.exec(email.text)?.[0];
  log.info(`${label}: ${link} (all emails: ${mailer.config.PUBLIC_URL}/dev/inbox)`);
}
