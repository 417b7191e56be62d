import { storeBounties } from '../money-repository.ts';
import { defineSubscriber } from '../db.ts';

/**
 * Vendors' bounties (profiles service), by vendor workspace: what referrals routed to the vendor earn
 * while it is verified, at the moment the vendor confirms a milestone (milestones.ts). The consumer keeps its id: events of the old company-keyed shape
 * no longer pass the contract and are dropped by the bus.
 */
export const bounties = defineSubscriber({
  id: 'referrals-bounties',
  event: 'bounties.saved',
  handle: ({ event, tx }) => storeBounties(tx, event.payload),
});
