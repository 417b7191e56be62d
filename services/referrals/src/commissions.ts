import {
  Bounties,
  PLAN_SHARES,
  type Bounty,
  type Commission,
  type Milestone,
  type ReferralStatus,
} from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Tx } from './figures.ts';
import type { PrismaClient } from './generated/prisma/client.ts';

/**
 * Commissions: a vendor's enabled bounty becomes the referrer's when a referral reaches its milestone.
 *
 * - Stages → milestones: Warm Intro (intro_made) → qualifiedLead, Intro Occurred (intro_occurred) →
 *   meetingHeld, Demo (intro_accepted) → opportunityCreated, Closed-Won (became_customer) → closedWon;
 *   retentionBonus once the referral has stayed Closed-Won for the bounty's `months` (12 when unset),
 *   found by the periodic `checkRetention`. A milestone is paid only when its stage was really reached
 *   (a jump from Tee-up to Closed-Won pays closedWon only).
 * - Amounts: flat pays `amount`; percentage_arr pays amount% of the deal value (first-year ARR);
 *   percentage_mrr pays amount% of the monthly value (deal value / 12) for `months` months, recorded as
 *   one commission of the total. A percentage bounty without a deal value waits: it is earned when a
 *   later status change (or the same status again) gives the deal value, for every milestone reached.
 * - The bounties are the vendor's at the time the commission is earned.
 * - Once per referral and milestone: unique (referral_id, milestone) with ON CONFLICT DO NOTHING, in the
 *   transaction that changes the status (the referral row is locked), so retries, concurrent requests
 *   and moves back and forth pay once.
 * - Split: the referrer keeps the plan share (everyone is on Starter, 70%), the platform fee is the rest;
 *   cents rounded, referrer's share rounded half up, the fee is gross minus the share (they always add up).
 * - Payout state: in_escrow when earned, paid_out when an administrator records the payout.
 */

export const STAGE_MILESTONES: Partial<Record<ReferralStatus, Milestone>> = {
  intro_made: 'qualifiedLead',
  intro_occurred: 'meetingHeld',
  intro_accepted: 'opportunityCreated',
  became_customer: 'closedWon',
};

/** How far along a stage is (furthest_stage): the funnel counts referrals that ever reached a stage. */
export const STAGE_RANK: Record<ReferralStatus, number> = {
  pending: 0,
  declined: 0,
  intro_made: 1,
  intro_occurred: 2,
  intro_accepted: 3,
  became_customer: 4,
};

/** When a retention bonus has no months, the customer must stay a year. */
export const DEFAULT_RETENTION_MONTHS = 12;

const PLAN_SHARE = PLAN_SHARES.starter;

/** The gross amount of a bounty in cents, or null while it needs a deal value that is unknown. */
export function grossCents(bounty: Bounty, dealValue: number | null): number | null {
  const amount = bounty.amount ?? 0;
  switch (bounty.type ?? 'flat') {
    case 'flat':
      return Math.round(amount * 100);
    case 'percentage_arr':
      return dealValue === null ? null : Math.round(amount * dealValue);
    case 'percentage_mrr':
      return dealValue === null ? null : Math.round(((amount * dealValue) / 12) * (bounty.months ?? 1));
  }
  return null;
}

/** The referrer's share and the platform's fee of a gross amount, in cents. */
export function split(gross: number): { referrer: number; fee: number } {
  const referrer = Math.round(gross * PLAN_SHARE);
  return { referrer, fee: gross - referrer };
}

