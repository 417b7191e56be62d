import type { Bounty, Milestone } from '@app/contracts';
import { commissionCents, DEAL_VALUE_AT, MILESTONE_STAGES, retentionDueAt, STAGE_RANK } from '@app/domain';
import { fail, type Emit } from '@app/kit';
import type { Tx } from './db.ts';
import {
  acceptIfNew,
  bountyOf,
  confirmationsOf,
  insertCommission,
  insertConfirmation,
  lockReferral,
  reverseUnpaid,
  setDealValues,
  type Actor,
  type LockedReferral,
} from './money-repository.ts';
import { profileFirstName } from './people.ts';
import { addTimelineEntry, referrerProfile } from './repository.ts';
import { changeStage } from './stage-change.ts';
import { timelineEntry } from './timeline.ts';
import { vendorById } from './vendors-repository.ts';

/**
 * Milestones that earn money (issue 10). A milestone counts only when a member of the verified vendor
 * workspace the lead was routed to confirms it, or an administrator records it on the vendor's behalf
 * (with a note). The referrer's own stage moves earn nothing.
 *
 * - The referral row is locked FOR UPDATE for the whole confirmation; confirmations and commissions are
 *   unique per (referral, milestone): of concurrent confirmations exactly one wins, the rest get 409.
 * - The commission comes from the better for the referrer of the vendor's bounty when the referral was made
 *   and its bounty at that moment (termsOf), at the referral's deal value (actual when known, else
 *   expected). A percentage bounty on qualifiedLead/meetingHeld, confirmed before any deal
 *   value exists, pays nothing (vendors should use flat bounties there). A disabled bounty, or one that
 *   pays nothing, records the confirmation without a commission.
 * - Confirming a milestone whose stage is ahead of the referral's moves it forward (never back), and
 *   accepts a lead still 'new'.
 * - retentionBonus needs closedWon confirmed, and can be confirmed from retentionDueAt(closedWon's
 *   confirmation, bounty).
 */

/** The money settings of the service (config.ts). */
export interface MoneySettings {
  currency: string;
  dealValueMaxCents: number;
}

/** The deal value rules of a confirmation (400s, checked before anything is read or written). */
export function checkDealValue(milestone: Milestone, dealValueCents: number | undefined, settings: MoneySettings) {
  const field = { field: 'dealValueCents' };
  if (DEAL_VALUE_AT[milestone]) {
    if (dealValueCents === undefined) fail('DEAL_VALUE_REQUIRED', undefined, field);
  } else if (dealValueCents !== undefined) fail('DEAL_VALUE_NOT_EXPECTED', undefined, field);
  if (dealValueCents !== undefined) checkCeiling(dealValueCents, settings, 'dealValueCents');
}

export function checkCeiling(cents: number, settings: MoneySettings, field: string) {
  if (cents > settings.dealValueMaxCents) fail('DEAL_VALUE_TOO_LARGE', undefined, { field });
}

const DISABLED: Bounty = { enabled: false };

/**
 * The retention bonus can be confirmed (or asked for) once Closed-Won is (MILESTONE_NEEDS_CLOSED_WON) and
 * its date has come (RETENTION_NOT_DUE): `confirmed` is the referral's confirmations, `bonus` its bounty.
 */
export function checkRetentionDue(confirmed: Map<Milestone, Date>, bonus: Bounty | undefined, now: Date) {
  const closedWon = confirmed.get('closedWon') ?? fail('MILESTONE_NEEDS_CLOSED_WON');
  if (now < retentionDueAt(closedWon, bonus ?? DISABLED)) fail('RETENTION_NOT_DUE');
}

/**
 * Confirms a milestone of a routed referral in the caller's transaction (see above). `vendorId` is the
 * vendor the confirmer acts for (a member's workspace; the referral's own for administrators): a referral
 * routed elsewhere is LEAD_NOT_FOUND for it. Answers the new commission's id, if any.
 */
