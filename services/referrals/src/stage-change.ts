import type { Milestone, ReferralStatus } from '@app/contracts';
import type { Emit } from '@app/kit';
import type { Tx } from './db.ts';
import { countStatusChange } from './figures.ts';
import { reverseUnpaid, type Actor } from './money-repository.ts';
import { addTimelineEntry, lockReferralStage, recordStatusChange, setStage } from './repository.ts';
import { timelineEntry } from './timeline.ts';

/** The referrer's own words when they move their referral to Declined. */
export const WITHDRAWN_REASON = 'Withdrawn by the referrer';

/**
 * Moves a referral to a stage (any from any, spec 4) inside the caller's transaction: the history, the
 * per-user counters, the timeline, `referral.status_changed` and, when routed, `lead.status_changed` follow
 * the one change. Setting the current stage again records nothing. A stage change EARNS NOTHING: money
 * follows the vendor's confirmations (milestones.ts). Moving to Declined reverses every unpaid commission
 * (the referrer withdraws, or the vendor declines): a ledger entry each, by `actor`.
 *
 * `lead` names what happened for the vendor's webhooks (default: stage_changed; withdrawn for the
 * referrer's Declined). Answers whether the stage moved.
 */
export async function changeStage(
  tx: Tx,
  emit: Emit,
  referral: { id: number; userId: string; projectId: string },
  change: {
    status: ReferralStatus;
    timeline: boolean;
    actor: Actor;
    /** Why unpaid commissions are reversed when the move is to Declined. */
    reversalReason?: string;
    lead?: { change: string; milestone: Milestone | null };
    at?: Date;
  },
): Promise<boolean> {
  const { status, actor } = change;
  const current = await lockReferralStage(tx, referral.id);
  const from = current.status;
  if (from === status) return false;
  const at = change.at ?? new Date();
  const withdrawn = status === 'declined' && actor.kind === 'referrer';
  await setStage(tx, referral.id, status, at);
  await recordStatusChange(tx, { referralId: referral.id, userId: referral.userId, from, to: status, at });
  await countStatusChange(tx, referral.userId, from, status);
  if (change.timeline) {
    const timelineActor = actor.kind === 'system' ? 'system' : actor.kind;
    await addTimelineEntry(
      tx,
      referral.id,
      withdrawn ? timelineEntry.withdrawn() : timelineEntry.stageChanged(status, timelineActor),
      at,
    );
  }
  if (status === 'declined') await reverseUnpaid(tx, referral.id, actor, change.reversalReason ?? WITHDRAWN_REASON, at);
  emit('referral.status_changed', {
    referralId: referral.id,
    userId: referral.userId,
    projectId: referral.projectId,
    from,
    to: status,
    changedAt: at.toISOString(),
  });
  if (current.vendorId)
    emit('lead.status_changed', {
      referralId: referral.id,
      vendorId: current.vendorId,
      stage: status,
      previousStage: from,
      change: change.lead?.change ?? (withdrawn ? 'withdrawn' : 'stage_changed'),
      milestone: change.lead?.milestone ?? null,
      changedAt: at.toISOString(),
    });
  return true;
}