/** A vendor's bounties as stored, or null when none (or unreadable). */
function bountiesOf(json: unknown): Bounties | null {
  const parsed = Bounties.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/**
 * Earns what the referral's reached milestones are owed and not yet paid. Called in the transaction
 * that changed the referral (its row locked); a no-op without bounties.
 */
export async function earnCommissions(tx: Tx, referralId: number): Promise<number> {
  const [row] = await tx.$queryRaw<Array<{ user_id: string; deal_value: number | null; bounties: unknown }>>`
    SELECT r.user_id, r.deal_value::float8 AS deal_value, vb.bounties
      FROM referrals r JOIN projects p ON p.id = r.project_id JOIN vendor_bounties vb ON vb.company_key = p.company_key
     WHERE r.id = ${referralId}`;
  const bounties = row && bountiesOf(row.bounties);
  if (!row || !bounties) return 0;
  const reached = await tx.$queryRaw<Array<{ to_status: ReferralStatus }>>`
    SELECT DISTINCT to_status::text AS to_status FROM referral_status_changes WHERE referral_id = ${referralId}`;
  let earned = 0;
  for (const { to_status: status } of reached) {
    const milestone = STAGE_MILESTONES[status];
    if (milestone) earned += await earn(tx, referralId, row.user_id, milestone, bounties[milestone], row.deal_value);
  }
  return earned;
}

async function earn(
  tx: Tx,
  referralId: number,
  userId: string,
  milestone: Milestone,
  bounty: Bounty,
  dealValue: number | null,
  at = new Date(),
): Promise<number> {
  if (!bounty.enabled) return 0;
  const gross = grossCents(bounty, dealValue);
  if (gross === null || gross <= 0) return 0;
  const { referrer, fee } = split(gross);
  return tx.$executeRaw`
    INSERT INTO commissions (referral_id, user_id, milestone, gross_amount, referrer_amount, platform_fee, earned_at)
    VALUES (${referralId}, ${userId}, ${milestone}, ${gross / 100}, ${referrer / 100}, ${fee / 100}, ${at})
    ON CONFLICT (referral_id, milestone) DO NOTHING`;
}

/**
 * The retention bonuses due at `now`: Closed-Won referrals that stayed so for their vendor's retention
 * months and have no bonus yet. Each is earned in its own transaction with the referral locked and its
 * state checked again. Answers how many were earned.
 */
export async function checkRetention(prisma: PrismaClient, now: Date = new Date(), batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const due = await prisma.$queryRaw<Array<{ id: number }>>`
      SELECT r.id FROM referrals r
        JOIN projects p ON p.id = r.project_id
        JOIN vendor_bounties vb ON vb.company_key = p.company_key
       WHERE r.closed_won_at IS NOT NULL AND r.status = 'became_customer'
         AND (vb.bounties -> 'retentionBonus' ->> 'enabled') = 'true'
         AND r.closed_won_at + make_interval(months => coalesce((vb.bounties -> 'retentionBonus' ->> 'months')::int, ${DEFAULT_RETENTION_MONTHS})) <= ${now}
         AND NOT EXISTS (SELECT 1 FROM commissions c WHERE c.referral_id = r.id AND c.milestone = 'retentionBonus')
       ORDER BY r.closed_won_at, r.id
       LIMIT ${batch}`;
    let earned = 0;
    for (const { id } of due) {
      earned += await prisma.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<
          Array<{
            user_id: string;
            status: string;
            closed_won_at: Date | null;
            deal_value: number | null;
            bounties: unknown;
          }>
        >`
          SELECT r.user_id, r.status::text AS status, r.closed_won_at, r.deal_value::float8 AS deal_value, vb.bounties
            FROM referrals r JOIN projects p ON p.id = r.project_id JOIN vendor_bounties vb ON vb.company_key = p.company_key
           WHERE r.id = ${id} FOR UPDATE OF r`;
        const bounties = row && bountiesOf(row.bounties);
        if (!row || !bounties || row.status !== 'became_customer' || !row.closed_won_at) return 0;
        const bonus = bounties.retentionBonus;
        const dueAt = new Date(row.closed_won_at);
        dueAt.setUTCMonth(dueAt.getUTCMonth() + (bonus.months ?? DEFAULT_RETENTION_MONTHS));
        if (dueAt > now) return 0;
        return earn(tx, id, row.user_id, 'retentionBonus', bonus, row.deal_value, now);
      });
    }
    total += earned;
    // Rows that could not be earned (percentage without a deal value) stay due: stop at a short batch.
    if (due.length < batch || earned === 0) return total;
  }
}

/** Runs the retention check at start and then every `intervalMs` (unref'd: never keeps the process up). */
export function scheduleRetention(prisma: PrismaClient, log: FastifyBaseLogger, intervalMs = 3600_000): () => void {
  const run = () =>
    void checkRetention(prisma).then(
      (n) => n > 0 && log.info({ earned: n }, 'retention bonuses earned'),
      (error: unknown) => log.error({ err: error }, 'retention check failed'),
    );
  const timer = setInterval(run, intervalMs);
  timer.unref();
  const first = setTimeout(run, 0);
  first.unref();
  return () => {
    clearInterval(timer);
    clearTimeout(first);
  };
}

/** Stores a vendor's bounties (`bounties.saved`); an older event than the stored one changes nothing. */
export async function storeBounties(
  tx: Tx,
  key: string,
  companyName: string,
  bounties: unknown,
  savedAt: Date,
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO vendor_bounties (company_key, company_name, bounties, saved_at)
    VALUES (${key}, ${companyName}, ${JSON.stringify(bounties)}::jsonb, ${savedAt})
    ON CONFLICT (company_key) DO UPDATE SET company_name = EXCLUDED.company_name, bounties = EXCLUDED.bounties, saved_at = EXCLUDED.saved_at
     WHERE vendor_bounties.saved_at <= EXCLUDED.saved_at`;
}

interface CommissionRow {
  id: string;
  referral_id: number;
  milestone: string;
  partner: string;
  contact: string;
  gross_amount: number;
  referrer_amount: number;
  platform_fee: number;
  state: Commission['state'];
  earned_at: string;
  paid_out_at: string | null;
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const SELECT_COMMISSIONS = `
  SELECT c.id::text, c.referral_id, c.milestone, p.company_name AS partner,
         r.referred_first_name || ' ' || r.referred_last_name AS contact,
         c.gross_amount::float8 AS gross_amount, c.referrer_amount::float8 AS referrer_amount, c.platform_fee::float8 AS platform_fee,
         c.state, ${iso('c.earned_at')} AS earned_at, ${iso('c.paid_out_at')} AS paid_out_at
    FROM commissions c JOIN referrals r ON r.id = c.referral_id JOIN projects p ON p.id = r.project_id`;

export const toCommission = (row: CommissionRow): Commission => ({
  id: row.id,
  referralId: row.referral_id,
  milestone: row.milestone,
  partner: row.partner,
  contact: row.contact,
  grossAmount: row.gross_amount,
  referrerAmount: row.referrer_amount,
  platformFee: row.platform_fee,
  state: row.state,
  earnedAt: row.earned_at,
  paidOutAt: row.paid_out_at,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Records a payout (administrators); null for an unknown commission. Paying twice keeps the first date. */
export async function recordPayout(pool: pg.Pool, id: string): Promise<Commission | null> {
  if (!UUID.test(id)) return null;
  const { rowCount } = await pool.query(
    `UPDATE commissions SET state = 'paid_out', paid_out_at = coalesce(paid_out_at, now()) WHERE id = $1`,
    [id],
  );
  if (!rowCount) return null;
  const { rows } = await pool.query<CommissionRow>(`${SELECT_COMMISSIONS} WHERE c.id = $1`, [id]);
  return rows[0] ? toCommission(rows[0]) : null;
}
