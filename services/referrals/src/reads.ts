import type {
  ClientOrganization,
  EmailDraft,
  IcpFit,
  LeadStatus,
  ListReferralsQuery,
  Referral,
  ReferralList,
  ReferralMoney,
  ReferralStatus,
  TimelineEntry,
} from '@app/contracts';
import { leadState } from '@app/domain';
import { prepared } from '@app/kit';
import type pg from 'pg';
import { moneyColumns, moneyFrom, moneyOf, newUnroutedMoney, type MoneyRows, type MoneySubject } from './money-view.ts';
import type { z } from 'zod';
import { RECEIVED_SQL } from './figures.ts';
import { searchTermOf } from './search-text.ts';

/**
 * Reading referrals for the screens, in plain SQL: the dashboard list must stay fast for a user with
 * 10,000 referrals, so every query here is shaped for an index (see the schema) and a page costs one
 * statement (the page with projects and histories, the figures and the page's money), never one per referral.
 */

type ListQuery = z.output<typeof ListReferralsQuery>;

export interface ReferralRow {
  id: number;
  user_id: string;
  project_id: string;
  status: ReferralStatus;
  created_at: string;
  updated_at: string;
  referred_first_name: string;
  referred_last_name: string;
  referred_email: string;
  referred_phone: string | null;
  referral_reason: string;
  is_referral_aware: boolean;
  can_use_referrer_name: boolean;
  notes: string | null;
  company: string;
  email_draft: EmailDraft | null;
  has_draft: boolean;
  from_clay: boolean;
  email_sent_at: string | null;
  deal_value_cents: string | null;
  expected_value_cents: string | null;
  history: Referral['history'];
  product_name: string;
  project_company_name: string;
  project_description: string;
  project_website: string | null;
  referral_program: string | null;
  description: string;
  client: ClientOrganization | null;
  vendor_id: string | null;
  vendor_name: string | null;
  lead_status: LeadStatus | null;
  decline_reason: string | null;
  decided_at: string | null;
  fit: IcpFit | null;
  bounties_at_referral: unknown;
  timeline: TimelineEntry[];
}

/** The one row of a list call (LIST_COLUMNS and its total). */
interface ListRow extends MoneyRows {
  total: number | null;
  referrals: ReferralRow[];
  by_status: Partial<Record<ReferralStatus, number>>;
  companies: string[];
  received: number;
}

/** A timestamp as the API's ISO text, formatted by PostgreSQL (no date parsing per row in Node). */
export const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The timeline of the referral `r` as a JSON array, oldest first (an index lookup per row). */
export const TIMELINE_OF_R = `(SELECT coalesce(json_agg(json_build_object('at', ${iso('t.at')}, 'actor', t.actor, 'kind', t.kind, 'text', t.text) ORDER BY t.at, t.id), '[]')
            FROM referral_timeline t WHERE t.referral_id = r.id)`;

/**
 * Referrals with their project, status history, timeline and the vendor they were routed to. Each subquery
 * is an index lookup per returned row; under ORDER BY ... LIMIT PostgreSQL evaluates them for the page's
 * rows only.
 */
const selectReferrals = (draft: 'r.email_draft' | 'NULL::jsonb', extra = '') => `
  SELECT r.id, r.user_id, r.project_id, r.status, ${iso('r.created_at')} AS created_at, ${iso('r.updated_at')} AS updated_at,
         r.referred_first_name, r.referred_last_name, r.referred_email, r.referred_phone, r.referral_reason,
         r.is_referral_aware, r.can_use_referrer_name, r.notes, r.company, ${draft} AS email_draft, r.email_draft IS NOT NULL AS has_draft, r.from_clay,
         ${iso('r.email_sent_at')} AS email_sent_at, r.deal_value_cents::text, r.expected_value_cents::text,
         (SELECT coalesce(json_agg(json_build_object('from', c.from_status, 'to', c.to_status, 'at', ${iso('c.at')}) ORDER BY c.at, c.id), '[]')
            FROM referral_status_changes c WHERE c.referral_id = r.id) AS history,
         p.product_name, p.company_name AS project_company_name, p.description AS project_description,
         p.website AS project_website, p.referral_program,
         r.description, r.client, r.vendor_id, v.name AS vendor_name, r.lead_status::text AS lead_status, r.decline_reason,
         ${iso('r.decided_at')} AS decided_at, r.fit, r.bounties_at_referral, ${TIMELINE_OF_R} AS timeline${extra}
    FROM referrals r JOIN projects p ON p.id = r.project_id LEFT JOIN vendors v ON v.id = r.vendor_id`;
/** One referral: with its intro draft. */
const SELECT_REFERRAL = selectReferrals('r.email_draft');
/** A page of the list: the draft stays in the database (only whether there is one). */
const SELECT_LIST_ITEMS = selectReferrals('NULL::jsonb');

