import { defineSubscriber } from '../db.ts';
import type { Mailer } from '../mailer.ts';
import { introEmail } from '../templates.ts';

/**
 * The referrer's intro email, as they wrote it and to whom the event says (the vendor's lead inbox in Cc
 * when the vendor is on the platform), from "{referrer} via Referral Hub" at our address.
 */
export const sendReferralIntro = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-referral-intro',
    event: 'referral.intro_email_requested',
    // Each email is its own (claimed by event id in sent_emails): many at once, whose claims and marks share
    // statements (sentEmails); the pooled SMTP transport queues what its connections cannot take yet.
    options: { concurrency: 32, prefetch: 64 },
    handle: async ({ event, log }) => {
      const { referralId, fromName, replyTo, to, cc, bcc, subject, body } = event.payload;
      const outcome = await mailer.sendOnce(
        event.id,
        'referral-intro',
        { to, cc, bcc, replyTo, fromName },
        introEmail(subject, body),
      );
      log.info({ referralId, outcome }, 'referral intro email');
    },
  });
