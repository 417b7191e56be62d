import {
  Bounties,
  MILESTONES,
  type Bounty,
  type Commission,
  type LedgerEntry,
  type Milestone,
  type ReferralStatus,
} from '@app/contracts';
import { termsOf } from '@app/domain';
import { prepared } from '@app/kit';
import type pg from 'pg';
import type { Tx } from './db.ts';
import { personName } from './people.ts';

/**
 * Data access of money: milestone confirmations, commissions (immutable rows), their append-only ledger
 * (commission_entries) and payouts. Every state and total is computed from the ledger: a commission with a
 * 'paid' entry is paid, with a 'reversed' entry reversed, else in escrow. Amounts are BIGINT cents.
 */

/** A timestamp as the API's ISO text, formatted by PostgreSQL. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Who did something to money: a vendor member, an administrator, the referrer, or the system. */
export interface Actor {
  kind: 'vendor' | 'admin' | 'referrer' | 'system';
  userId: string | null;
  name: string;
}

/** BIGINT (and numeric sums) as the driver answers them (text, or bigint through Prisma) -> number of cents. */
export const cents = (value: string | number | bigint | null | undefined): number =>
  value == null ? 0 : Number(value);
const centsOrNull = (value: string | number | bigint | null | undefined): number | null =>
  value == null ? null : Number(value);

/** A vendor's bounties as stored, or null when none (or unreadable). */
export function bountiesOf(json: unknown): Bounties | null {
  const parsed = Bounties.safeParse(json);
  return parsed.success ? parsed.data : null;
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

/** The bounties of the vendor now: null when it has none or is not verified (they apply only while it is). */
export async function currentBounties(tx: Tx, vendorId: string): Promise<Bounties | null> {
  const [row] = await tx.$queryRaw<Array<{ bounties: unknown }>>`
    SELECT vb.bounties FROM vendor_bounties vb JOIN vendors v ON v.id = vb.vendor_id AND v.verified
     WHERE vb.vendor_id = ${vendorId}`;
  return row ? bountiesOf(row.bounties) : null;
}

/**
 * The bounty a milestone of a locked referral pays by now (termsOf: the better of its vendor's bounty when the
 * referral was made and today's, at the deal value known); undefined when there is none, or the vendor is not
 * verified (no terms apply then).
 */
export async function bountyOf(tx: Tx, referral: LockedReferral, milestone: Milestone): Promise<Bounty | undefined> {
  const current = referral.vendorId ? await currentBounties(tx, referral.vendorId) : null;
  if (!current) return undefined;
  const dealValueCents = referral.dealValueCents ?? referral.expectedValueCents;
  const atReferral = referral.bountiesAtReferral == null ? null : bountiesOf(referral.bountiesAtReferral);
  return termsOf(atReferral?.[milestone], current[milestone], dealValueCents);
}

/** What the money rules need of a referral, its row locked until the transaction ends. */
export interface LockedReferral {
  id: number;
  userId: string;
  projectId: string;
  status: ReferralStatus;
  vendorId: string | null;
  leadStatus: 'new' | 'accepted' | 'declined' | null;
  dealValueCents: number | null;
  expectedValueCents: number | null;
  clientName: string;
  productName: string;
  /**
   * The vendor's bounties when the referral was made, as stored (null: it had none, or it was made unrouted);
   * read by bountyOf, the one that needs them.
   */
  bountiesAtReferral: unknown;
}

export async function lockReferral(tx: Tx, referralId: number): Promise<LockedReferral | null> {
  const [row] = await tx.$queryRaw<
    Array<{
      id: number;
      user_id: string;
      project_id: string;
      status: ReferralStatus;
      vendor_id: string | null;
      lead_status: LockedReferral['leadStatus'];
      deal_value_cents: bigint | null;
      expected_value_cents: bigint | null;
      client_name: string | null;
      product_name: string;
      bounties_at_referral: unknown;
    }>
  >`
    SELECT r.id, r.user_id, r.project_id, r.status::text AS status, r.vendor_id, r.lead_status::text AS lead_status,
           r.deal_value_cents, r.expected_value_cents, r.client ->> 'name' AS client_name, p.product_name,
           r.bounties_at_referral
      FROM referrals r JOIN projects p ON p.id = r.project_id WHERE r.id = ${referralId} FOR UPDATE OF r`;
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    projectId: row.project_id,
    status: row.status,
    vendorId: row.vendor_id,
    leadStatus: row.lead_status,
    dealValueCents: centsOrNull(row.deal_value_cents),
    expectedValueCents: centsOrNull(row.expected_value_cents),
    clientName: row.client_name ?? '',
    productName: row.product_name,
    bountiesAtReferral: row.bounties_at_referral,
  };
}

