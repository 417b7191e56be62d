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

/**
 * The vendor bounties a referral earns: those of the verified vendor it was routed to. A referral that was
 * not routed, or whose vendor has no bounties or is no longer verified, earns nothing.
 */
const VENDOR_BOUNTIES_OF_R = `JOIN vendors v ON v.id = r.vendor_id AND v.verified JOIN vendor_bounties vb ON vb.vendor_id = r.vendor_id`;

/** A referral's owner and deal value with its vendor's bounties; null when the vendor has none. */
export async function referralWithBounties(
  tx: Tx,
  referralId: number,
): Promise<{ userId: string; dealValue: number | null; bounties: Bounties } | null> {
  const [row] = await tx.$queryRawUnsafe<Array<{ user_id: string; deal_value: number | null; bounties: unknown }>>(
    `SELECT r.user_id, r.deal_value::float8 AS deal_value, vb.bounties FROM referrals r ${VENDOR_BOUNTIES_OF_R} WHERE r.id = $1`,
    referralId,
  );
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
  const rows = await prisma.$queryRawUnsafe<Array<{ id: number }>>(
    `SELECT r.id FROM referrals r ${VENDOR_BOUNTIES_OF_R}
      WHERE r.closed_won_at IS NOT NULL AND r.status = 'became_customer'
        AND (vb.bounties -> 'retentionBonus' ->> 'enabled') = 'true'
        AND r.closed_won_at + make_interval(months => coalesce((vb.bounties -> 'retentionBonus' ->> 'months')::int, $1)) <= $2
        AND NOT EXISTS (SELECT 1 FROM commissions c WHERE c.referral_id = r.id AND c.milestone = 'retentionBonus')
      ORDER BY r.closed_won_at, r.id
      LIMIT $3`,
    DEFAULT_RETENTION_MONTHS,
    now,
    batch,
  );
  return rows.map((row) => row.id);
}

/** A referral's retention state with its row locked; null when its vendor has no bounties. */
export async function lockForRetention(tx: Tx, referralId: number) {
  const [row] = await tx.$queryRawUnsafe<
    Array<{
      user_id: string;
      status: ReferralStatus;
      closed_won_at: Date | null;
      deal_value: number | null;
      bounties: unknown;
    }>
  >(
    `SELECT r.user_id, r.status::text AS status, r.closed_won_at, r.deal_value::float8 AS deal_value, vb.bounties
       FROM referrals r ${VENDOR_BOUNTIES_OF_R} WHERE r.id = $1 FOR UPDATE OF r`,
    referralId,
  );
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

/** Stores a vendor's bounties (`bounties.saved`) unless a newer version is stored. */
export async function storeBounties(
  tx: Tx,
  saved: { vendorId: string; version: number; bounties: Bounties },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO vendor_bounties (vendor_id, version, bounties)
    VALUES (${saved.vendorId}, ${saved.version}, ${JSON.stringify(saved.bounties)}::jsonb)
    ON CONFLICT (vendor_id) DO UPDATE SET version = EXCLUDED.version, bounties = EXCLUDED.bounties
     WHERE vendor_bounties.version < EXCLUDED.version`;
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

/**
 * Commissions `c` as the API lists them, with their referral `r`, its project `p` and the vendor `v` it was
 * routed to: the partner is the vendor workspace's name, else the project's company (one vendor, one name).
 */
export const SELECT_COMMISSIONS = `
  SELECT c.id::text, c.referral_id, c.milestone, coalesce(v.name, p.company_name) AS partner,
         r.referred_first_name || ' ' || r.referred_last_name AS contact,
         c.gross_amount::float8 AS gross_amount, c.referrer_amount::float8 AS referrer_amount, c.platform_fee::float8 AS platform_fee,
         c.state, ${iso('c.earned_at')} AS earned_at, ${iso('c.paid_out_at')} AS paid_out_at
    FROM commissions c JOIN referrals r ON r.id = c.referral_id JOIN projects p ON p.id = r.project_id
    LEFT JOIN vendors v ON v.id = r.vendor_id`;

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
