import { defineSubscriber } from '../db.ts';
import { saveVerifiedEmail } from '../users.ts';
import { announceSavedData, announceVendor } from '../vendor-events.ts';
import { lockWorkspacesOf } from '../vendor-repository.ts';
import { verifyByDomain } from '../verification.ts';

/**
 * A user's address was verified (first verification or email change): the copy follows, and each of their
 * workspaces is re-checked (the address may be on its domain); a workspace whose members' addresses changed
 * is announced again. A domain another workspace holds verified leaves this one unverified.
 */
export const emailVerified = defineSubscriber({
  id: 'profiles-email-verified',
  event: 'user.email_verified',
  handle: async ({ event, tx, emit }) => {
    const workspaces = await lockWorkspacesOf(tx, event.payload.userId);
    const addressChanged = await saveVerifiedEmail(tx, event.payload, new Date(event.occurredAt));
    for (const vendorId of workspaces) {
      const outcome = await verifyByDomain(tx, vendorId);
      if (outcome === 'verified' || addressChanged) await announceVendor(tx, emit, vendorId);
      if (outcome === 'verified') await announceSavedData(tx, emit, vendorId);
    }
  },
});