/** The referral's confirmed milestones and when. */
export async function confirmationsOf(tx: Tx, referralId: number): Promise<Map<Milestone, Date>> {
  const rows = await tx.$queryRaw<Array<{ milestone: Milestone; confirmed_at: Date }>>`
    SELECT milestone, confirmed_at FROM milestone_confirmations WHERE referral_id = ${referralId}`;
  return new Map(rows.map((row) => [row.milestone, new Date(row.confirmed_at)]));
}

/** Records a confirmation once per referral and milestone: false when it was confirmed before. */
export async function insertConfirmation(
  tx: Tx,
  confirmation: {
    referralId: number;
    milestone: Milestone;
    actor: Actor;
    note: string;
    dealValueCents: number | null;
    /** The terms it is confirmed under. */
    bounty: Bounty;
    at: Date;
  },
): Promise<boolean> {
  const { referralId, milestone, actor, note, dealValueCents, bounty, at } = confirmation;
  const inserted = await tx.$executeRaw`
    INSERT INTO milestone_confirmations (referral_id, milestone, actor, actor_user_id, actor_name, note, deal_value_cents, bounty, confirmed_at)
    VALUES (${referralId}, ${milestone}, ${actor.kind}, ${actor.userId}, ${actor.name}, ${note}, ${dealValueCents},
            ${JSON.stringify(bounty)}::jsonb, ${at})
    ON CONFLICT (referral_id, milestone) DO NOTHING`;
  return inserted === 1;
}

export async function setDealValues(
  tx: Tx,
  referralId: number,
  values: { dealValueCents?: number; expectedValueCents?: number },
  at: Date,
): Promise<void> {
  await tx.$executeRaw`
    UPDATE referrals SET deal_value_cents = coalesce(${values.dealValueCents ?? null}::bigint, deal_value_cents),
           expected_value_cents = coalesce(${values.expectedValueCents ?? null}::bigint, expected_value_cents),
           updated_at = ${at}
     WHERE id = ${referralId}`;
}

/** The lead is accepted (the vendor acted on it) unless it was decided before; answers whether it was. */
export async function acceptIfNew(tx: Tx, referralId: number, at: Date): Promise<boolean> {
  const accepted = await tx.$executeRaw`
    UPDATE referrals SET lead_status = 'accepted', decided_at = ${at}, updated_at = ${at}
     WHERE id = ${referralId} AND lead_status = 'new'`;
  return accepted === 1;
}

/** When the referrer last asked for this milestone's confirmation (null: never). */
export async function lastRequestOf(tx: Tx, referralId: number, milestone: Milestone): Promise<Date | null> {
  const [row] = await tx.$queryRaw<Array<{ requested_at: Date }>>`
    SELECT requested_at FROM confirmation_requests WHERE referral_id = ${referralId} AND milestone = ${milestone}
     ORDER BY requested_at DESC LIMIT 1`;
  return row ? new Date(row.requested_at) : null;
}

export async function insertRequest(
  tx: Tx,
  request: { referralId: number; milestone: Milestone; userId: string; message: string; at: Date },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO confirmation_requests (referral_id, milestone, user_id, message, requested_at)
    VALUES (${request.referralId}, ${request.milestone}, ${request.userId}, ${request.message}, ${request.at})`;
}

/**
 * A new commission with its 'earned' ledger entry, once per referral and milestone: answers its id, or null
 * when that milestone earned one before.
 */
export async function insertCommission(
  tx: Tx,
  commission: {
    referralId: number;
    userId: string;
    vendorId: string | null;
    milestone: Milestone;
    amounts: { gross: number; referrer: number; fee: number };
    dealValueCents: number | null;
    currency: string;
    actor: Actor;
    reason: string;
    at: Date;
  },
): Promise<string | null> {
  const { referralId, userId, vendorId, milestone, amounts, dealValueCents, currency, actor, reason, at } = commission;
  const [row] = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO commissions (referral_id, user_id, vendor_id, milestone, gross_cents, referrer_cents, fee_cents, deal_value_cents, currency, earned_at)
    VALUES (${referralId}, ${userId}, ${vendorId}, ${milestone}, ${amounts.gross}, ${amounts.referrer}, ${amounts.fee},
            ${dealValueCents}, ${currency}, ${at})
    ON CONFLICT (referral_id, milestone) DO NOTHING RETURNING id::text`;
  if (!row) return null;
  await tx.$executeRaw`
    INSERT INTO commission_entries (commission_id, referral_id, user_id, kind, amount_cents, actor, actor_user_id, actor_name, reason, at)
    VALUES (${row.id}::uuid, ${referralId}, ${userId}, 'earned', ${amounts.referrer}, ${actor.kind}, ${actor.userId},
            ${actor.name}, ${reason}, ${at})`;
  return row.id;
}

