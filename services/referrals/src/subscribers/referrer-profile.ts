import { defineSubscriber } from '../db.ts';
import { saveReferrer } from '../repository.ts';

/** The referrer's names and company, for the intro email and reciprocity ("received" referrals). */
export const referrerProfile = defineSubscriber({
  id: 'referrals-referrer-profile',
  event: 'user.registered',
  handle: async ({ event, tx }) => {
    const { userId, email, firstName, lastName, companyName } = event.payload;
    await saveReferrer(tx, { userId, email, firstName, lastName, companyName });
  },
});
