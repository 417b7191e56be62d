import { defineSubscriber } from '../db.ts';
import type { Mailer } from '../mailer.ts';
import { leadDecisionEmail } from '../templates.ts';

/** The vendor accepted a lead: the referrer hears it. */
export const sendLeadAccepted = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-lead-accepted',
    event: 'lead.accepted',
    handle: async ({ event, log }) => {
      const { referralId, referrerEmail } = event.payload;
      const rendered = leadDecisionEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        decision: 'accepted',
        ...event.payload,
      });
      const outcome = await mailer.sendOnce(event.id, 'lead-accepted', { to: [referrerEmail] }, rendered);
      log.info({ referralId, outcome }, 'lead accepted email');
    },
  });

/** The vendor declined a lead: the referrer hears it, with the vendor's reason. */
export const sendLeadDeclined = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-lead-declined',
    event: 'lead.declined',
    handle: async ({ event, log }) => {
      const { referralId, referrerEmail } = event.payload;
      const rendered = leadDecisionEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        decision: 'declined',
        ...event.payload,
      });
      const outcome = await mailer.sendOnce(event.id, 'lead-declined', { to: [referrerEmail] }, rendered);
      log.info({ referralId, outcome }, 'lead declined email');
    },
  });
