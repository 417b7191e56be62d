import { companyKey } from '@app/domain';
import { storeBounties } from '../commissions-repository.ts';
import { defineSubscriber } from '../db.ts';

/** Vendors' bounties (profiles service): what referrals to the vendor's products earn (commissions.ts). */
export const bounties = defineSubscriber({
  id: 'referrals-bounties',
  event: 'bounties.saved',
  handle: async ({ event, tx, log }) => {
    const { companyName, bounties } = event.payload;
    const key = companyKey(companyName);
    // Bounties are a vendor's by its company: without one, no referral can ever earn them.
    if (!key) return log.warn({ companyName }, 'bounties dropped (no company)');
    await storeBounties(tx, { companyKey: key, companyName, bounties, savedAt: new Date(event.occurredAt) });
  },
});
