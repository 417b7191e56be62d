import { Bounties, type Commission, type Milestone, type ReferralStatus } from '@app/contracts';
import { DEFAULT_RETENTION_MONTHS } from '@app/domain';
import type pg from 'pg';
import type { Tx } from './db.ts';
import type { PrismaClient } from './generated/prisma/client.ts';

/** Data access of commissions and of the vendors' bounties they are earned from. */

/** A vendor's bounties as stored, or null when none (or unreadable). */
function bountiesOf(json: unknown): Bounties | null {
  const parsed = Bounties.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** A referral's owner and deal value with its vendor's bounties; null when the vendor has none. */
export async function referralWithBounties(
  tx: Tx,
  referralId: number,
): Promise<{ userId: string; dealValue: number | null; bounties: Bounties } | null> {
  const [row] = await tx.$queryRaw<Array<{ user_id: string; deal_value: number | null; bounties: unknown }>>`
    SELECT r.user_id, r.deal_value::float8 AS deal_value, vb.bounties
      FROM referrals r JOIN projects p ON p.id = r.project_id JOIN vendor_bounties vb ON vb.company_key = p.company_key
     WHERE r.id = ${referralId}`;
  const bounties = row && bountiesOf(row.bounties);
  return row && bounties ? { userId: row.user_id, dealValue: row.deal_value, bounties } : null;
}

/** Every stage the referral was ever moved to (its history). */
export async function stagesReached(tx: Tx, referralId: number): Promise<ReferralStatus[]> {
  const rows = await tx.$queryRaw<Array<{ to_status: ReferralStatus }>>`
    SELECT DISTINCT to_status::text AS to_status FROM referral_status_changes WHERE referral_id = ${referralId}`;
  return rows.map((row) => row.to_status);
}

/**
 * Records an earned commission (amounts in cents) once per referral and milestone: answers 1 when it was
 * recorded, 0 when that milestone was paid before.
 */
export function insertCommission(
  tx: Tx,
  commission: {
    referralId: number;
    userId: string;
    milestone: Milestone;
    cents: { gross: number; referrer: number; fee: number };
    at: Date;
  },
): Promise<number> {
  const { referralId, userId, milestone, cents, at } = commission;
  return tx.$executeRaw`
    INSERT INTO commissions (referral_id, user_id, milestone, gross_amount, referrer_amount, platform_fee, earned_at)
    VALUES (${referralId}, ${userId}, ${milestone}, ${cents.gross / 100}, ${cents.referrer / 100}, ${cents.fee / 100}, ${at})
    ON CONFLICT (referral_id, milestone) DO NOTHING`;
}

/**
 * Closed-Won referrals whose enabled retention bonus is due at `now` and not earned yet, oldest first.
 * A first sift: each is checked again with its row locked before it is paid.
 */
export async function dueForRetention(prisma: PrismaClient, now: Date, batch: number): Promise<number[]> {
  const rows = await prisma.$queryRaw<Array<{ id: number }>>`
    SELECT r.id FROM referrals r
      JOIN projects p ON p.id = r.project_id
      JOIN vendor_bounties vb ON vb.company_key = p.company_key
     WHERE r.closed_won_at IS NOT NULL AND r.status = 'became_customer'
       AND (vb.bounties -> 'retentionBonus' ->> 'enabled') = 'true'
       AND r.closed_won_at + make_interval(months => coalesce((vb.bounties -> 'retentionBonus' ->> 'months')::int, ${DEFAULT_RETENTION_MONTHS})) <= ${now}
       AND NOT EXISTS (SELECT 1 FROM commissions c WHERE c.referral_id = r.id AND c.milestone = 'retentionBonus')
     ORDER BY r.closed_won_at, r.id
     LIMIT ${batch}`;
  return rows.map((row) => row.id);
}

/** A referral's retention state with its row locked; null when its vendor has no bounties. */
export async function lockForRetention(tx: Tx, referralId: number) {
  const [row] = await tx.$queryRaw<
    Array<{
      user_id: string;
      status: ReferralStatus;
      closed_won_at: Date | null;
      deal_value: number | null;
      bounties: unknown;
    }>
  >`
    SELECT r.user_id, r.status::text AS status, r.closed_won_at, r.deal_value::float8 AS deal_value, vb.bounties
      FROM referrals r JOIN projects p ON p.id = r.project_id JOIN vendor_bounties vb ON vb.company_key = p.company_key
     WHERE r.id = ${referralId} FOR UPDATE OF r`;
  const bounties = row && bountiesOf(row.bounties);
  if (!row || !bounties) return null;
  return {
    userId: row.user_id,
    status: row.status,
    closedWonAt: row.closed_won_at && new Date(row.closed_won_at),
    dealValue: row.deal_value,
    bounties,
  };
}

/** Stores a vendor's bounties (`bounties.saved`); an older event than the stored one changes nothing. */
export async function storeBounties(
  tx: Tx,
  vendor: { companyKey: string; companyName: string; bounties: Bounties; savedAt: Date },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO vendor_bounties (company_key, company_name, bounties, saved_at)
    VALUES (${vendor.companyKey}, ${vendor.companyName}, ${JSON.stringify(vendor.bounties)}::jsonb, ${vendor.savedAt})
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

/** Commissions `c` as the API lists them, with their referral `r` and its project `p` (the partner). */
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

export function commissionsRepository(pool: pg.Pool) {
  return {
    /** Marks a commission paid out (a second time keeps the first date); false when there is no such commission. */
    async markPaidOut(id: string): Promise<boolean> {
      if (!UUID.test(id)) return false;
      const { rowCount } = await pool.query(
        `UPDATE commissions SET state = 'paid_out', paid_out_at = coalesce(paid_out_at, now()) WHERE id = $1`,
        [id],
      );
      return rowCount === 1;
    },

    async byId(id: string): Promise<Commission | null> {
      if (!UUID.test(id)) return null;
      const { rows } = await pool.query<CommissionRow>(`${SELECT_COMMISSIONS} WHERE c.id = $1`, [id]);
      return rows[0] ? toCommission(rows[0]) : null;
    },
  };
}
