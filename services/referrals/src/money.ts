import {
  ERRORS,
  type AdminReferral,
  PAYOUT_METHOD_LABELS,
  type AdminConfirmMilestoneRequest,
  type Commission,
  type ConfirmationRequest,
  type LedgerEntry,
  type Payout,
  type PayoutDue,
  type RecordPayoutRequest,
  type Referral,
  type VendorCommissions,
} from '@app/contracts';
import { milestoneLabel } from '@app/domain';
import { fail, type Identity, type TransactionRunner } from '@app/kit';
import type pg from 'pg';
import type { z } from 'zod';
import type { Tx } from './db.ts';
import { checkRetentionDue, confirmMilestone, reverseDeal, type MoneySettings } from './milestones.ts';
import {
  bountyOf,
  confirmationsOf,
  insertPaidEntry,
  insertPayout,
  insertRequest,
  lastRequestOf,
  ledgerOf,
  lockForPayout,
  lockReferral,
  queryCommissions,
  type Actor,
} from './money-repository.ts';
import { profileFirstName, profileName } from './people.ts';
import type { ReferralReads } from './reads.ts';
import { addTimelineEntry, referrerProfile } from './repository.ts';
import { leadRecipients } from './routing.ts';
import { timelineEntry } from './timeline.ts';
import { vendorById } from './vendors-repository.ts';

/** A referrer may ask for the same milestone's confirmation once a day. */
const REQUEST_COOLDOWN_MS = 24 * 3600_000;

/**
 * The earliest date a payout of commissions earned at `earned` can have been made: the date of the latest
 * of them where it is earliest (UTC-12), so an administrator anywhere can record a payout made the day the
 * last one was earned, in their own calendar (as the latest date accepted is today's in UTC+14).
 */
function earliestPaidOn(earned: Date[]): string {
  const latest = Math.max(...earned.map((at) => at.getTime()));
  return new Date(latest - 12 * 3600_000).toISOString().slice(0, 10);
}

/** Commissions in escrow: neither paid nor reversed. */
const IN_ESCROW = 'pe.id IS NULL AND re.id IS NULL';

