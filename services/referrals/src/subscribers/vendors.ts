import { defineSubscriber } from '../db.ts';
import { renameVendorReferrals } from '../repository.ts';
import { saveVendor } from '../vendors-repository.ts';

/**
 * Vendor workspaces (profiles service): where referrals are routed, who opens the lead inbox, whether the
 * vendor's ICP and bounties apply (verified). The newest version is kept; a rename reaches the referrals
 * routed to the vendor (one vendor, one name).
 */
export const vendors = defineSubscriber({
  id: 'referrals-vendors',
  event: 'vendor.saved',
  handle: async ({ event, tx, log }) => {
    const vendor = event.payload;
    const saved = await saveVendor(tx, vendor);
    if (!saved) return log.info({ vendorId: vendor.vendorId, version: vendor.version }, 'older vendor version ignored');
    if (saved.previousName !== null && saved.previousName !== vendor.name)
      await renameVendorReferrals(tx, vendor.vendorId, vendor.name);
  },
});
