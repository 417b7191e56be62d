import type { Lead, LeadStatus } from '@app/contracts';
import { fail, type Identity, type TransactionRunner } from '@app/kit';
import type { Tx } from './db.ts';
import type { LeadReads } from './lead-reads.ts';
import { personName } from './people.ts';
import { addTimelineEntry, decideLead, decidedReferral, referrerProfile } from './repository.ts';
import { changeStage } from './stage-change.ts';
import { timelineEntry } from './timeline.ts';
import { vendorById, type StoredVendor } from './vendors-repository.ts';

/**
 * A vendor's lead inbox: the referrals routed to it, seen and decided by the members of the VERIFIED
 * workspace only (membership as the latest `vendor.saved` says). Accepted or declined once; a decline
 * carries the reason the referrer sees and moves the referral to Declined like any stage change.
 */
export function leadUseCases(deps: { db: Tx; transaction: TransactionRunner<Tx>; reads: LeadReads }) {
  const { db, transaction, reads } = deps;

  /** The workspace the caller may work in: 404 unknown, 403 not a member, 403 not verified (in that order). */
  async function memberOf(identity: Identity, vendorId: string): Promise<StoredVendor> {
    const vendor = (await vendorById(db, vendorId)) ?? fail('VENDOR_NOT_FOUND');
    if (!vendor.members.some((member) => member.userId === identity.userId)) fail('NOT_A_MEMBER');
    if (!vendor.verified) fail('WORKSPACE_NOT_VERIFIED');
    return vendor;
  }

  const lead = async (vendorId: string, referralId: number) =>
    (await reads.byId(vendorId, referralId)) ?? fail('LEAD_NOT_FOUND');

  /** Records a decision once; the loser of two concurrent decisions gets LEAD_ALREADY_DECIDED. */
  async function decide(
    identity: Identity,
    vendorId: string,
    referralId: number,
    decision: { status: Exclude<LeadStatus, 'new'>; reason: string | null },
  ): Promise<Lead> {
    const vendor = await memberOf(identity, vendorId);
    const before = await lead(vendor.id, referralId);
    if (before.status !== 'new') fail('LEAD_ALREADY_DECIDED');
    await transaction(async (tx, emit) => {
      const at = new Date();
      const decided = await decideLead(tx, { referralId, vendorId: vendor.id, ...decision, at });
      if (!decided) fail('LEAD_ALREADY_DECIDED');
      const { userId, projectId, clientName, productName } = await decidedReferral(tx, referralId);
      const referrer = await referrerProfile(tx, userId);
      const told = {
        referralId,
        vendorName: vendor.name,
        referrerEmail: referrer?.email ?? '',
        referrerFirstName:
          referrer?.firstName || personName({ firstName: '', lastName: '', email: referrer?.email ?? '' }),
        clientName,
        productName,
      };
      if (decision.status === 'accepted') {
        await addTimelineEntry(tx, referralId, timelineEntry.accepted(vendor.name), at);
        emit('lead.accepted', told);
      } else {
        const reason = decision.reason ?? '';
        await addTimelineEntry(tx, referralId, timelineEntry.declined(vendor.name, reason), at);
        // The decline is the stage change's timeline entry: the move itself is in the history.
        await changeStage(tx, emit, { id: referralId, userId, projectId }, { status: 'declined', timeline: false });
        emit('lead.declined', { ...told, reason });
      }
    });
    return lead(vendor.id, referralId);
  }

  return {
    async list(identity: Identity, vendorId: string, status?: LeadStatus): Promise<Lead[]> {
      const vendor = await memberOf(identity, vendorId);
      return reads.list(vendor.id, status);
    },

    async get(identity: Identity, vendorId: string, referralId: number): Promise<Lead> {
      const vendor = await memberOf(identity, vendorId);
      return lead(vendor.id, referralId);
    },

    accept: (identity: Identity, vendorId: string, referralId: number) =>
      decide(identity, vendorId, referralId, { status: 'accepted', reason: null }),

    decline: (identity: Identity, vendorId: string, referralId: number, reason: string) =>
      decide(identity, vendorId, referralId, { status: 'declined', reason }),
  };
}

export type LeadUseCases = ReturnType<typeof leadUseCases>;
