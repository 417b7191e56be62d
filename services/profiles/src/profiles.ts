import type { DemoRequest, SavedBounties, SavedLeadCriteria } from '@app/contracts';
import { hasAnyCriteria, type Bounties, type LeadCriteria } from '@app/contracts';
import { fail, type Identity, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import { savedBounties, savedLeadCriteria } from './criteria.ts';
import type { Tx } from './db.ts';
import { findBounties, findLeadCriteria, saveBountiesRow, saveLeadCriteriaRow } from './repository.ts';
import { requireVerified, workspaceFor } from './workspace-access.ts';

/**
 * Use cases of a workspace's lead criteria and bounties (the spec's /api/lead-criteria and /api/bounties,
 * per workspace) and of demo requests: each owns its transaction and the events it announces. Members read
 * (administrators too); only members of a verified workspace save.
 */
export function profileUseCases(transaction: TransactionRunner<Tx>, db: Tx) {
  return {
    async leadCriteria(identity: Identity, vendorId: string | undefined): Promise<z.output<typeof SavedLeadCriteria>> {
      const { vendor } = await workspaceFor(db, identity, vendorId, { admins: true });
      return savedLeadCriteria((await findLeadCriteria(db, vendor.id)) ?? fail('LEAD_CRITERIA_NOT_FOUND'));
    },

    /** Replaces the whole profile (fields left out become empty) and tells Smart Match and routing. */
    async saveLeadCriteria(identity: Identity, vendorId: string | undefined, criteria: LeadCriteria) {
      const row = await transaction(async (tx, emit) => {
        const workspace = await workspaceFor(tx, identity, vendorId, { lock: true });
        requireVerified(workspace);
        if (!hasAnyCriteria(criteria)) fail('EMPTY_CRITERIA');
        const saved = await saveLeadCriteriaRow(tx, workspace.vendor.id, identity.userId, criteria);
        emit('lead_criteria.saved', { vendorId: saved.vendorId, version: saved.version, criteria });
        return saved;
      });
      return savedLeadCriteria(row);
    },

    async bounties(identity: Identity, vendorId: string | undefined): Promise<z.output<typeof SavedBounties>> {
      const { vendor } = await workspaceFor(db, identity, vendorId, { admins: true });
      return savedBounties((await findBounties(db, vendor.id)) ?? fail('BOUNTIES_NOT_FOUND'));
    },

    /** Disabled milestones are stored with their values, so enabling one again restores them. */
    async saveBounties(identity: Identity, vendorId: string | undefined, bounties: Bounties) {
      const row = await transaction(async (tx, emit) => {
        const workspace = await workspaceFor(tx, identity, vendorId, { lock: true });
        requireVerified(workspace);
        const saved = await saveBountiesRow(tx, workspace.vendor.id, identity.userId, bounties);
        emit('bounties.saved', { vendorId: saved.vendorId, version: saved.version, bounties });
        return saved;
      });
      return savedBounties(row);
    },

    /** Stored, and the sales team is told by email (mail service, `demo_request.submitted`). */
    async requestDemo(input: z.output<typeof DemoRequest>) {
      await transaction(async (tx, emit) => {
        const saved = await tx.demoRequest.create({ data: { ...input, referralSource: input.referralSource ?? null } });
        emit('demo_request.submitted', {
          requestId: saved.id,
          firstName: saved.firstName,
          lastName: saved.lastName,
          email: saved.email,
          phone: saved.phone,
          website: saved.website,
          referralSource: saved.referralSource,
        });
      });
    },
  };
}

export type ProfileUseCases = ReturnType<typeof profileUseCases>;
