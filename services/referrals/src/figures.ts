import type { ReferralStatus } from '@app/contracts';
import type { Sql, Tx } from './db.ts';

/**
 * The figures of the dashboard (referrer_stage_counts, referrer_companies, project_referral_counts), written
 * in the transaction that changes a referral so they can never disagree with the referrals themselves.
 */

/**
 * "Received" for the user $1 (reciprocity, in every date range): other users' referrals to projects of the
 * user's own company, names compared without case and legal suffixes (companyKey). All referrals to those
 * projects (the kept counts) minus the user's own (index-only on (project_id, user_id)): a few rows, where
 * counting them read every one (19,800 rows for the bench user among 1,000,000). The user's own are counted
 * per project (a correlated count on (project_id, user_id)): as a join, the generic plan PostgreSQL settles on
 * for this prepared text after five calls assumes an average user and hash-joins all of a big user's rows
 * (10,000 rows, ~2 ms, where the per-project lookups take 0.09 ms).
 */
export const RECEIVED_SQL = `(SELECT coalesce(sum(c.count), 0)::int FROM referrers me
      JOIN projects p ON p.company_key = me.company_key
      JOIN project_referral_counts c ON c.project_id = p.id
     WHERE me.user_id = $1 AND me.company_key <> '')
   - (SELECT coalesce(sum((SELECT count(*) FROM referrals r WHERE r.project_id = p.id AND r.user_id = $1)), 0)::int
        FROM referrers me JOIN projects p ON p.company_key = me.company_key
       WHERE me.user_id = $1 AND me.company_key <> '')`;

/**
 * A new referral: one more in 'pending', one more to its project, its company among the user's companies:
 * one statement (the create is the pipeline's first step, bench:pipeline), where it was three. A single
 * stage row is locked, so the stage order `addToStages` keeps against deadlocks holds.
 */
export async function countNewReferral(tx: Sql, userId: string, company: string, projectId: string): Promise<void> {
  await tx.$executeRaw`
    WITH stage AS (
      INSERT INTO referrer_stage_counts (user_id, status, count) VALUES (${userId}, 'pending', 1)
      ON CONFLICT (user_id, status) DO UPDATE SET count = referrer_stage_counts.count + 1),
    project AS (
      INSERT INTO project_referral_counts (project_id, count) VALUES (${projectId}, 1)
      ON CONFLICT (project_id) DO UPDATE SET count = project_referral_counts.count + 1)
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
