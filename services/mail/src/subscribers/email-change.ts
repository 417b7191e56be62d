import { defineSubscriber } from '../db.ts';
import { logLinkForDeveloper, type Mailer } from '../mailer.ts';
import { emailChangeEmail } from '../templates.ts';

/** The link that confirms a new address, sent to that address. */
export const sendEmailChangeLink = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-email-change',
    event: 'email_change.requested',
    handle: async ({ event, log }) => {
      const { userId, newEmail, firstName, sealedToken, expiresAt } = event.payload;
      const rendered = emailChangeEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        firstName,
        userId,
        newEmail,
        token: mailer.tokens.open(sealedToken),
        expiresAt: new Date(expiresAt),
      });
      const outcome = await mailer.sendOnce(event.id, 'email-change', { to: [newEmail] }, rendered);
      log.info({ outcome }, 'email change link');
      if (outcome === 'sent') logLinkForDeveloper(mailer, log, `Email change link for ${newEmail}`, rendered, newEmail);
    },
  });
