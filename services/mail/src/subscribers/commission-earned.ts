import { formatCents, milestoneLabel } from '@app/domain';
import { defineSubscriber } from '../db.ts';
import type { Mailer } from '../mailer.ts';
import { commissionEarnedEmail } from '../templates.ts';

/** A confirmed milestone earned a commission: the referrer hears what they earned (their share). */
export const sendCommissionEarned = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-commission-created',
    event: 'commission.created',
    handle: async ({ event, log }) => {
      const { commissionId, referralId, referrerEmail, referrerCents, currency, milestone } = event.payload;
      if (!referrerEmail.trim()) return log.warn({ commissionId, referralId }, 'commission without a referrer address');
      const rendered = commissionEarnedEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        ...event.payload,
        milestone: milestoneLabel(milestone),
        amount: formatCents(referrerCents, currency),
      });
      const outcome = await mailer.sendOnce(event.id, 'commission-created', { to: [referrerEmail.trim()] }, rendered);
      log.info({ commissionId, referralId, outcome }, 'commission email');
    },
  });
