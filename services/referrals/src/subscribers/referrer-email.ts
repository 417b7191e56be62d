import { defineSubscriber } from '../db.ts';

/**
 * A user moved to a new address (auth, once the new one is confirmed): the referrer's copy follows, so the
 * emails about their leads and earnings go to it. Only from the old address it names: a late or repeated
 * delivery of an earlier change never overwrites a newer address.
 */
export const referrerEmail = defineSubscriber({
  id: 'referrals-referrer-email',
  event: 'user.email_changed',
  handle: async ({ event, tx }) => {
    const { userId, oldEmail, newEmail } = event.payload;
    await tx.referrer.updateMany({ where: { userId, email: oldEmail }, data: { email: newEmail } });
  },
});
