import type { InviteMemberRequest, Vendor, VendorInvitation } from '@app/contracts';
import { fail, type Identity, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import type { Tx } from './db.ts';
import { rememberIdentity } from './users.ts';
import { announceSavedData, announceVendor } from './vendor-events.ts';
import { addAudit, findInvitation, lockVendor, roleOf, userNames, vendorRecord } from './vendor-repository.ts';
import { invitationView } from './vendor-view.ts';
import { verifyByDomain } from './verification.ts';
import { guardDomain, openWorkspace, requireOwner } from './workspace-access.ts';
import { showVendor } from './workspaces.ts';

/** Use cases of members and invitations: each owns its transaction and the events it announces. */
export function membershipUseCases(transaction: TransactionRunner<Tx>) {
  return {
    /**
     * Owners and administrators invite by address; the invitee is emailed (`vendor_invitation.created`).
     * Inviting an address that already has a pending invitation answers that invitation (its role updated),
     * without a second email.
     */
    async invite(
      identity: Identity,
      vendorId: string,
      input: z.output<typeof InviteMemberRequest>,
    ): Promise<VendorInvitation> {
      return transaction(async (tx, emit) => {
        const workspace = await openWorkspace(tx, identity, vendorId, { lock: true, admins: true });
        requireOwner(workspace, identity);
        const { vendor } = workspace;
        const record = await vendorRecord(tx, vendorId);
        if (record.members.some((m) => m.user.email === input.email)) fail('ALREADY_A_MEMBER');
        await rememberIdentity(tx, identity);
        const pending = record.invitations.find((i) => i.email === input.email);
        let invitation = pending;
        if (pending && pending.role !== input.role) {
          invitation = await tx.vendorInvitation.update({ where: { id: pending.id }, data: { role: input.role } });
          await addAudit(tx, vendorId, identity.email, 'invitation_changed', `${input.email} as ${input.role}`);
        }
        if (!invitation) {
          invitation = await tx.vendorInvitation.create({
            data: { vendorId, email: input.email, role: input.role, invitedBy: identity.userId },
          });
          await addAudit(tx, vendorId, identity.email, 'member_invited', `${input.email} as ${input.role}`);
          const names = await userNames(tx, [identity.userId]);
          emit('vendor_invitation.created', {
            invitationId: invitation.id,
            vendorId,
            vendorName: vendor.name,
            email: input.email,
            invitedByName: names.get(identity.userId) || identity.email,
          });
        }
        return invitationView(invitation, vendor.name, await userNames(tx, [invitation.invitedBy]));
      });
    },

    /** Owners and administrators withdraw a pending invitation. */
    async revoke(identity: Identity, vendorId: string, invitationId: string): Promise<Vendor> {
      return transaction(async (tx) => {
        const workspace = await openWorkspace(tx, identity, vendorId, { lock: true, admins: true });
        requireOwner(workspace, identity);
        const invitation = await findInvitation(tx, invitationId);
        if (!invitation || invitation.vendorId !== vendorId || invitation.revokedAt) fail('INVITATION_NOT_FOUND');
        if (invitation.acceptedAt) fail('INVITATION_ALREADY_ACCEPTED');
        await tx.vendorInvitation.update({ where: { id: invitationId }, data: { revokedAt: new Date() } });
        await addAudit(tx, vendorId, identity.email, 'invitation_revoked', invitation.email);
        return showVendor(tx, vendorId, { role: workspace.role, isAdmin: identity.isAdmin });
      });
    },

    /**
     * Only the signed-in user verified at the invitation's address joins with it, once. Joining re-checks the
     * workspace's verification: the newcomer's address may be on its domain.
     */
    async accept(identity: Identity, invitationId: string): Promise<Vendor> {
      if (!identity.emailVerified) fail('EMAIL_NOT_VERIFIED');
      const email = identity.email.toLowerCase();
      return guardDomain(() =>
        transaction(async (tx, emit) => {
          const found = await findInvitation(tx, invitationId);
          if (!found || found.revokedAt) fail('INVITATION_NOT_FOUND');
          await lockVendor(tx, found.vendorId);
          // Read again under the lock: a concurrent accept or revoke has finished by now.
          const invitation = await findInvitation(tx, invitationId);
          if (!invitation || invitation.revokedAt) fail('INVITATION_NOT_FOUND');
          if (invitation.email !== email) fail('INVITATION_NOT_YOURS');
          if (invitation.acceptedAt) fail('INVITATION_ALREADY_ACCEPTED');
          const { vendorId, role } = invitation;
          if (await roleOf(tx, vendorId, identity.userId)) fail('ALREADY_A_MEMBER');
          await rememberIdentity(tx, identity);
          await tx.vendorMember.create({ data: { vendorId, userId: identity.userId, role } });
          await tx.vendorInvitation.update({ where: { id: invitation.id }, data: { acceptedAt: new Date() } });
          await addAudit(tx, vendorId, email, 'member_joined', `${email} as ${role}`);
          const outcome = await verifyByDomain(tx, vendorId, [email]);
          await announceVendor(tx, emit, vendorId);
          if (outcome === 'verified') await announceSavedData(tx, emit, vendorId);
          return showVendor(tx, vendorId, { role: role as 'owner' | 'member', isAdmin: identity.isAdmin });
        }),
      );
    },

    /** Owners and administrators remove anyone, anyone may leave; a workspace keeps at least one owner. */
    async remove(identity: Identity, vendorId: string, userId: string): Promise<Vendor> {
      return transaction(async (tx, emit) => {
        const workspace = await openWorkspace(tx, identity, vendorId, { lock: true, admins: true });
        const leaving = userId === identity.userId;
        if (!leaving) requireOwner(workspace, identity);
        const target = await roleOf(tx, vendorId, userId);
        if (!target) fail('MEMBER_NOT_FOUND');
        if (target === 'owner' && (await tx.vendorMember.count({ where: { vendorId, role: 'owner' } })) <= 1)
          fail('LAST_OWNER');
        await tx.vendorMember.delete({ where: { vendorId_userId: { vendorId, userId } } });
        const who = (await userNames(tx, [userId])).get(userId) || userId;
        if (leaving) await addAudit(tx, vendorId, identity.email, 'member_left', who);
        else await addAudit(tx, vendorId, identity.email, 'member_removed', who);
        await announceVendor(tx, emit, vendorId);
        return showVendor(tx, vendorId, { role: leaving ? null : workspace.role, isAdmin: identity.isAdmin });
      });
    },
  };
}

export type MembershipUseCases = ReturnType<typeof membershipUseCases>;
