import { defineSubscriber } from '../db.ts';
import { logLinkForDeveloper, type Mailer } from '../mailer.ts';
import { verificationEmail } from '../templates.ts';

/** The link that verifies a new account's address. */
export const sendVerificationEmail = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-verification-email',
    event: 'email_verification.requested',
    handle: async ({ event, log }) => {
      const { userId, email, firstName, sealedToken, expiresAt } = event.payload;
      const rendered = verificationEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        firstName,
        userId,
        token: mailer.tokens.open(sealedToken),
        expiresAt: new Date(expiresAt),
      });
      const outcome = await mailer.sendOnce(event.id, 'email-verification', { to: [email] }, rendered);
      log.info({ outcome }, 'verification email');
      if (outcome === 'sent') logLinkForDeveloper(mailer, log, `Verification link for ${email}`, rendered, email);
    },
  });
