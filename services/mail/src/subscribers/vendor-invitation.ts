import { defineSubscriber } from '../db.ts';
import { logLinkForDeveloper, type Mailer } from '../mailer.ts';
import { vendorInvitationEmail } from '../templates.ts';

/** The invitation to a vendor workspace, to the invited address. */
export const sendVendorInvitation = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-vendor-invitation',
    event: 'vendor_invitation.created',
    handle: async ({ event, log }) => {
      const { invitationId, vendorId, vendorName, email, invitedByName } = event.payload;
      const rendered = vendorInvitationEmail({
        appName: mailer.config.APP_NAME,
        publicUrl: mailer.config.PUBLIC_URL,
        vendorName,
        email,
        invitedByName,
      });
      const outcome = await mailer.sendOnce(event.id, 'vendor-invitation', { to: [email] }, rendered);
      log.info({ invitationId, vendorId, outcome }, 'vendor invitation email');
      if (outcome === 'sent') logLinkForDeveloper(mailer, log, `Invitation to ${vendorName} for ${email}`, rendered);
    },
  });
