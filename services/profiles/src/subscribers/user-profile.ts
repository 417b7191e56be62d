import { defineSubscriber } from '../db.ts';
import { saveRegistration } from '../users.ts';
import { announceVendor } from '../vendor-events.ts';
import { lockWorkspacesOf } from '../vendor-repository.ts';

/** The user's names and company (members are shown by name); their workspaces are announced if that changed. */
export const userProfile = defineSubscriber({
  id: 'profiles-user',
  event: 'user.registered',
  handle: async ({ event, tx, emit }) => {
    const workspaces = await lockWorkspacesOf(tx, event.payload.userId);
    if (!(await saveRegistration(tx, event.payload))) return;
    for (const vendorId of workspaces) await announceVendor(tx, emit, vendorId);
  },
});
