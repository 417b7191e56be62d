import { defineSubscriber } from '../db.ts';
import { logLinkForDeveloper, teamRecipients, type Mailer } from '../mailer.ts';
import { leadWithdrawnEmail } from '../templates.ts';

/**
 * The referrer withdrew a lead: one email to the lead inbox and every member (each address once), as for a
 * new lead, so the vendor stops working on it.
 */
export const sendLeadWithdrawn = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-lead-withdrawn',
    event: 'lead.withdrawn',
    handle: async ({ event, log }) => {
      const { referralId, vendorId, recipients } = event.payload;
      const to = teamRecipients(recipients);
      if (!to.length) return log.warn({ referralId, vendorId }, 'withdrawn lead has no recipient: nothing sent');
      const rendered = leadWithdrawnEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        ...event.payload,
      });
      const outcome = await mailer.sendOnce(event.id, 'lead-withdrawn', { to }, rendered);
      log.info({ referralId, vendorId, recipients: to.length, outcome }, 'lead withdrawn email');
      if (outcome === 'sent') logLinkForDeveloper(mailer, log, 'Lead withdrawn', rendered);
    },
  });