/**
 * What a list call answers besides `total`, as the columns of one row, given the CTE `page` (the page's
 * referrals, SELECT_LIST_ITEMS's columns): the page as a JSON array of its rows (newest first: the ISO
 * texts of created_at sort as the times do, byte by byte), the dashboard's figures, and the page's money
 * (moneyColumns). One statement, so one round trip and one execution where there were three statements.
 */
const LIST_COLUMNS = `
    (SELECT coalesce(json_agg(page ORDER BY page.created_at COLLATE "C" DESC, page.id DESC), '[]') FROM page) AS referrals,
    (SELECT coalesce(json_object_agg(status, count), '{}'::json) FROM referrer_stage_counts WHERE user_id = $1) AS by_status,
    (SELECT coalesce(json_agg(company ORDER BY company), '[]') FROM referrer_companies WHERE user_id = $1) AS companies,
    ${RECEIVED_SQL} AS received,
    ${moneyColumns(
      '= ANY((SELECT array_agg(id) FROM page)::int[])',
      '= ANY((SELECT array_agg(vendor_id) FROM page WHERE lead_status IS NOT NULL)::text[])',
    )}`;

const DAY_MS = 24 * 3600_000;

/** Referral ids are int4: anything else names no referral (and a larger one would not even bind as a parameter). */
export const isReferralId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2 ** 31 - 1;

