import type { ReferralStatus } from '@app/contracts';
import type { Tx } from './db.ts';

/**
 * The per-user figures of the dashboard (referrer_stage_counts, referrer_companies), written in the
 * transaction that changes a referral so they can never disagree with the referrals themselves.
 */

/** A new referral: one more in 'pending', and its company among the user's companies. */
export async function countNewReferral(tx: Tx, userId: string, company: string): Promise<void> {
  await addToStages(tx, userId, [['pending', 1]]);
  if (company) {
    await tx.$executeRaw`INSERT INTO referrer_companies (user_id, company) VALUES (${userId}, ${company}) ON CONFLICT DO NOTHING`;
  }
}

/** A referral moved from one stage to another. */
export async function countStatusChange(
  tx: Tx,
  userId: string,
  from: ReferralStatus,
  to: ReferralStatus,
): Promise<void> {
  await addToStages(tx, userId, [
    [from, -1],
    [to, 1],
  ]);
}

async function addToStages(tx: Tx, userId: string, changes: Array<[ReferralStatus, number]>): Promise<void> {
  const statuses = changes.map(([status]) => status);
  const deltas = changes.map(([, delta]) => delta);
  // Rows are locked in one order (by stage) whatever the change, so two concurrent changes of one
  // user's referrals (A→B and B→A) cannot deadlock on each other's counter rows.
  await tx.$executeRaw`
    INSERT INTO referrer_stage_counts (user_id, status, count)
    SELECT ${userId}, change.status::referral_status, change.delta
      FROM unnest(${statuses}::text[], ${deltas}::int[]) AS change(status, delta)
     ORDER BY change.status
    ON CONFLICT (user_id, status) DO UPDATE SET count = referrer_stage_counts.count + EXCLUDED.count`;
}
