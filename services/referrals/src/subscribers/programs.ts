import { defineSubscriber } from '../db.ts';
import { storeProgram } from '../programs-repository.ts';

/** Referral programs (programs service): a vendor's active program answers the referral-program check. */
export const programs = defineSubscriber({
  id: 'referrals-programs',
  event: 'program.saved',
  handle: ({ event, tx }) => storeProgram(tx, event.payload, new Date(event.occurredAt)),
});
