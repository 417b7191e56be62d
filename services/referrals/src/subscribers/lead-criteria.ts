import { defineSubscriber } from '../db.ts';
import { saveLeadCriteria } from '../vendors-repository.ts';

/** Vendors' Ideal Customer Profiles (profiles service): checked when a referral is routed to the vendor. */
export const leadCriteria = defineSubscriber({
  id: 'referrals-lead-criteria',
  event: 'lead_criteria.saved',
  handle: ({ event, tx }) => saveLeadCriteria(tx, event.payload),
});
