import { defineSubscriber } from '../db.ts';
import { enqueueForVendor } from '../webhook-repository.ts';

/**
 * A new lead for a workspace: a delivery for each of its endpoints subscribed to `lead.created`. The email
 * recipients stay out of the body (the CRM needs the lead, not the mailing list).
 */
export const webhookLeadCreated = defineSubscriber({
  id: 'profiles-webhook-lead-created',
  event: 'lead.created',
  handle: async ({ event, tx }) => {
    const { recipients: _recipients, ...data } = event.payload;
    await enqueueForVendor(tx, event.payload.vendorId, {
      id: event.id,
      type: event.name,
      occurredAt: event.occurredAt,
      data,
    });
  },
});