/** The WHERE clause of the dashboard's filters (spec 9), all on columns of the user's index range. */
function filtersOf(
  userId: string,
  query: ListQuery,
  now: number,
): { where: string; params: unknown[]; filtered: boolean } {
  const params: unknown[] = [userId];
  const conditions = ['r.user_id = $1'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  if (query.status) add((p) => `r.status = ${p}::referral_status`, query.status);
  if (query.company) add((p) => `r.company = ${p}`, query.company);
  // "Created later than now minus N days" (spec 9).
  if (query.days !== 'all') add((p) => `r.created_at > ${p}`, new Date(now - Number(query.days) * DAY_MS));
  // The term anywhere in the text: strpos, a plain substring search, where LIKE '%term%' (the same matches once
  // its wildcards are escaped) cost more per entry checked (bench/README.md, the referrals list's sixth pass).
  if (query.search) add((p) => `strpos(r.search_text, ${p}) > 0`, searchTermOf(query.search));
  return { where: conditions.join(' AND '), params, filtered: params.length > 1 };
}

/**
 * The ids and dates of a search's matches, given the WHERE of filtersOf: an index-only scan of the user's
 * entries (of one stage when filtered by stage) in the covering index of their search texts, the term looked
 * for in each entry, so the cost follows the user's rows, never the table's (migration 20261129000000). A B-tree
 * entry holds at most ~2.7 KB: texts over 2,000 bytes (a long reason) are left out of that index and read
 * from the heap through a partial index of their own, nearly empty. The two arms split the rows by length,
 * so each match comes once. The length bounds are literals: they must imply the partial indexes' predicates
 * in a generic plan too.
 */
export const searched = (where: string) =>
  `SELECT r.id, r.created_at FROM referrals r WHERE ${where} AND octet_length(r.search_text) <= 2000
   UNION ALL
   SELECT r.id, r.created_at FROM referrals r WHERE ${where} AND octet_length(r.search_text) > 2000`;

function toReferral(row: ReferralRow, money: ReferralMoney): Referral {
  return {
    id: row.id,
    projectId: row.project_id,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    referredFirstName: row.referred_first_name,
    referredLastName: row.referred_last_name,
    referredName: `${row.referred_first_name} ${row.referred_last_name}`,
    referredEmail: row.referred_email,
    referredPhone: row.referred_phone,
    referralReason: row.referral_reason,
    isReferralAware: row.is_referral_aware,
    canUseReferrerName: row.can_use_referrer_name,
    notes: row.notes,
    company: row.company,
    project: {
      id: row.project_id,
      productName: row.product_name,
      companyName: row.project_company_name,
      description: row.project_description,
      website: row.project_website,
      referralProgram: row.referral_program,
    },
    emailDraft: row.email_draft,
    fromClay: row.from_clay,
    emailSentAt: row.email_sent_at,
    money,
    lastActivity: lastActivityOf(row.timeline, row.created_at),
    // A referral in Declined (withdrawn, or declined by the vendor) is never sent: nothing awaits approval.
    awaitingApproval: row.has_draft && row.email_sent_at === null && row.status !== 'declined',
    history: row.history,
    description: row.description,
    client: row.client,
    lead:
      row.vendor_id && row.lead_status
        ? {
            vendorId: row.vendor_id,
            vendorName: row.vendor_name ?? row.company,
            status: leadState(row.lead_status, row.status),
            declineReason: row.decline_reason,
            decidedAt: row.decided_at,
          }
        : null,
    fit: row.fit,
    timeline: row.timeline,
  };
}

/** The newest timeline entry (the referral's creation when it has none). */
export function lastActivityOf(timeline: TimelineEntry[], createdAt: string): { at: string; text: string } {
  const last = timeline[timeline.length - 1];
  return last ? { at: last.at, text: last.text } : { at: createdAt, text: 'Referral submitted' };
}

/** What the money view needs of a referral row. */
export const moneySubjectOf = (row: {
  id: number;
  vendor_id: string | null;
  lead_status: LeadStatus | null;
  status: ReferralStatus;
  deal_value_cents: string | null;
  expected_value_cents: string | null;
  bounties_at_referral: unknown;
}): MoneySubject => ({
  id: row.id,
  vendorId: row.vendor_id && row.lead_status ? row.vendor_id : null,
  declined: row.status === 'declined' || row.lead_status === 'declined',
  dealValueCents: row.deal_value_cents === null ? null : Number(row.deal_value_cents),
  expectedValueCents: row.expected_value_cents === null ? null : Number(row.expected_value_cents),
  bountiesAtReferral: row.bounties_at_referral ?? null,
});

export function referralReads(pool: pg.Pool, currency: string) {
  async function withMoney(rows: ReferralRow[]): Promise<Referral[]> {
    const money = await moneyOf(pool, rows.map(moneySubjectOf), currency);
    return rows.map((row) => toReferral(row, money.get(row.id)!));
  }

  return {
    /** One referral and its owner, or null. */
    async byId(id: number): Promise<{ userId: string; referral: Referral } | null> {
      if (!isReferralId(id)) return null;
      const { rows } = await pool.query<ReferralRow>(prepared(`${SELECT_REFERRAL} WHERE r.id = $1`, [id]));
      const row = rows[0];
      return row ? { userId: row.user_id, referral: (await withMoney([row]))[0]! } : null;
    },

    /**
     * A referral just created, from its transaction's own rows (no reload): only its money is read, and
     * not even that when it was routed to no vendor (it has none yet).
     */
    async created(row: ReferralRow): Promise<Referral> {
      if (row.vendor_id) return (await withMoney([row]))[0]!;
      return toReferral(row, newUnroutedMoney(moneySubjectOf(row), currency));
    },

    /** A page of the user's referrals with the dashboard's figures (see ReferralList). */
    async list(userId: string, query: ListQuery, now = Date.now()): Promise<ReferralList> {
      const { where, params, filtered } = filtersOf(userId, query, now);
      const limit = `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
      // One statement (LIST_COLUMNS). A search's matches are read once, counted, and the page's 25 taken from
      // them (`searched`). Otherwise the page comes from the user's (created_at, id) index; unfiltered, the total
      // is the sum of the stages (kept up to date by figures.ts), filtered, a count.
      const sql = query.search
        ? `WITH matched AS MATERIALIZED (${searched(where)}),
                page AS MATERIALIZED (${SELECT_LIST_ITEMS}
                  JOIN (SELECT id FROM matched ORDER BY created_at DESC, id DESC ${limit}) m ON m.id = r.id)
           SELECT (SELECT count(*)::int FROM matched) AS total, ${LIST_COLUMNS}`
        : `WITH page AS MATERIALIZED (${SELECT_LIST_ITEMS} WHERE ${where} ORDER BY r.created_at DESC, r.id DESC ${limit})
           SELECT ${filtered ? `(SELECT count(*)::int FROM referrals r WHERE ${where})` : 'NULL::int'} AS total, ${LIST_COLUMNS}`;
      const { rows } = await pool.query<ListRow>(
        prepared(sql, [...params, query.pageSize, (query.page - 1) * query.pageSize]),
      );
      const row = rows[0]!;
      const { by_status: byStatus, companies, received, total, referrals } = row;
      const money = moneyFrom(row, referrals.map(moneySubjectOf), currency);
      const count = (status: ReferralStatus) => byStatus[status] ?? 0;
      const all = Object.values(byStatus).reduce((sum, n) => sum + (n ?? 0), 0);
      return {
        referrals: referrals.map((item) => {
          const { emailDraft: _draft, ...referral } = toReferral(item, money.get(item.id)!);
          return referral;
        }),
        total: total ?? all,
        page: query.page,
        pageSize: query.pageSize,
        companies,
        summary: {
          total: all,
          inFlight: all - count('became_customer') - count('declined'),
          closedWon: count('became_customer'),
          declined: count('declined'),
        },
        reciprocity: { sent: all, received },
      };
    },
  };
}

export type ReferralReads = ReturnType<typeof referralReads>;
