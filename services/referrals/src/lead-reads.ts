import type {
  ClientOrganization,
  EmailDraft,
  IcpFit,
  Lead,
  LeadStatus,
  ReferralMoney,
  ReferralStatus,
  TimelineEntry,
} from '@app/contracts';
import type { ListLeadsQuery } from '@app/contracts';
import { leadState } from '@app/domain';
import type pg from 'pg';
import type { z } from 'zod';
import { moneyOf } from './money-view.ts';
import { isReferralId, iso, moneySubjectOf, TIMELINE_OF_R } from './reads.ts';
import { personName } from './people.ts';

/**
 * Reading a vendor's lead inbox: the referrals routed to it, newest first, by index (vendor_id,
 * created_at DESC, id DESC), each with its referrer, client, fit, intro email and timeline.
 */

interface LeadRow {
  id: number;
  created_at: string;
  lead_status: LeadStatus;
  decline_reason: string | null;
  decided_at: string | null;
  product_name: string;
  client: ClientOrganization | null;
  referred_first_name: string;
  referred_last_name: string;
  referred_email: string;
  referrer_first_name: string | null;
  referrer_last_name: string | null;
  referrer_email: string | null;
  referrer_company: string | null;
  referral_reason: string;
  notes: string | null;
  fit: IcpFit | null;
  email_draft: EmailDraft | null;
  email_sent_at: string | null;
  timeline: TimelineEntry[];
  vendor_id: string | null;
  status: ReferralStatus;
  deal_value_cents: string | null;
  expected_value_cents: string | null;
  bounties_at_referral: unknown;
}

/** leadState (@app/domain) in SQL, over the referral row `r`: the inbox's filter. */
const LEAD_STATE_OF_R = `CASE WHEN r.lead_status <> 'declined' AND r.status = 'declined' THEN 'withdrawn' ELSE r.lead_status::text END`;

const SELECT_LEADS = `
  SELECT r.id, ${iso('r.created_at')} AS created_at, r.lead_status::text AS lead_status, r.decline_reason,
         ${iso('r.decided_at')} AS decided_at, p.product_name, r.client,
         r.referred_first_name, r.referred_last_name, r.referred_email,
         rf.first_name AS referrer_first_name, rf.last_name AS referrer_last_name, rf.email AS referrer_email,
         rf.company_name AS referrer_company, r.referral_reason, r.notes, r.fit, r.email_draft,
         ${iso('r.email_sent_at')} AS email_sent_at, ${TIMELINE_OF_R} AS timeline,
         r.vendor_id, r.status::text AS status, r.deal_value_cents::text, r.expected_value_cents::text,
         r.bounties_at_referral
    FROM referrals r JOIN projects p ON p.id = r.project_id LEFT JOIN referrers rf ON rf.user_id = r.user_id`;

function toLead(row: LeadRow, money: ReferralMoney): Lead {
  const referrerEmail = row.referrer_email ?? '';
  return {
    referralId: row.id,
    createdAt: row.created_at,
    status: leadState(row.lead_status, row.status),
    declineReason: row.decline_reason,
    decidedAt: row.decided_at,
    productName: row.product_name,
    client: row.client,
    contact: { firstName: row.referred_first_name, lastName: row.referred_last_name, email: row.referred_email },
    referrer: {
      name: personName({
        firstName: row.referrer_first_name ?? '',
        lastName: row.referrer_last_name ?? '',
        email: referrerEmail,
      }),
      company: row.referrer_company ?? '',
      email: referrerEmail,
    },
    reason: row.referral_reason,
    notes: row.notes ?? '',
    fit: row.fit,
    introEmail: row.email_draft
      ? { subject: row.email_draft.subject, body: row.email_draft.body, sentAt: row.email_sent_at }
      : null,
    timeline: row.timeline,
    stage: row.status,
    money,
  };
}

export type LeadsQuery = z.output<typeof ListLeadsQuery>;

export function leadReads(pool: pg.Pool, currency: string) {
  async function withMoney(rows: LeadRow[]): Promise<Lead[]> {
    const money = await moneyOf(
      pool,
      rows.map((row) => moneySubjectOf(row)),
      currency,
    );
    return rows.map((row) => toLead(row, money.get(row.id)!));
  }

  return {
    /**
     * The vendor's leads, newest first, `limit` of them, optionally in one status and only those older than
     * the lead `before` (in the inbox's order: created_at, then id). A `before` that is not one of this
     * vendor's leads answers nothing: another vendor's referral says nothing, not even when it was made.
     */
    async list(vendorId: string, query: LeadsQuery): Promise<Lead[]> {
      const { rows } = await pool.query<LeadRow>(
        `${SELECT_LEADS}
          WHERE r.vendor_id = $1 AND ($2::text IS NULL OR ${LEAD_STATE_OF_R} = $2::text)
            AND ($3::int IS NULL OR (r.created_at, r.id) < (
              SELECT b.created_at, b.id FROM referrals b
               WHERE b.id = $3::int AND b.vendor_id = $1 AND b.lead_status IS NOT NULL))
          ORDER BY r.created_at DESC, r.id DESC LIMIT $4`,
        [vendorId, query.status ?? null, query.before ?? null, query.limit],
      );
      return withMoney(rows);
    },

    /** One lead of the vendor, or null (another vendor's referral is no lead of this one). */
    async byId(vendorId: string, referralId: number): Promise<Lead | null> {
      if (!isReferralId(referralId)) return null;
      const { rows } = await pool.query<LeadRow>(
        `${SELECT_LEADS} WHERE r.id = $1 AND r.vendor_id = $2 AND r.lead_status IS NOT NULL`,
        [referralId, vendorId],
      );
      return rows[0] ? (await withMoney([rows[0]]))[0]! : null;
    },
  };
}

export type LeadReads = ReturnType<typeof leadReads>;
