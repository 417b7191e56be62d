import { defineSubscriber } from '../db.ts';
import type { Mailer } from '../mailer.ts';
import { emailChangedNoticeEmail, emailChangeRequestedNoticeEmail, emailChangeTakenNoticeEmail } from '../templates.ts';

/** The current address is told that a change to another one was requested. */
export const sendEmailChangeRequestedNotice = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-email-change-requested-notice',
    event: 'email_change.notice_requested',
    handle: async ({ event, log }) => {
      const { email, newEmail, firstName } = event.payload;
      const rendered = emailChangeRequestedNoticeEmail({
        appName: mailer.config.APP_NAME,
        supportEmail: mailer.config.SUPPORT_EMAIL,
        firstName,
        newEmail,
      });
      const outcome = await mailer.sendOnce(event.id, 'email-change-requested-notice', { to: [email] }, rendered);
      log.info({ outcome }, 'email change request notice');
    },
  });

/** The old address is told that the account moved to the new one. */
export const sendEmailChangedNotice = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-email-changed-notice',
    event: 'user.email_changed',
    handle: async ({ event, log }) => {
      const { oldEmail, newEmail, firstName } = event.payload;
      const rendered = emailChangedNoticeEmail({
        appName: mailer.config.APP_NAME,
        supportEmail: mailer.config.SUPPORT_EMAIL,
        firstName,
        newEmail,
      });
      const outcome = await mailer.sendOnce(event.id, 'email-changed-notice', { to: [oldEmail] }, rendered);
      log.info({ outcome }, 'email changed notice');
    },
  });

/** Someone asked to move another account to an address that has one: its owner is told (no link goes out). */
export const sendEmailChangeTakenNotice = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-email-change-taken-notice',
    event: 'email_change.taken_notice_requested',
    handle: async ({ event, log }) => {
      const { email, firstName } = event.payload;
      const rendered = emailChangeTakenNoticeEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        supportEmail: mailer.config.SUPPORT_EMAIL,
        firstName,
      });
      const outcome = await mailer.sendOnce(event.id, 'email-change-taken-notice', { to: [email] }, rendered);
      log.info({ outcome }, 'email change to a taken address notice');
    },
  });
