import type { ConfirmMilestoneRequest, Lead, LeadStatus, VendorCommissions } from '@app/contracts';
import { fail, type Identity, type TransactionRunner } from '@app/kit';
import type { Tx } from './db.ts';
import type { LeadReads, LeadsQuery } from './lead-reads.ts';
import { checkCeiling, confirmMilestone, reverseDeal, type MoneySettings } from './milestones.ts';
import type { MoneyUseCases } from './money.ts';
import { lockReferral, setDealValues, type Actor } from './money-repository.ts';
import { profileFirstName } from './people.ts';
import { addTimelineEntry, decideLead, decidedReferral, referrerProfile } from './repository.ts';
import { changeStage } from './stage-change.ts';
import { timelineEntry } from './timeline.ts';
import type { z } from 'zod';
import { vendorById, type StoredVendor } from './vendors-repository.ts';

/**
 * A vendor's lead inbox: the referrals routed to it, seen and decided by the members of the VERIFIED
 * workspace only (membership as the latest `vendor.saved` says). Accepted or declined once; a decline
 * carries the reason the referrer sees and moves the referral to Declined like any stage change. A lead the
 * referrer withdrew (has in Declined) is neither: LEAD_WITHDRAWN.
 */
export function leadUseCases(deps: {
  db: Tx;
  transaction: TransactionRunner<Tx>;
  reads: LeadReads;
  money: MoneyUseCases;
  settings: MoneySettings;
}) {
  const { db, transaction, reads, money, settings } = deps;

  /** A member acting for the vendor, as the ledger and the timeline name them. */
  const memberActor = (identity: Identity, vendor: StoredVendor): Actor & { kind: 'vendor' } => {
    const member = vendor.members.find((m) => m.userId === identity.userId);
    return { kind: 'vendor', userId: identity.userId, name: `${member?.name || identity.email} (${vendor.name})` };
  };

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
    if (before.status === 'withdrawn') fail('LEAD_WITHDRAWN');
    if (before.status !== 'new') fail('LEAD_ALREADY_DECIDED');
    await transaction(async (tx, emit) => {
      const at = new Date();
      // Locked first: a withdrawal (the referrer's move to Declined) and a decision never cross.
      if ((await lockReferral(tx, referralId))?.status === 'declined') fail('LEAD_WITHDRAWN');
      const decided = await decideLead(tx, { referralId, vendorId: vendor.id, ...decision, at });
      if (!decided) fail('LEAD_ALREADY_DECIDED');
      const { userId, projectId, clientName, productName } = await decidedReferral(tx, referralId);
      // A member who referred the lead does not decide it (rolled back with the transaction).
      if (userId === identity.userId) fail('OWN_LEAD');
      const referrer = await referrerProfile(tx, userId);
      const told = {
        referralId,
        vendorName: vendor.name,
        referrerEmail: referrer?.email ?? '',
        referrerFirstName: profileFirstName(referrer),
        clientName,
        productName,
      };
      if (decision.status === 'accepted') {
        await addTimelineEntry(tx, referralId, timelineEntry.accepted(vendor.name), at);
        emit('lead.accepted', told);
        const stage = (await lockReferral(tx, referralId))!.status;
        emit('lead.status_changed', {
          referralId,
          vendorId: vendor.id,
          stage,
          previousStage: stage,
          change: 'accepted',
          milestone: null,
          changedAt: at.toISOString(),
        });
      } else {
        const reason = decision.reason ?? '';
        await addTimelineEntry(tx, referralId, timelineEntry.declined(vendor.name, reason), at);
        // The decline is the stage change's timeline entry: the move itself is in the history (always a move:
        // a referral already in Declined was withdrawn, refused above).
        await changeStage(
          tx,
          emit,
          { id: referralId, userId, projectId },
          {
            status: 'declined',
            timeline: false,
            actor: memberActor(identity, vendor),
            reversalReason: `Declined by ${vendor.name}: ${reason}`,
            lead: { change: 'declined', milestone: null },
            at,
          },
        );
        emit('lead.declined', { ...told, reason });
      }
    });
    return lead(vendor.id, referralId);
  }

  return {
    async list(identity: Identity, vendorId: string, query: LeadsQuery): Promise<Lead[]> {
      const vendor = await memberOf(identity, vendorId);
      return reads.list(vendor.id, query);
    },

    async get(identity: Identity, vendorId: string, referralId: number): Promise<Lead> {
      const vendor = await memberOf(identity, vendorId);
      return lead(vendor.id, referralId);
    },

    accept: (identity: Identity, vendorId: string, referralId: number) =>
      decide(identity, vendorId, referralId, { status: 'accepted', reason: null }),

    decline: (identity: Identity, vendorId: string, referralId: number, reason: string) =>
      decide(identity, vendorId, referralId, { status: 'declined', reason }),

    /** A member confirms a milestone of the lead: the commission is earned from the bounties now (milestones.ts). */
    async confirm(
      identity: Identity,
      vendorId: string,
      referralId: number,
      input: z.output<typeof ConfirmMilestoneRequest>,
    ): Promise<Lead> {
      const vendor = await memberOf(identity, vendorId);
      await lead(vendor.id, referralId);
      const actor = memberActor(identity, vendor);
      await transaction((tx, emit) =>
        confirmMilestone(
          tx,
          emit,
          {
            referralId,
            vendorId: vendor.id,
            milestone: input.milestone,
            dealValueCents: input.dealValueCents,
            note: input.note ?? '',
            actor,
          },
          settings,
        ),
      );
      return lead(vendor.id, referralId);
    },

    /** The vendor's expected deal value (the referrer's pipeline). */
    async setExpectedValue(identity: Identity, vendorId: string, referralId: number, cents: number): Promise<Lead> {
      const vendor = await memberOf(identity, vendorId);
      await lead(vendor.id, referralId);
      checkCeiling(cents, settings, 'expectedValueCents');
      await transaction(async (tx) => {
        const now = new Date();
        const referral = (await lockReferral(tx, referralId)) ?? fail('LEAD_NOT_FOUND');
        // A percentage bounty is paid on this value: the referrer never sets it, whatever workspace they are in.
        if (referral.userId === identity.userId) fail('OWN_REFERRAL');
        if (referral.leadStatus === 'declined' || referral.status === 'declined') fail('LEAD_DECLINED');
        if (referral.expectedValueCents === cents) return;
        await setDealValues(tx, referralId, { expectedValueCents: cents }, now);
        await addTimelineEntry(
          tx,
          referralId,
          timelineEntry.expectedValueSet(vendor.name, cents, settings.currency),
          now,
        );
      });
      return lead(vendor.id, referralId);
    },

    /** The deal fell through: every unpaid commission of the lead is reversed (paid ones stay paid). */
    async reverseDeal(identity: Identity, vendorId: string, referralId: number, reason: string): Promise<Lead> {
      const vendor = await memberOf(identity, vendorId);
      await lead(vendor.id, referralId);
      const actor = memberActor(identity, vendor);
      await transaction(async (tx, emit) => {
        const referral = (await lockReferral(tx, referralId)) ?? fail('LEAD_NOT_FOUND');
        await reverseDeal(tx, emit, { referral, actor, reason, vendorName: vendor.name, currency: settings.currency });
      });
      return lead(vendor.id, referralId);
    },

    async commissions(identity: Identity, vendorId: string): Promise<VendorCommissions> {
      const vendor = await memberOf(identity, vendorId);
      return money.vendorCommissions(vendor.id);
    },
  };
}

export type LeadUseCases = ReturnType<typeof leadUseCases>;
