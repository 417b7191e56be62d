import { formatCents, milestoneLabel } from '@app/domain';
import { defineSubscriber } from '../db.ts';
import type { Mailer } from '../mailer.ts';
import { commissionsReversedEmail } from '../templates.ts';

/** The vendor or an administrator reversed a deal: the referrer hears what they lost and why. */
export const sendCommissionsReversed = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-commissions-reversed',
    event: 'commissions.reversed',
    handle: async ({ event, log }) => {
      const { referralId, referrerEmail, referrerCents, currency, milestones } = event.payload;
      if (!referrerEmail.trim()) return log.warn({ referralId }, 'reversal without a referrer address');
      const rendered = commissionsReversedEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        ...event.payload,
        milestones: milestones.map(milestoneLabel),
        amount: formatCents(referrerCents, currency),
      });
      const outcome = await mailer.sendOnce(event.id, 'commissions-reversed', { to: [referrerEmail.trim()] }, rendered);
      log.info({ referralId, outcome }, 'reversal email');
    },
  });
