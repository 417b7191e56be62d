import type { ReferralStatus } from '@app/contracts';
import type { Sql, Tx } from './db.ts';

/**
 * The figures of the dashboard (referrer_stage_counts, referrer_companies, vendor_lead_counts), written
 * in the transaction that changes a referral so they can never disagree with the referrals themselves.
 */

/**
 * The verified vendor workspaces the user $1 is a member of (as their latest `vendor.saved` lists them): the
 * referrals routed to them are the ones the user "receives" (reciprocity). A company name is anyone's to claim
 * by typing it at sign-up; a workspace's membership is not.
 */
export const MY_WORKSPACES_SQL = `SELECT v.id FROM vendors v
     WHERE v.verified AND v.members @> jsonb_build_array(jsonb_build_object('userId', $1::text))`;

/**
 * "Received" for the user $1 (reciprocity, in every date range): other users' referrals routed to the user's
 * workspaces. All of the workspaces' referrals (the kept counts) minus the user's own to them (the user's kept
 * per product and vendor figures): a few rows, where counting them would read a big vendor's every lead.
 */
export const RECEIVED_SQL = `((SELECT coalesce(sum(c.count), 0) FROM vendor_lead_counts c WHERE c.vendor_id IN (${MY_WORKSPACES_SQL}))
   - (SELECT coalesce(sum(f.count), 0) FROM referrer_project_figures f
       WHERE f.user_id = $1 AND f.vendor_id IN (${MY_WORKSPACES_SQL})))::int`;

/**
 * A new referral: one more in 'pending', one more to its vendor (when routed), its company among the user's
 * companies: one statement (the create is the pipeline's first step, bench:pipeline). A single stage row is
 * locked, so the stage order `addToStages` keeps against deadlocks holds.
 */
export async function countNewReferral(
  tx: Sql,
  userId: string,
  company: string,
  vendorId: string | null,
): Promise<void> {
  await tx.$executeRaw`
    WITH stage AS (
      INSERT INTO referrer_stage_counts (user_id, status, count) VALUES (${userId}, 'pending', 1)
      ON CONFLICT (user_id, status) DO UPDATE SET count = referrer_stage_counts.count + 1),
    vendor AS (
      INSERT INTO vendor_lead_counts (vendor_id, count) SELECT ${vendorId}::text, 1 WHERE ${vendorId}::text IS NOT NULL
      ON CONFLICT (vendor_id) DO UPDATE SET count = vendor_lead_counts.count + 1)
    INSERT INTO referrer_companies (user_id, company) SELECT ${userId}, ${company} WHERE ${company} <> ''
    ON CONFLICT DO NOTHING`;
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
