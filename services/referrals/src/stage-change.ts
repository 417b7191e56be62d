import type { ReferralStatus } from '@app/contracts';
import type { Emit } from '@app/kit';
import { earnCommissions } from './commissions.ts';
import type { Tx } from './db.ts';
import { countStatusChange } from './figures.ts';
import { addTimelineEntry, lockReferralStage, recordStatusChange, setDealValue, setStage } from './repository.ts';
import { timelineEntry } from './timeline.ts';

/**
 * Moves a referral to a stage (any from any, spec 4) and/or gives its deal value, inside the caller's
 * transaction: the history, the per-user counters, the timeline, `referral.status_changed` and the
 * commissions owed all follow the one change. Setting the current stage again records nothing. The
 * referrer's stage moves and a vendor's decline both come through here, so the counters stay exact.
 */
export async function changeStage(
  tx: Tx,
  emit: Emit,
  referral: { id: number; userId: string; projectId: string },
  change: { status: ReferralStatus; dealValue?: number | undefined; timeline: boolean },
): Promise<void> {
  const { status, dealValue } = change;
  const current = await lockReferralStage(tx, referral.id);
  const from = current.status;
  const newDeal = dealValue !== undefined && dealValue !== current.dealValue;
  if (from === status && !newDeal) return;
  const at = new Date();
  if (newDeal) await setDealValue(tx, referral.id, dealValue, at);
  if (from !== status) {
    await setStage(tx, referral.id, status, at);
    await recordStatusChange(tx, { referralId: referral.id, userId: referral.userId, from, to: status, at });
    await countStatusChange(tx, referral.userId, from, status);
    if (change.timeline) await addTimelineEntry(tx, referral.id, timelineEntry.stageChanged(status), at);
    emit('referral.status_changed', {
      referralId: referral.id,
      userId: referral.userId,
      projectId: referral.projectId,
      from,
      to: status,
      changedAt: at.toISOString(),
    });
  }
  await earnCommissions(tx, referral.id);
}
