import { defineSubscriber } from '../db.ts';
import { saveVendor } from '../repository.ts';

/**
 * This service's copy of each vendor workspace (`vendor.saved`): its name for the answers, and its members
 * and verification for who may manage its programs. The highest version wins whatever the delivery order.
 */
export const vendorsSubscriber = defineSubscriber({
  id: 'programs-vendors',
  event: 'vendor.saved',
  handle: async ({ event, tx, log }) => {
    const { vendorId, version, verified } = event.payload;
    const applied = await saveVendor(tx, event.payload);
    log.info({ vendorId, version, verified, applied }, 'vendor copy updated');
  },
});
