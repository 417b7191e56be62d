import { defineSubscriber } from '../db.ts';
import type { Mailer } from '../mailer.ts';
import { passwordChangedEmail } from '../templates.ts';

/** The notice to the account's address that its password changed. */
export const sendPasswordChangedNotice = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-password-changed',
    event: 'password.changed',
    handle: async ({ event, log }) => {
      const { email, firstName } = event.payload;
      const rendered = passwordChangedEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        supportEmail: mailer.config.SUPPORT_EMAIL,
        firstName,
      });
      const outcome = await mailer.sendOnce(event.id, 'password-changed', { to: [email] }, rendered);
      log.info({ outcome }, 'password changed notice');
    },
  });
