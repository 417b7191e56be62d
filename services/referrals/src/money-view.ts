import {
  Bounty,
  MILESTONES,
  type Bounties,
  type Commission,
  type Milestone,
  type MilestoneState,
  type ReferralMoney,
} from '@app/contracts';
import { bountyWords, commissionCents, retentionDueAt, termsOf } from '@app/domain';
import { prepared } from '@app/kit';
import type pg from 'pg';
import { bountiesOf, SELECT_COMMISSIONS, toCommission, type CommissionRow } from './money-repository.ts';

/**
 * The money of referrals as both sides see it (Referral.money, Lead.money): deal values, where each bounty
 * milestone stands, the commissions (from the ledger) and what is earned and still expected. A page of
 * referrals costs one statement (MONEY_SQL), whatever its size.
 */

export interface MoneySubject {
  id: number;
  vendorId: string | null;
  declined: boolean;
  dealValueCents: number | null;
  expectedValueCents: number | null;
  /** The vendor's bounties when the referral was made, as stored (null when it had none). */
  bountiesAtReferral: unknown;
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What an open milestone would pay the referrer at its terms and the known deal value (null: cannot tell). */
export function expectedReferrerCents(bounty: Bounty | undefined, dealValueCents: number | null): number | null {
  if (!bounty) return null;
  return commissionCents(bounty, dealValueCents)?.referrer ?? null;
}

/**
 * The money rows of some referrals and of the vendors they were routed to, as four JSON array columns of
 * one statement: `referralIds` and `vendorIds` are the conditions that pick them (`= ANY($1::int[])`, or
 * `= ANY((SELECT array_agg(id) FROM page)::int[])` inside a statement that reads the page too, see reads.ts). Commissions come
 * from a sorted subquery (earned_at, id), the order json_agg keeps.
 */
export const moneyColumns = (referralIds: string, vendorIds: string) => `
    (SELECT coalesce(json_agg(json_build_object('referral_id', referral_id, 'milestone', milestone,
                                                'confirmed_at', ${iso('confirmed_at')}, 'actor', actor, 'bounty', bounty)), '[]')
       FROM milestone_confirmations WHERE referral_id ${referralIds}) AS confirmations,
    (SELECT coalesce(json_agg(q), '[]') FROM (
       SELECT referral_id, milestone, ${iso('max(requested_at)')} AS requested_at
         FROM confirmation_requests WHERE referral_id ${referralIds} GROUP BY referral_id, milestone) q) AS requests,
    (SELECT coalesce(json_agg(c), '[]') FROM (
       ${SELECT_COMMISSIONS} WHERE c.referral_id ${referralIds} ORDER BY c.earned_at, c.id) c) AS commissions,
    (SELECT coalesce(json_agg(json_build_object('vendor_id', vb.vendor_id, 'bounties', vb.bounties)), '[]')
       FROM vendor_bounties vb JOIN vendors v ON v.id = vb.vendor_id AND v.verified
      WHERE vb.vendor_id ${vendorIds}) AS bounties`;

/** The money of the referrals $1 (int[]) routed to the vendors $2 (text[]): one round trip, planned once per connection. */
const MONEY_SQL = `SELECT ${moneyColumns('= ANY($1::int[])', '= ANY($2::text[])')}`;

/** The columns of moneyColumns, as pg parses them. */
export interface MoneyRows {
  confirmations: Array<{
    referral_id: number;
    milestone: Milestone;
    confirmed_at: string;
    actor: 'vendor' | 'admin';
    /** The terms it was confirmed under; null when made before they were kept. */
    bounty: unknown;
  }>;
  requests: Array<{ referral_id: number; milestone: Milestone; requested_at: string }>;
  commissions: CommissionRow[];
  bounties: Array<{ vendor_id: string; bounties: unknown }>;
}

export async function moneyOf(
  pool: pg.Pool,
  subjects: MoneySubject[],
  currency: string,
): Promise<Map<number, ReferralMoney>> {
  const ids = subjects.map((s) => s.id);
  const vendorIds = [...new Set(subjects.flatMap((s) => (s.vendorId ? [s.vendorId] : [])))];
  const rows: MoneyRows = subjects.length
    ? (await pool.query<MoneyRows>(prepared(MONEY_SQL, [ids, vendorIds]))).rows[0]!
    : NO_MONEY_ROWS;
  return moneyFrom(rows, subjects, currency);
}

const NO_MONEY_ROWS: MoneyRows = { confirmations: [], requests: [], commissions: [], bounties: [] };

/**
 * The money of a referral just created that was routed to no vendor, without reading anything: it has no
 * confirmations, requests, commissions or bounties yet (what `moneyOf` would read for it).
 */
export const newUnroutedMoney = (subject: MoneySubject, currency: string): ReferralMoney =>
  moneyFrom(NO_MONEY_ROWS, [subject], currency).get(subject.id)!;

/** The money of each subject from its rows (moneyColumns), by referral id. */
export function moneyFrom(rows: MoneyRows, subjects: MoneySubject[], currency: string): Map<number, ReferralMoney> {
  const commissions = rows.commissions.map(toCommission);
  const bounties = new Map<string, Bounties>();
  for (const row of rows.bounties) {
    const parsed = bountiesOf(row.bounties);
    if (parsed) bounties.set(row.vendor_id, parsed);
  }
  const key = (id: number, milestone: string) => `${id}:${milestone}`;
  const confirmed = new Map(rows.confirmations.map((row) => [key(row.referral_id, row.milestone), row]));
  const requested = new Map(rows.requests.map((row) => [key(row.referral_id, row.milestone), row.requested_at]));
  const byReferral = new Map<number, Commission[]>();
  for (const commission of commissions) {
    const list = byReferral.get(commission.referralId) ?? [];
    list.push(commission);
    byReferral.set(commission.referralId, list);
  }
  // A page's referrals mostly share a few vendors: each bounty is put in words once (formatCents builds an
  // Intl.NumberFormat per call), not once per referral and milestone.
  const words = new Map<Bounty, string | null>();
  const wordsOf = (bounty: Bounty) => {
    if (!words.has(bounty)) words.set(bounty, bountyWords(bounty, currency));
    return words.get(bounty)!;
  };
  const result = new Map<number, ReferralMoney>();
  for (const subject of subjects) {
    // No terms apply while the vendor is not verified (it has no row then), not even those at referral.
    const vendorBounties: Bounties | undefined = subject.vendorId ? bounties.get(subject.vendorId) : undefined;
    const atReferral = vendorBounties && subject.bountiesAtReferral ? bountiesOf(subject.bountiesAtReferral) : null;
    const own = byReferral.get(subject.id) ?? [];
    const dealValue = subject.dealValueCents ?? subject.expectedValueCents;
    let expected: number | null = null;
    const milestones: MilestoneState[] = MILESTONES.map((milestone) => {
      const confirmation = confirmed.get(key(subject.id, milestone));
      const recorded = confirmation?.bounty ? Bounty.safeParse(confirmation.bounty) : null;
      // Confirmed: the terms it was confirmed under (else, for older ones, what the terms would be now).
      const bounty = recorded?.success
        ? recorded.data
        : vendorBounties && termsOf(atReferral?.[milestone], vendorBounties[milestone], dealValue);
      const open = !confirmation && vendorBounties !== undefined;
      const commission = own.find((c) => c.milestone === milestone);
      const closedWon = confirmed.get(key(subject.id, 'closedWon'));
      const requestedAt = requested.get(key(subject.id, milestone)) ?? null;
      if (!confirmation && !subject.declined && subject.vendorId) {
        const cents = expectedReferrerCents(bounty, dealValue);
        if (cents !== null) expected = (expected ?? 0) + cents;
      }
      return {
        milestone,
        bountyEnabled: bounty?.enabled ?? false,
        bounty: bounty ? wordsOf(bounty) : null,
        termsAtReferral: open ? (atReferral?.[milestone] ?? null) : null,
        termsNow: open ? (vendorBounties[milestone] ?? null) : null,
        state:
          commission?.state === 'reversed'
            ? 'reversed'
            : confirmation
              ? 'confirmed'
              : requestedAt
                ? 'requested'
                : 'open',
        requestedAt,
        confirmedAt: confirmation?.confirmed_at ?? null,
        confirmedBy: confirmation?.actor ?? null,
        dueAt:
          milestone === 'retentionBonus' && closedWon
            ? retentionDueAt(new Date(closedWon.confirmed_at), bounty ?? { enabled: false }).toISOString()
            : null,
      };
    });
    result.set(subject.id, {
      currency,
      expectedValueCents: subject.expectedValueCents,
      dealValueCents: subject.dealValueCents,
      milestones,
      commissions: own,
      earnedCents: own.filter((c) => c.state !== 'reversed').reduce((sum, c) => sum + c.referrerCents, 0),
      expectedCents: expected,
    });
  }
  return result;
}