export async function confirmMilestone(
  tx: Tx,
  emit: Emit,
  input: {
    referralId: number;
    vendorId: string | null;
    milestone: Milestone;
    dealValueCents?: number | undefined;
    note: string;
    actor: Actor & { kind: 'vendor' | 'admin' };
  },
  settings: MoneySettings,
  now = new Date(),
): Promise<string | null> {
  const { milestone, actor } = input;
  checkDealValue(milestone, input.dealValueCents, settings);
  const referral = (await lockReferral(tx, input.referralId)) ?? fail('REFERRAL_NOT_FOUND');
  if (input.vendorId !== null && referral.vendorId !== input.vendorId) fail('LEAD_NOT_FOUND');
  if (!referral.vendorId || !referral.leadStatus) fail('REFERRAL_NOT_ROUTED');
  // The referrer's own confirmation earns nothing, whatever workspace or role they also have (issue 10).
  if (actor.userId !== null && actor.userId === referral.userId) fail('OWN_REFERRAL');
  if (referral.leadStatus === 'declined' || referral.status === 'declined') fail('LEAD_DECLINED');
  const confirmed = await confirmationsOf(tx, referral.id);
  if (confirmed.has(milestone)) fail('MILESTONE_ALREADY_CONFIRMED');
  const dealValueCents = input.dealValueCents ?? null;
  // The deal value it gives: the expected one at the opportunity, the actual one at Closed-Won.
  const given: { expectedValueCents?: number; dealValueCents?: number } =
    dealValueCents === null
      ? {}
      : DEAL_VALUE_AT[milestone] === 'expected'
        ? { expectedValueCents: dealValueCents }
        : { dealValueCents };
  const deal = { ...referral, ...given };
  const vendor = await vendorById(tx, referral.vendorId);
  // An administrator acts on the vendor's behalf: not for a workspace that is not verified (revoked), whose
  // members cannot confirm either. The stage would move with nothing earned.
  if (actor.kind === 'admin' && !vendor?.verified) fail('VENDOR_NOT_VERIFIED');
  const vendorName = vendor?.name ?? 'The vendor';
  // The terms at the deal value this confirmation gives (the value of a Closed-Won decides flat or percentage).
  const bounty = (await bountyOf(tx, deal, milestone)) ?? DISABLED;
  if (milestone === 'retentionBonus') checkRetentionDue(confirmed, bounty, now);
  if (
    !(await insertConfirmation(tx, {
      referralId: referral.id,
      milestone,
      actor,
      note: input.note,
      dealValueCents,
      bounty,
      at: now,
    }))
  )
    fail('MILESTONE_ALREADY_CONFIRMED');
  if (dealValueCents !== null) await setDealValues(tx, referral.id, given, now);
  if (await acceptIfNew(tx, referral.id, now))
    await addTimelineEntry(tx, referral.id, timelineEntry.accepted(vendorName), now);
  await addTimelineEntry(
    tx,
    referral.id,
    timelineEntry.milestoneConfirmed(milestone, { actor: actor.kind, vendorName, note: input.note }),
    now,
  );
  const lead = { change: 'milestone_confirmed', milestone };
  const stage = MILESTONE_STAGES[milestone];
  const moved =
    stage !== undefined &&
    STAGE_RANK[stage] > STAGE_RANK[referral.status] &&
    (await changeStage(
      tx,
      emit,
      { id: referral.id, userId: referral.userId, projectId: referral.projectId },
      { status: stage, timeline: true, actor, lead, at: now },
    ));
  if (!moved)
    emit('lead.status_changed', {
      referralId: referral.id,
      vendorId: referral.vendorId,
      stage: referral.status,
      previousStage: referral.status,
      ...lead,
      changedAt: now.toISOString(),
    });
  return earn(tx, emit, { referral: deal, milestone, bounty, actor, vendorName, note: input.note }, settings, now);
}

/** The commission a confirmation earns, with its ledger entry and `commission.created`; null when none. */
async function earn(
  tx: Tx,
  emit: Emit,
  earned: {
    referral: LockedReferral;
    milestone: Milestone;
    bounty: Bounty;
    actor: Actor;
    vendorName: string;
    note: string;
  },
  settings: MoneySettings,
  at: Date,
): Promise<string | null> {
  const { referral, milestone, bounty, actor } = earned;
  const dealValueCents = referral.dealValueCents ?? referral.expectedValueCents;
  const amounts = commissionCents(bounty, dealValueCents);
  if (!amounts) return null;
  const percentage = (bounty.type ?? 'flat') !== 'flat';
  const reason =
    actor.kind === 'admin'
      ? earned.note
      : earned.note
        ? `Confirmed by ${earned.vendorName}: ${earned.note}`
        : `Confirmed by ${earned.vendorName}`;
  const id = await insertCommission(tx, {
    referralId: referral.id,
    userId: referral.userId,
    vendorId: referral.vendorId,
    milestone,
    amounts,
    dealValueCents: percentage ? dealValueCents : null,
    currency: settings.currency,
    actor,
    reason,
    at,
  });
  if (!id) return null;
  const referrer = await referrerProfile(tx, referral.userId);
  emit('commission.created', {
    commissionId: id,
    referralId: referral.id,
    vendorId: referral.vendorId,
    vendorName: earned.vendorName,
    milestone,
    currency: settings.currency,
    grossCents: amounts.gross,
    referrerCents: amounts.referrer,
    referrerEmail: referrer?.email ?? '',
    referrerFirstName: profileFirstName(referrer),
    clientName: referral.clientName,
    confirmedBy: actor.kind === 'admin' ? 'admin' : 'vendor',
    createdAt: at.toISOString(),
  });
  return id;
}

/**
 * The vendor or an administrator reverses a deal, in the caller's transaction with the referral locked: every
 * unpaid commission of the referral gets its reversal entry (409 NOTHING_TO_REVERSE when none is left), the
 * timeline says who and why, the vendor's webhooks hear `lead.status_changed` (deal_reversed) and the referrer
 * is emailed through `commissions.reversed`.
 */
export async function reverseDeal(
  tx: Tx,
  emit: Emit,
  deal: { referral: LockedReferral; actor: Actor; reason: string; vendorName: string; currency: string },
): Promise<void> {
  const { referral, actor, reason } = deal;
  const at = new Date();
  const reversed = await reverseUnpaid(tx, referral.id, actor, reason, at);
  if (!reversed.count) fail('NOTHING_TO_REVERSE');
  const by = actor.kind === 'admin' ? 'admin' : 'vendor';
  await addTimelineEntry(tx, referral.id, timelineEntry.dealReversed(by, deal.vendorName, reason), at);
  if (referral.vendorId)
    emit('lead.status_changed', {
      referralId: referral.id,
      vendorId: referral.vendorId,
      stage: referral.status,
      previousStage: referral.status,
      change: 'deal_reversed',
      milestone: null,
      changedAt: at.toISOString(),
    });
  const referrer = await referrerProfile(tx, referral.userId);
  emit('commissions.reversed', {
    referralId: referral.id,
    vendorId: referral.vendorId,
    vendorName: deal.vendorName,
    clientName: referral.clientName,
    referrerEmail: referrer?.email ?? '',
    referrerFirstName: profileFirstName(referrer),
    reversedBy: by,
    reason,
    milestones: reversed.milestones,
    currency: deal.currency,
    referrerCents: reversed.cents,
    reversedAt: at.toISOString(),
  });
}
