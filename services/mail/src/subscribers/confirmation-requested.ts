import { milestoneLabel } from '@app/domain';
import { defineSubscriber } from '../db.ts';
import { logLinkForDeveloper, teamRecipients, type Mailer } from '../mailer.ts';
import { confirmationRequestedEmail } from '../templates.ts';

/**
 * The referrer asks the vendor to confirm a milestone: one email to the lead inbox and every member (each
 * address once), as for a new lead.
 */
export const sendConfirmationRequested = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-confirmation-requested',
    event: 'milestone.confirmation_requested',
    handle: async ({ event, log }) => {
      const { referralId, vendorId, recipients, milestone } = event.payload;
      const to = teamRecipients(recipients);
      if (!to.length) return log.warn({ referralId, vendorId }, 'confirmation request has no recipient: nothing sent');
      const rendered = confirmationRequestedEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        ...event.payload,
        milestone: milestoneLabel(milestone),
      });
      const outcome = await mailer.sendOnce(event.id, 'confirmation-requested', { to }, rendered);
      log.info({ referralId, vendorId, milestone, recipients: to.length, outcome }, 'confirmation request email');
      if (outcome === 'sent') logLinkForDeveloper(mailer, log, 'Milestone confirmation requested', rendered);
    },
  });