/** Entries that settle a commission (it leaves escrow): a commission has at most one of them. */
const SETTLED = `EXISTS (SELECT 1 FROM commission_entries se WHERE se.commission_id = c.id AND se.kind IN ('paid', 'reversed'))`;

/**
 * Reverses every unpaid (in escrow) commission of a referral: a 'reversed' entry each, the commissions
 * locked in id order first (as payouts lock them), so a payout and a reversal never both settle one.
 * Answers how many were reversed and the referrer cents they took back.
 */
export async function reverseUnpaid(
  tx: Tx,
  referralId: number,
  actor: Actor,
  reason: string,
  at: Date,
): Promise<{ count: number; cents: number; milestones: Milestone[] }> {
  await tx.$queryRaw`SELECT id FROM commissions WHERE referral_id = ${referralId} ORDER BY id FOR UPDATE`;
  const open = await tx.$queryRawUnsafe<
    Array<{ id: string; user_id: string; referrer_cents: bigint; milestone: Milestone }>
  >(
    `SELECT c.id::text, c.user_id, c.referrer_cents, c.milestone FROM commissions c WHERE c.referral_id = $1 AND NOT ${SETTLED} ORDER BY c.id`,
    referralId,
  );
  let total = 0;
  for (const commission of open) {
    total += cents(commission.referrer_cents);
    await tx.$executeRaw`
      INSERT INTO commission_entries (commission_id, referral_id, user_id, kind, amount_cents, actor, actor_user_id, actor_name, reason, at)
      VALUES (${commission.id}::uuid, ${referralId}, ${commission.user_id}, 'reversed', ${-cents(commission.referrer_cents)},
              ${actor.kind}, ${actor.userId}, ${actor.name}, ${reason}, ${at})`;
  }
  const milestones = MILESTONES.filter((m) => open.some((c) => c.milestone === m));
  return { count: open.length, cents: total, milestones };
}

/** The listed commissions locked in id order; those still in escrow with their referrer. */
export async function lockForPayout(
  tx: Tx,
  ids: string[],
): Promise<{
  found: number;
  open: Array<{ id: string; referralId: number; userId: string; referrerCents: number; earnedAt: Date }>;
}> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id::text FROM commissions WHERE id = ANY(${ids}::uuid[]) ORDER BY id FOR UPDATE`;
  const open = await tx.$queryRawUnsafe<
    Array<{ id: string; referral_id: number; user_id: string; referrer_cents: bigint; earned_at: Date }>
  >(
    `SELECT c.id::text, c.referral_id, c.user_id, c.referrer_cents, c.earned_at FROM commissions c
      WHERE c.id = ANY($1::uuid[]) AND NOT ${SETTLED} ORDER BY c.id`,
    ids,
  );
  return {
    found: locked.length,
    open: open.map((row) => ({
      id: row.id,
      referralId: row.referral_id,
      userId: row.user_id,
      referrerCents: cents(row.referrer_cents),
      earnedAt: new Date(row.earned_at),
    })),
  };
}

/** A payout batch; null when its reference is taken (unique, also between concurrent payouts). */
export async function insertPayout(
  tx: Tx,
  payout: { reference: string; method: string; paidOn: string; currency: string; recordedBy: Actor; at: Date },
): Promise<string | null> {
  const [row] = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO payouts (reference, method, paid_on, currency, recorded_at, recorded_by, recorded_by_user_id)
    VALUES (${payout.reference}, ${payout.method}, ${payout.paidOn}::date, ${payout.currency}, ${payout.at},
            ${payout.recordedBy.name}, ${payout.recordedBy.userId})
    ON CONFLICT (reference) DO NOTHING RETURNING id::text`;
  return row?.id ?? null;
}

