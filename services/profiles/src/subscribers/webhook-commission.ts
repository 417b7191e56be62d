import { defineSubscriber } from '../db.ts';
import { enqueueForVendor } from '../webhook-repository.ts';

/**
 * A confirmed milestone earned a commission on one of the workspace's leads: to its endpoints (what the
 * vendor owes is `grossCents`). The referrer's email address stays out of the body.
 */
export const webhookCommissionCreated = defineSubscriber({
  id: 'profiles-webhook-commission-created',
  event: 'commission.created',
  handle: async ({ event, tx }) => {
    const { referrerEmail: _referrerEmail, ...data } = event.payload;
    if (!data.vendorId) return;
    await enqueueForVendor(tx, data.vendorId, {
      id: event.id,
      type: event.name,
      occurredAt: event.occurredAt,
      data,
    });
  },
});
