import { defineSubscriber } from '../db.ts';
import type { Mailer } from '../mailer.ts';
import { signUpAttemptEmail } from '../templates.ts';

/** Someone tried to register an address that has an account: its owner is told (sign-up itself says nothing). */
export const sendSignUpAttemptNotice = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-sign-up-attempted',
    event: 'user.sign_up_attempted',
    handle: async ({ event, log }) => {
      const { email, firstName } = event.payload;
      const rendered = signUpAttemptEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        supportEmail: mailer.config.SUPPORT_EMAIL,
        firstName,
      });
      const outcome = await mailer.sendOnce(event.id, 'sign-up-attempted', { to: [email] }, rendered);
      log.info({ outcome }, 'sign-up attempt notice');
    },
  });
