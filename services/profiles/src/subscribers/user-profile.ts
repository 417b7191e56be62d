import { defineSubscriber } from '../db.ts';

/** The user's email and company name, carried in the events this service publishes. */
export const userProfile = defineSubscriber({
  id: 'profiles-user',
  event: 'user.registered',
  handle: async ({ event, tx }) => {
    const { userId, email, companyName } = event.payload;
    await tx.user.upsert({ where: { userId }, create: { userId, email, companyName }, update: { email, companyName } });
  },
});
