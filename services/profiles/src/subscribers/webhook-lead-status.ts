import { defineSubscriber } from '../db.ts';
import { enqueueForVendor } from '../webhook-repository.ts';

/** A lead moved (stage, decision, withdrawal, confirmed milestone, reversal): to the workspace's endpoints. */
export const webhookLeadStatusChanged = defineSubscriber({
  id: 'profiles-webhook-lead-status-changed',
  event: 'lead.status_changed',
  handle: async ({ event, tx }) => {
    await enqueueForVendor(tx, event.payload.vendorId, {
      id: event.id,
      type: event.name,
      occurredAt: event.occurredAt,
      data: event.payload,
    });
  },
});
