import { createHash } from 'node:crypto';
import { PAYOUT_METHOD_LABELS } from '@app/contracts';
import { formatCents } from '@app/domain';
import { defineSubscriber } from '../db.ts';
import type { Mailer } from '../mailer.ts';
import { payoutEmail } from '../templates.ts';

/**
 * The id each referrer's email of one payout is sent once under: a UUID derived from the event and the
 * referrer, stable across redeliveries (the sent-email record is keyed by one id per email).
 */
export function payoutEmailId(eventId: string, userId: string): string {
  const hex = createHash('sha256').update(`payout.recorded:${eventId}:${userId}`).digest('hex');
  // A version 8 (custom) UUID: RFC 9562 layout, so it fits the uuid column.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A payout was recorded: each referrer paid gets their own email with their own total (never the others'). */
export const sendPayoutRecorded = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-payout-recorded',
    event: 'payout.recorded',
    handle: async ({ event, log }) => {
      const { payoutId, reference, method, paidOn, currency, referrers } = event.payload;
      for (const referrer of referrers) {
        const address = referrer.email.trim();
        if (!address) {
          log.warn({ payoutId, userId: referrer.userId }, 'payout referrer without an address: nothing sent');
          continue;
        }
        const rendered = payoutEmail({
          appName: mailer.config.APP_NAME,
          publicUrl: mailer.config.PUBLIC_URL,
          firstName: referrer.firstName,
          reference,
          // The method as people say it ("Bank transfer"); one the labels do not know, as it came.
          method: PAYOUT_METHOD_LABELS[method as keyof typeof PAYOUT_METHOD_LABELS] ?? method,
          paidOn,
          amount: formatCents(referrer.totalCents, currency),
          commissions: referrer.commissions,
        });
        const id = payoutEmailId(event.id, referrer.userId);
        const outcome = await mailer.sendOnce(id, 'payout-recorded', { to: [address] }, rendered);
        log.info({ payoutId, userId: referrer.userId, outcome }, 'payout email');
      }
    },
  });