/** A CSV cell: quoted, quotes doubled, and a formula-looking text defused with a leading apostrophe. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** Cents as a decimal string ("1234.56", "-0.05"), from the integer (no floating point). */
export function centsToDecimal(value: number): string {
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export const PAYOUT_CSV_HEADER = [
  'Payout reference',
  'Method',
  'Paid on',
  'Referrer',
  'Referrer email',
  'Referral',
  'Client',
  'Vendor',
  'Milestone',
  'Gross',
  'Referrer share',
  'Platform fee',
  'Currency',
];

/** How an identity is named in the ledger: their referrer profile's name, else their email's local part. */
async function actorOf(db: Tx, identity: Identity, kind: Actor['kind']): Promise<Actor> {
  const profile = await referrerProfile(db, identity.userId);
  const name = profileName(profile, identity.email);
  return { kind, userId: identity.userId, name: kind === 'admin' ? `${name} (${identity.email})` : name };
}

/**
 * Money use cases that are not the vendor's lead inbox: the referrer's confirmation requests, and the
 * administrators' milestones, reversals, ledger and payouts. Each owns its transaction and its events.
 */
export function moneyUseCases(deps: {
  db: Tx;
  pool: pg.Pool;
  transaction: TransactionRunner<Tx>;
  reads: ReferralReads;
  settings: MoneySettings;
}) {
  const { db, pool, transaction, reads, settings } = deps;

  const referralOf = async (referralId: number): Promise<Referral> =>
    (await reads.byId(referralId))?.referral ?? fail('REFERRAL_NOT_FOUND');

  async function payoutsWhere(where: string, params: unknown[]): Promise<Payout[]> {
    const { rows } = await pool.query<{
      id: string;
      reference: string;
      method: Payout['method'];
      paid_on: string;
      recorded_at: string;
      recorded_by: string;
      currency: string;
    }>(
      `SELECT id::text, reference, method, to_char(paid_on, 'YYYY-MM-DD') AS paid_on,
              to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at, recorded_by, currency
         FROM payouts WHERE ${where} ORDER BY recorded_at DESC, id DESC`,
      params,
    );
    if (!rows.length) return [];
    const commissions = await queryCommissions(
      pool,
      'pe.payout_id = ANY($1::uuid[])',
      [rows.map((row) => row.id)],
      'c.user_id, c.earned_at, c.id',
    );
    return rows.map((row) => {
      const lines = commissions.filter((c) => c.payoutId === row.id);
      const referrers = new Map<string, Payout['referrers'][number]>();
      for (const line of lines) {
        const entry = referrers.get(line.referrer.userId) ?? { ...line.referrer, totalCents: 0 };
        entry.totalCents += line.referrerCents;
        referrers.set(line.referrer.userId, entry);
      }
      return {
        id: row.id,
        reference: row.reference,
        method: row.method,
        paidOn: row.paid_on,
        recordedAt: row.recorded_at,
        recordedBy: row.recorded_by,
        currency: row.currency,
        totalCents: lines.reduce((sum, c) => sum + c.referrerCents, 0),
        referrers: [...referrers.values()],
        commissions: lines,
      };
    });
  }

  return {
    /**
     * The referrer asks the vendor to confirm a milestone: once a day per milestone, only on a referral
     * routed to a verified vendor, not declined, milestone not confirmed and confirmable (the
     * retention bonus from its date). The inbox and members are emailed.
     */
    async requestConfirmation(
      identity: Identity,
      referralId: number,
      input: z.output<typeof ConfirmationRequest>,
    ): Promise<Referral> {
      const found = (await reads.byId(referralId)) ?? fail('REFERRAL_NOT_FOUND');
      if (found.userId !== identity.userId) fail('REFERRAL_FORBIDDEN');
      await transaction(async (tx, emit) => {
        const now = new Date();
        const referral = (await lockReferral(tx, referralId)) ?? fail('REFERRAL_NOT_FOUND');
        const vendor = referral.vendorId && referral.leadStatus ? await vendorById(tx, referral.vendorId) : null;
        if (!vendor) fail('REFERRAL_NOT_ROUTED');
        // Routed, but the workspace is no longer verified (revoked): nobody can confirm anything for it.
        if (!vendor.verified) fail('VENDOR_NOT_VERIFIED');
        if (referral.leadStatus === 'declined' || referral.status === 'declined') fail('LEAD_DECLINED');
        const confirmed = await confirmationsOf(tx, referralId);
        if (confirmed.has(input.milestone)) fail('MILESTONE_ALREADY_CONFIRMED');
        // The vendor could not confirm it yet: asking would only send an email it cannot act on.
        if (input.milestone === 'retentionBonus')
          checkRetentionDue(confirmed, await bountyOf(tx, referral, 'retentionBonus'), now);
        const last = await lastRequestOf(tx, referralId, input.milestone);
        if (last && now.getTime() - last.getTime() < REQUEST_COOLDOWN_MS) fail('CONFIRMATION_RECENTLY_REQUESTED');
        await insertRequest(tx, {
          referralId,
          milestone: input.milestone,
          userId: identity.userId,
          message: input.message,
          at: now,
        });
        await addTimelineEntry(tx, referralId, timelineEntry.confirmationRequested(input.milestone, vendor.name), now);
        const referrer = await referrerProfile(tx, identity.userId);
        emit('milestone.confirmation_requested', {
          referralId,
          vendorId: vendor.id,
          vendorName: vendor.name,
          recipients: leadRecipients(vendor),
          milestone: input.milestone,
          referrerName: profileName(referrer, referrer?.email ?? identity.email),
          clientName: referral.clientName,
          productName: referral.productName,
          message: input.message,
        });
      });
      return referralOf(referralId);
    },

    /** An administrator records a milestone on the vendor's behalf (the note is in the ledger and the timeline). */
    async adminConfirm(
      identity: Identity,
      referralId: number,
      input: z.output<typeof AdminConfirmMilestoneRequest>,
    ): Promise<Referral> {
      await referralOf(referralId);
      const actor = { ...(await actorOf(db, identity, 'admin')), kind: 'admin' as const };
      await transaction((tx, emit) =>
        confirmMilestone(
          tx,
          emit,
          {
            referralId,
            vendorId: null,
            milestone: input.milestone,
            dealValueCents: input.dealValueCents,
            note: input.note,
            actor,
          },
          settings,
        ),
      );
      return referralOf(referralId);
    },

    /** An administrator reverses every unpaid commission of a referral, with the reason. */
    async adminReverse(identity: Identity, referralId: number, reason: string): Promise<Referral> {
      await referralOf(referralId);
      const actor = await actorOf(db, identity, 'admin');
      await transaction(async (tx, emit) => {
        const referral = (await lockReferral(tx, referralId)) ?? fail('REFERRAL_NOT_FOUND');
        const vendor = referral.vendorId ? await vendorById(tx, referral.vendorId) : null;
        await reverseDeal(tx, emit, {
          referral,
          actor,
          reason,
          vendorName: vendor?.name ?? '',
          currency: settings.currency,
        });
      });
      return referralOf(referralId);
    },

    /** A referral as an administrator looks it up: its parties, stage, money and ledger. */
    async adminReferral(referralId: number): Promise<AdminReferral> {
      const found = (await reads.byId(referralId)) ?? fail('REFERRAL_NOT_FOUND');
      const [profile, ledger] = await Promise.all([referrerProfile(db, found.userId), ledgerOf(pool, referralId)]);
      const { referral } = found;
      return {
        id: referral.id,
        status: referral.status,
        createdAt: referral.createdAt,
        referredName: referral.referredName,
        referredEmail: referral.referredEmail,
        clientName: referral.client?.name || null,
        productName: referral.project.productName,
        companyName: referral.project.companyName || referral.company,
        referrer: { name: profileName(profile), email: profile?.email ?? '' },
        lead: referral.lead,
        money: referral.money,
        ledger,
      };
    },

    async ledger(referralId: number): Promise<LedgerEntry[]> {
      await referralOf(referralId);
      return ledgerOf(pool, referralId);
    },

    /** Commissions in escrow, per referrer (largest total first). */
    async payoutsDue(): Promise<PayoutDue[]> {
      const due = await queryCommissions(pool, IN_ESCROW, [], 'c.user_id, c.earned_at, c.id');
      const byReferrer = new Map<string, PayoutDue>();
      for (const commission of due) {
        const entry = byReferrer.get(commission.referrer.userId) ?? {
          referrer: commission.referrer,
          currency: commission.currency,
          totalCents: 0,
          commissions: [],
        };
        entry.totalCents += commission.referrerCents;
        entry.commissions.push(commission);
        byReferrer.set(commission.referrer.userId, entry);
      }
      return [...byReferrer.values()].sort((a, b) => b.totalCents - a.totalCents);
    },

    /**
     * Records a payout batch in one transaction: the listed commissions locked in id order, every one must
     * be in escrow (else 409 PAYOUT_CONFLICT and nothing is written), the reference unused (409
     * PAYOUT_REFERENCE_TAKEN). One 'paid' entry per commission; `payout.recorded` with each referrer's total.
     */
    async recordPayout(identity: Identity, input: z.output<typeof RecordPayoutRequest>): Promise<Payout> {
      const actor = await actorOf(db, identity, 'admin');
      const payoutId = await transaction(async (tx, emit) => {
        const now = new Date();
        const locked = await lockForPayout(tx, input.commissionIds);
        if (locked.found !== input.commissionIds.length || locked.open.length !== input.commissionIds.length)
          fail('PAYOUT_CONFLICT');
        const earliest = earliestPaidOn(locked.open.map((c) => c.earnedAt));
        if (input.paidOn < earliest)
          fail('PAYOUT_BEFORE_EARNED', `${ERRORS.PAYOUT_BEFORE_EARNED.message} (${earliest} at the earliest)`, {
            field: 'paidOn',
          });
        const id =
          (await insertPayout(tx, {
            reference: input.reference,
            method: input.method,
            paidOn: input.paidOn,
            currency: settings.currency,
            recordedBy: actor,
            at: now,
          })) ?? fail('PAYOUT_REFERENCE_TAKEN', undefined, { field: 'reference' });
        const referrers = new Map<string, { totalCents: number; commissions: number }>();
        for (const commission of locked.open) {
          await insertPaidEntry(tx, {
            commissionId: commission.id,
            referralId: commission.referralId,
            userId: commission.userId,
            referrerCents: commission.referrerCents,
            payoutId: id,
            actor,
            reason: `Payout ${input.reference} (${PAYOUT_METHOD_LABELS[input.method]}, ${input.paidOn})`,
            at: now,
          });
          const total = referrers.get(commission.userId) ?? { totalCents: 0, commissions: 0 };
          total.totalCents += commission.referrerCents;
          total.commissions += 1;
          referrers.set(commission.userId, total);
        }
        const paid = [];
        for (const [userId, total] of referrers) {
          const profile = await referrerProfile(tx, userId);
          paid.push({ userId, email: profile?.email ?? '', firstName: profileFirstName(profile), ...total });
        }
        emit('payout.recorded', {
          payoutId: id,
          reference: input.reference,
          method: input.method,
          paidOn: input.paidOn,
          currency: settings.currency,
          referrers: paid,
        });
        return id;
      });
      return (await payoutsWhere('id = $1::uuid', [payoutId]))[0]!;
    },

    listPayouts: (): Promise<Payout[]> => payoutsWhere('true', []),

    /**
     * One payout as CSV, a line per commission (amounts as decimals of cents, cells injection-safe), and the
     * file's name: its date and reference ("payout-2026-03-20-PAY-7.csv"), so exports do not overwrite each other.
     */
    async exportPayout(id: string): Promise<{ filename: string; csv: string }> {
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
      const payout =
        (uuid.test(id) ? (await payoutsWhere('id = $1::uuid', [id]))[0] : undefined) ?? fail('PAYOUT_NOT_FOUND');
      const { rows } = await pool.query<{ id: number; client: string | null }>(
        `SELECT id, client ->> 'name' AS client FROM referrals WHERE id = ANY($1::int[])`,
        [payout.commissions.map((c) => c.referralId)],
      );
      const clients = new Map(rows.map((row) => [row.id, row.client ?? '']));
      const lines = payout.commissions.map((c: Commission) =>
        [
          payout.reference,
          PAYOUT_METHOD_LABELS[payout.method],
          payout.paidOn,
          c.referrer.name,
          c.referrer.email,
          String(c.referralId),
          clients.get(c.referralId) || c.contact,
          c.partner,
          milestoneLabel(c.milestone),
          centsToDecimal(c.grossCents),
          centsToDecimal(c.referrerCents),
          centsToDecimal(c.feeCents),
          c.currency,
        ]
          .map(csvCell)
          .join(','),
      );
      const reference = payout.reference
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^[.-]+/, '')
        .slice(0, 80);
      return {
        filename: `payout-${payout.paidOn}${reference ? `-${reference}` : ''}.csv`,
        csv: [PAYOUT_CSV_HEADER.join(','), ...lines].join('\r\n') + '\r\n',
      };
    },

    /** What a vendor owes (gross, in escrow) and has paid, commission by commission (newest first). */
    async vendorCommissions(vendorId: string): Promise<VendorCommissions> {
      const commissions = await queryCommissions(pool, 'c.vendor_id = $1', [vendorId], 'c.earned_at DESC, c.id DESC');
      const sum = (state: Commission['state']) =>
        commissions.filter((c) => c.state === state).reduce((total, c) => total + c.grossCents, 0);
      return { currency: settings.currency, owedCents: sum('in_escrow'), paidCents: sum('paid'), commissions };
    },
  };
}

export type MoneyUseCases = ReturnType<typeof moneyUseCases>;