export async function insertPaidEntry(
  tx: Tx,
  entry: {
    commissionId: string;
    referralId: number;
    userId: string;
    referrerCents: number;
    payoutId: string;
    actor: Actor;
    reason: string;
    at: Date;
  },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO commission_entries (commission_id, referral_id, user_id, kind, amount_cents, actor, actor_user_id, actor_name, reason, payout_id, at)
    VALUES (${entry.commissionId}::uuid, ${entry.referralId}, ${entry.userId}, 'paid', ${-entry.referrerCents}, ${entry.actor.kind},
            ${entry.actor.userId}, ${entry.actor.name}, ${entry.reason}, ${entry.payoutId}::uuid, ${entry.at})`;
}

// Reads (through the pool, after the transaction committed).

export interface CommissionRow {
  id: string;
  referral_id: number;
  milestone: Commission['milestone'];
  vendor_id: string | null;
  partner: string;
  contact: string;
  user_id: string;
  referrer_first_name: string | null;
  referrer_last_name: string | null;
  referrer_email: string | null;
  currency: string;
  gross_cents: string;
  referrer_cents: string;
  fee_cents: string;
  deal_value_cents: string | null;
  state: Commission['state'];
  earned_at: string;
  paid_at: string | null;
  payout_id: string | null;
  payout_reference: string | null;
  reversed_at: string | null;
  reversal_reason: string | null;
}

/** The state of the commission `c` from its settling entries `pe` (paid) and `re` (reversed). */
export const STATE_OF_C = `CASE WHEN pe.id IS NOT NULL THEN 'paid' WHEN re.id IS NOT NULL THEN 'reversed' ELSE 'in_escrow' END`;
export const ENTRIES_OF_C = `LEFT JOIN commission_entries pe ON pe.commission_id = c.id AND pe.kind = 'paid'
    LEFT JOIN commission_entries re ON re.commission_id = c.id AND re.kind = 'reversed'`;

/**
 * Commissions `c` as the API answers them, with their referral `r`, its project `p`, the vendor `v` that
 * owes them (the partner: the vendor workspace's name, else the project's company), the referrer `rf`, and
 * their state from the ledger (one 'paid' and one 'reversed' entry at most each: unique (commission, kind)).
 */
export const SELECT_COMMISSIONS = `
  SELECT c.id::text, c.referral_id, c.milestone, c.vendor_id, coalesce(v.name, p.company_name) AS partner,
         r.referred_first_name || ' ' || r.referred_last_name AS contact,
         c.user_id, rf.first_name AS referrer_first_name, rf.last_name AS referrer_last_name, rf.email AS referrer_email,
         c.currency, c.gross_cents::text, c.referrer_cents::text, c.fee_cents::text, c.deal_value_cents::text,
         ${STATE_OF_C} AS state, ${iso('c.earned_at')} AS earned_at, ${iso('pe.at')} AS paid_at, pe.payout_id::text AS payout_id,
         po.reference AS payout_reference, ${iso('re.at')} AS reversed_at, re.reason AS reversal_reason
    FROM commissions c JOIN referrals r ON r.id = c.referral_id JOIN projects p ON p.id = r.project_id
    LEFT JOIN vendors v ON v.id = c.vendor_id LEFT JOIN referrers rf ON rf.user_id = c.user_id
    ${ENTRIES_OF_C}
    LEFT JOIN payouts po ON po.id = pe.payout_id`;

export const toCommission = (row: CommissionRow): Commission => ({
  id: row.id,
  referralId: row.referral_id,
  milestone: row.milestone,
  vendorId: row.vendor_id,
  partner: row.partner,
  contact: row.contact,
  referrer: {
    userId: row.user_id,
    name: personName({
      firstName: row.referrer_first_name ?? '',
      lastName: row.referrer_last_name ?? '',
      email: row.referrer_email ?? '',
    }),
    email: row.referrer_email ?? '',
  },
  currency: row.currency,
  grossCents: cents(row.gross_cents),
  referrerCents: cents(row.referrer_cents),
  feeCents: cents(row.fee_cents),
  dealValueCents: centsOrNull(row.deal_value_cents),
  state: row.state,
  earnedAt: row.earned_at,
  paidAt: row.paid_at,
  payoutId: row.payout_id,
  payoutReference: row.payout_reference,
  reversedAt: row.reversed_at,
  reversalReason: row.reversal_reason,
});

export async function queryCommissions(pool: pg.Pool, where: string, params: unknown[], order = 'c.earned_at, c.id') {
  const { rows } = await pool.query<CommissionRow>(
    prepared(`${SELECT_COMMISSIONS} WHERE ${where} ORDER BY ${order}`, params),
  );
  return rows.map(toCommission);
}

export async function ledgerOf(pool: pg.Pool, referralId: number): Promise<LedgerEntry[]> {
  const { rows } = await pool.query<{
    id: string;
    commission_id: string;
    kind: LedgerEntry['kind'];
    amount_cents: string;
    actor: LedgerEntry['actor'];
    actor_name: string;
    reason: string;
    at: string;
  }>(
    `SELECT e.id::text, e.commission_id::text, e.kind, e.amount_cents::text, e.actor, e.actor_name, e.reason, ${iso('e.at')} AS at
       FROM commission_entries e WHERE e.referral_id = $1 ORDER BY e.at, e.kind = 'earned' DESC, e.id`,
    [referralId],
  );
  return rows.map((row) => ({
    id: row.id,
    commissionId: row.commission_id,
    kind: row.kind,
    amountCents: cents(row.amount_cents),
    actor: row.actor,
    actorName: row.actor_name,
    reason: row.reason,
    at: row.at,
  }));
}
