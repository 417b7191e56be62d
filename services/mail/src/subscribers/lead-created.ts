import { defineSubscriber } from '../db.ts';
import { logLinkForDeveloper, teamRecipients, type Mailer } from '../mailer.ts';
import { leadCreatedEmail } from '../templates.ts';

/**
 * A new lead, to the vendor's lead inbox and every member at once (one email, each address once): they
 * are one team, and see one another in their workspace.
 */
export const sendLeadCreated = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-lead-created',
    event: 'lead.created',
    handle: async ({ event, log }) => {
      const { referralId, vendorId, recipients } = event.payload;
      const to = teamRecipients(recipients);
      if (!to.length) return log.warn({ referralId, vendorId }, 'lead email has no recipient: nothing sent');
      const rendered = leadCreatedEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        ...event.payload,
      });
      const outcome = await mailer.sendOnce(event.id, 'lead-created', { to }, rendered);
      log.info({ referralId, vendorId, recipients: to.length, outcome }, 'new lead email');
      if (outcome === 'sent') logLinkForDeveloper(mailer, log, `New lead for ${event.payload.vendorName}`, rendered);
    },
  });
