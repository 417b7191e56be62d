import {
  Bounty,
  MILESTONES,
  type Bounties,
  type Commission,
  type ImpactQuery,
  type ImpactSummary,
  type Milestone,
} from '@app/contracts';
import { commissionCents, companyKey, MILESTONE_STAGES, STAGE_MILESTONES, STAGE_RANK, termsOf } from '@app/domain';
import type pg from 'pg';
import type { z } from 'zod';
import { bountiesOf, cents, queryCommissions } from './money-repository.ts';
import { MY_WORKSPACES_SQL, RECEIVED_SQL } from './figures.ts';

/**
 * The Impact dashboard (GET /api/referral-impact) and the commissions list, in SQL aggregates, never the
 * user's rows in Node. Unfiltered, the figures kept by triggers in every change's transaction
 * (referrer_month_figures, referrer_project_figures, referrer_pending_figures: migration
 * 20261128000000_referral_figures) answer in a few hundred rows whatever the user's size; with a date range or
 * a partner, which those rows cannot answer exactly, the queries run over the user's index range (user_id,
 * created_at; the covering index referrals_impact_idx).
 *
 * - Filters: `from`/`to` narrow by the referral's creation date (UTC days, both inclusive); `partner`
 *   narrows to the referrals to one partner (the vendor workspace the referral was routed to, else the
 *   project's company, compared as companyKey, so "Acme" and "ACME Inc." are one partner) and, for
 *   "received" (other users' referrals routed to the verified workspaces the user is a member of), to referrals
 *   from that partner's users.
 * - Rates are percent of the referrals in range, one decimal: accepted = past Tee-up and not declined.
 * - Funnel: Tee-ups are all referrals; Warm Intros, Demos: ever reached that stage or later (furthest_stage:
 *   Warm Intro < Intro Occurred < Demo < Closed-Won); Closed-Won: now Closed-Won.
 * - Money is integer cents, all of it from the ledger (commission_entries): in escrow = earned - reversed -
 *   paid; earned = in escrow + paid. Pending: milestones the referral's stage reached (furthest_stage) that
 *   the vendor has not confirmed, valued at the vendor's bounties now (where computable). Pipeline: the
 *   vendors' expected deal values of referrals not Closed-Won nor Declined. Nothing is cached: every read
 *   sees every money change.
 * - Recent activity: the latest 10 of the user's status changes (Tee-up = sent; Warm Intro and Intro
 *   Occurred = accepted; Demo = demo; declined; Closed-Won = closed) with the commission that move earned
 *   (referrer's share), and referrals received; a move back to Tee-up is not an activity.
 * - Trends: the 12 months ending with `to`'s month (else the current month), UTC: referrals sent that
 *   month, referrals that became (and are) Closed-Won that month, commissions earned that month.
 */

type Query = z.output<typeof ImpactQuery>;

const DAY_MS = 24 * 3600_000;
export const MAX_COMMISSIONS = 5000;
/** The bounty milestone a status change `s` reached (the stage model of @app/domain), as SQL. */
const MILESTONE_OF_STATUS = `CASE s.to_status ${Object.entries(STAGE_MILESTONES)
  .map(([stage, milestone]) => `WHEN '${stage}' THEN '${milestone}'`)
  .join(' ')} END`;

/** The milestones a stage reaches, with the rank (furthest_stage) that reaches them. */
const reachable = MILESTONES.flatMap((milestone) => {
  const stage = MILESTONE_STAGES[milestone];
  return stage ? [[milestone, STAGE_RANK[stage]] as const] : [];
});

const rate = (part: number, total: number) => (total === 0 ? 0 : Math.round((part * 1000) / total) / 10);

/**
 * The partner of a referral to the project `p`, routed to the vendor `v` (LEFT JOINed, so null when not
 * routed): the vendor workspace when there is one, else the project's company, compared as a company key
 * (one vendor, one name).
 */
const partnerKeyOf = (v: string, p: string) => `coalesce(${v}.company_key, ${p}.company_key)`;

/**
 * The same test on the referral `r` of the user $1, for the partner `placeholder`, shaped for indexes: the
 * unrouted referrals through the partner's projects (project_id, user_id), the routed ones through the
 * vendor's name, which a routed referral's `company` always is (user_id, company). Never a pass over all of
 * the user's referrals joined to their projects and vendors.
 */
const isPartner = (placeholder: string) => `r.id IN (
    SELECT pr.id FROM projects fp JOIN referrals pr ON pr.project_id = fp.id AND pr.user_id = $1
     WHERE fp.company_key = ${placeholder} AND coalesce(pr.vendor_id, '') = ''
    UNION ALL
    SELECT vr.id FROM vendors fv JOIN referrals vr ON vr.user_id = $1 AND vr.company = fv.name AND vr.vendor_id = fv.id
     WHERE fv.company_key = ${placeholder})`;

/** Range conditions on the referrals `alias` for the query; $1 is the user. */
function filtersOf(query: Query, params: unknown[], alias = 'r'): string[] {
  const conditions: string[] = [];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  if (query.from) add((p) => `${alias}.created_at >= ${p}`, new Date(`${query.from}T00:00:00Z`));
  if (query.to) add((p) => `${alias}.created_at < ${p}`, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS));
  return conditions;
}

interface Totals {
  total: number;
  accepted: number;
  pending: number;
  declined: number;
  pipeline: string;
  closed_won: number;
  warm: number;
  demos: number;
}

export function impactReads(pool: pg.Pool, currency: string) {
  /** The user's referrals in range: FROM ... WHERE text and its parameters. */
  function scope(userId: string, query: Query) {
    const params: unknown[] = [userId];
    const conditions = ['r.user_id = $1', ...filtersOf(query, params)];
    const partnerKey = query.partner ? companyKey(query.partner) : null;
    if (partnerKey !== null) {
      params.push(partnerKey);
      conditions.push(isPartner(`$${params.length}`));
    }
    return { params, where: conditions.join(' AND '), partnerKey };
  }

  /** The range and partner conditions on another user's referral `rr` (its referrer `them`), each led by AND. */
  function receivedConditions(query: Query, params: unknown[], partnerKey: string | null): string {
    const conditions = filtersOf(query, params, 'rr');
    if (partnerKey !== null) {
      params.push(partnerKey);
      conditions.push(`them.company_key = $${params.length}`);
    }
    return conditions.map((c) => `AND ${c}`).join(' ');
  }

  /** Other users' referrals routed to the user's workspaces ("received", as the dashboard's reciprocity), in range. */
  function receivedFrom(query: Query, params: unknown[], partnerKey: string | null) {
    return `FROM referrals rr LEFT JOIN referrers them ON them.user_id = rr.user_id
     WHERE rr.vendor_id IN (${MY_WORKSPACES_SQL}) AND rr.user_id <> $1 ${receivedConditions(query, params, partnerKey)}`;
  }

  return {
    async summary(userId: string, query: Query, now = new Date()): Promise<ImpactSummary> {
      const { params, where, partnerKey } = scope(userId, query);
      const filtered = params.length > 1;
      // Unfiltered, totals, funnel, trends, the leaderboard and pending bounties read the figures kept per user
      // and month, product, or vendor and milestone (a few hundred rows, not the user's 10,000 referrals); a date
      // range or a partner (which those rows cannot answer exactly) reads the referrals.
      const totalsSql = filtered
        ? `SELECT count(*)::int AS total,
          count(*) FILTER (WHERE r.status NOT IN ('pending', 'declined'))::int AS accepted,
          count(*) FILTER (WHERE r.status = 'pending')::int AS pending,
          count(*) FILTER (WHERE r.status = 'declined')::int AS declined,
          coalesce(sum(r.expected_value_cents) FILTER (WHERE r.status NOT IN ('became_customer', 'declined')), 0)::text AS pipeline,
          count(*) FILTER (WHERE r.status = 'became_customer')::int AS closed_won,
          count(*) FILTER (WHERE r.furthest_stage >= ${STAGE_RANK.intro_made})::int AS warm,
          count(*) FILTER (WHERE r.furthest_stage >= ${STAGE_RANK.intro_accepted})::int AS demos
        FROM referrals r WHERE ${where}`
        : `SELECT coalesce(sum(f.count), 0)::int AS total,
          coalesce(sum(f.count) FILTER (WHERE f.status NOT IN ('pending', 'declined')), 0)::int AS accepted,
          coalesce(sum(f.count) FILTER (WHERE f.status = 'pending'), 0)::int AS pending,
          coalesce(sum(f.count) FILTER (WHERE f.status = 'declined'), 0)::int AS declined,
          coalesce(sum(f.expected_value_cents) FILTER (WHERE f.status NOT IN ('became_customer', 'declined')), 0)::text AS pipeline,
          coalesce(sum(f.count) FILTER (WHERE f.status = 'became_customer'), 0)::int AS closed_won,
          coalesce(sum(f.count) FILTER (WHERE f.furthest_stage >= ${STAGE_RANK.intro_made}), 0)::int AS warm,
          coalesce(sum(f.count) FILTER (WHERE f.furthest_stage >= ${STAGE_RANK.intro_accepted}), 0)::int AS demos
        FROM referrer_month_figures f WHERE f.user_id = $1`;
      const receivedParams: unknown[] = [userId];
      const receivedSql = filtered
        ? `SELECT count(*)::int AS received ${receivedFrom(query, receivedParams, partnerKey)}`
        : `SELECT ${RECEIVED_SQL} AS received`;
      const payoutSql = `SELECT coalesce(sum(e.amount_cents), 0)::text AS in_escrow,
          coalesce(-sum(e.amount_cents) FILTER (WHERE e.kind = 'paid'), 0)::text AS paid,
          coalesce(-sum(e.amount_cents) FILTER (WHERE e.kind = 'reversed'), 0)::text AS reversed
        FROM commission_entries e ${filtered ? `JOIN referrals r ON r.id = e.referral_id WHERE e.user_id = $1 AND ${where}` : 'WHERE e.user_id = $1'}`;
      // Pending: per vendor, milestone, deal value and the milestone's terms at referral, the referrals whose stage
      // reached a milestone the vendor has not confirmed (routed, not declined); valued below at their terms
      // (termsOf: the better of those at referral and the vendor's bounty now), as a confirmation would pay.
      // Unfiltered, from the kept per (user, vendor, milestone, deal value, terms) counts, probed for the milestones
      // each verified vendor pays now (a few hundred index probes, not the user's routed referrals and their
      // confirmations), and for those it no longer pays, only the counts with terms at referral (a partial index:
      // probing every milestone read all 10,000 of the bench's big user's counts, 12 ms instead of 1.5).
      const milestones = `(VALUES ${reachable.map(([milestone]) => `('${milestone}')`).join(', ')}) AS m(milestone)`;
      const pendingOf = (paid: string, terms: string) => `
        SELECT f.vendor_id, f.milestone, nullif(f.deal_cents, -1)::text AS deal, nullif(f.terms, '') AS terms,
               f.count AS n, vb.bounties::text AS bounties
          FROM vendors v JOIN vendor_bounties vb ON vb.vendor_id = v.id
          JOIN ${milestones} ON (vb.bounties -> m.milestone ->> 'enabled') ${paid}
          JOIN referrer_pending_figures f ON f.user_id = $1 AND f.vendor_id = v.id AND f.milestone = m.milestone ${terms}
         WHERE v.verified AND f.count > 0`;
      const pendingSql = !filtered
        ? `${pendingOf("= 'true'", '')}
          UNION ALL
          ${pendingOf("IS DISTINCT FROM 'true'", "AND f.terms <> ''")}`
        : `WITH mine AS MATERIALIZED (
          SELECT r.id, r.vendor_id, r.furthest_stage, coalesce(r.deal_value_cents, r.expected_value_cents) AS deal,
                 r.bounties_at_referral
            FROM referrals r
           WHERE ${where} AND r.furthest_stage > 0 AND r.vendor_id IS NOT NULL AND r.status <> 'declined'
             AND r.lead_status <> 'declined')
        SELECT mine.vendor_id, m.milestone, mine.deal::text AS deal, (mine.bounties_at_referral -> m.milestone)::text AS terms,
               count(*)::int AS n, min(vb.bounties::text) AS bounties
          FROM mine
          JOIN vendors v ON v.id = mine.vendor_id AND v.verified JOIN vendor_bounties vb ON vb.vendor_id = mine.vendor_id
          JOIN (VALUES ${reachable.map(([milestone, rank]) => `('${milestone}', ${rank})`).join(', ')}) AS m(milestone, rank)
            ON mine.furthest_stage >= m.rank
         WHERE ((vb.bounties -> m.milestone ->> 'enabled') = 'true' OR (mine.bounties_at_referral -> m.milestone ->> 'enabled') = 'true')
           AND NOT EXISTS (SELECT 1 FROM milestone_confirmations mc WHERE mc.referral_id = mine.id AND mc.milestone = m.milestone)
         GROUP BY 1, 2, 3, 4`;
      // Recent activity: the newest status changes by index (user_id, at), filtered by their referral. The partner
      // (vendor, else project) is looked up for the 10 kept, after the LIMIT: joined, a misestimate for a user with
      // few changes planned a pass over all vendors per change (15 ms for the bench's user with 100 referrals).
      const activityParams = [...params];
      const activitySql = `(SELECT 's' || s.id AS id,
            CASE s.to_status WHEN 'pending' THEN 'sent' WHEN 'intro_made' THEN 'accepted' WHEN 'intro_occurred' THEN 'accepted'
              WHEN 'intro_accepted' THEN 'demo'
              -- Declined by the vendor, else by the referrer (a withdrawal: Mark Milestone never sets Declined).
              WHEN 'declined' THEN CASE WHEN r.lead_status = 'declined' THEN 'declined' ELSE 'withdrawn' END
              ELSE 'closed' END AS type,
            coalesce((SELECT av.name FROM vendors av WHERE av.id = r.vendor_id),
                     (SELECT ap.company_name FROM projects ap WHERE ap.id = r.project_id)) AS partner,
            r.referred_first_name || ' ' || r.referred_last_name AS contact,
            -- The stage's commission, on the referral's latest move to that stage only (a stage reached twice
            -- shows it once): what the move led to, whoever confirmed it; none once it was reversed.
            (SELECT cm.referrer_cents::text FROM commissions cm WHERE cm.referral_id = s.referral_id AND cm.milestone = ${MILESTONE_OF_STATUS}
                AND NOT EXISTS (SELECT 1 FROM commission_entries ce WHERE ce.commission_id = cm.id AND ce.kind = 'reversed')
                AND NOT EXISTS (SELECT 1 FROM referral_status_changes later WHERE later.referral_id = s.referral_id
                                   AND later.to_status = s.to_status AND (later.at, later.id) > (s.at, s.id))) AS amount,
            s.at
          FROM referral_status_changes s JOIN referrals r ON r.id = s.referral_id
         WHERE s.user_id = $1 AND ${where} AND (s.from_status IS NULL OR s.to_status <> 'pending')
         ORDER BY s.at DESC, s.id DESC LIMIT 10)
        UNION ALL
        (SELECT 'r' || rr.id, 'received', coalesce(nullif(rr.them_company, ''), 'Another company'),
                rr.referred_first_name || ' ' || rr.referred_last_name, NULL::text, rr.created_at
           FROM (${MY_WORKSPACES_SQL}) mine
           CROSS JOIN LATERAL (
             -- The newest 10 of each of the user's workspaces, by index (vendor_id, created_at, id).
             SELECT rr.id, rr.referred_first_name, rr.referred_last_name, rr.created_at, them.company_name AS them_company
               FROM referrals rr LEFT JOIN referrers them ON them.user_id = rr.user_id
              WHERE rr.vendor_id = mine.id AND rr.user_id <> $1 ${receivedConditions(query, activityParams, partnerKey)}
              ORDER BY rr.created_at DESC, rr.id DESC LIMIT 10) rr
          ORDER BY rr.created_at DESC, rr.id DESC LIMIT 10)
        ORDER BY at DESC, id DESC LIMIT 10`;
      // The leaderboard: the top 10 partners by referrals sent, then what each sent back to the user's company.
      // A partner is the vendor workspace a referral was routed to (named as the workspace), else the project's
      // company: referrals to one company before and after its vendor joined are one partner.
      const perProject = filtered
        ? `SELECT r.project_id, r.vendor_id, count(*)::int AS sent, sum(r.deal_value_cents) FILTER (WHERE r.status = 'became_customer') AS revenue
            FROM referrals r WHERE ${where} GROUP BY r.project_id, r.vendor_id`
        : `SELECT f.project_id, nullif(f.vendor_id, '') AS vendor_id, f.count AS sent, f.revenue_cents AS revenue
            FROM referrer_project_figures f WHERE f.user_id = $1 AND f.count > 0`;
      // What each partner sent back to the user's workspaces. Unfiltered, from the kept counts of the partners'
      // users per workspace (referrer_project_figures by (user_id, vendor_id)), not the 10,000 referrals a big
      // workspace received, each joined to its referrer (12.8 ms of the bench's big user's 17.5).
      const receivedByPartner = filtered
        ? `SELECT them.company_key, count(*)::int AS received
            FROM referrals rr JOIN referrers them ON them.user_id = rr.user_id
           WHERE rr.vendor_id IN (${MY_WORKSPACES_SQL}) AND rr.user_id <> $1 AND them.company_key IN (SELECT company_key FROM mine)
                 ${filtersOf(query, params, 'rr')
                   .map((c) => `AND ${c}`)
                   .join(' ')}
           GROUP BY them.company_key`
        : `SELECT them.company_key, sum(f.count)::int AS received
            FROM referrers them JOIN referrer_project_figures f ON f.user_id = them.user_id
           WHERE them.company_key IN (SELECT company_key FROM mine) AND them.user_id <> $1
             AND f.vendor_id IN (${MY_WORKSPACES_SQL})
           GROUP BY them.company_key`;
      const leaderboardSql = `WITH per_project AS (${perProject}),
        mine AS (
          SELECT ${partnerKeyOf('lv', 'lp')} AS company_key, coalesce(max(lv.name), max(lp.company_name)) AS partner,
                 sum(pp.sent)::int AS sent, coalesce(sum(pp.revenue), 0)::text AS revenue
            FROM per_project pp JOIN projects lp ON lp.id = pp.project_id LEFT JOIN vendors lv ON lv.id = pp.vendor_id
           WHERE ${partnerKeyOf('lv', 'lp')} <> ''
           GROUP BY 1 ORDER BY sent DESC, partner LIMIT 10),
        received AS (${receivedByPartner})
        SELECT m.partner, m.sent, m.revenue, coalesce(rc.received, 0) AS received
          FROM mine m LEFT JOIN received rc ON rc.company_key = m.company_key ORDER BY m.sent DESC, m.partner`;
      const leaderboardParams = params;
      // Trends: 12 UTC months ending with `to`'s month (else this one).
      const end = query.to ? new Date(`${query.to}T00:00:00Z`) : now;
      const firstMonth = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 11, 1));
      const months = Array.from({ length: 12 }, (_, i) =>
        new Date(Date.UTC(firstMonth.getUTCFullYear(), firstMonth.getUTCMonth() + i, 1)).toISOString().slice(0, 7),
      );
      const trendParams = [...params.slice(0, countOf(totalsSql)), firstMonth];
      const since = `$${trendParams.length}`;
      const sinceMonth = `(${since}::timestamptz AT TIME ZONE 'UTC')::date`;
      const monthOf = (column: string) => `date_trunc('month', ${column} AT TIME ZONE 'UTC')`;
      // The figures' months are UTC months as dates (the closed_won_month of a referral never Closed-Won,
      // 1970-01-01, is before any `since` of an unfiltered call: 11 months before now).
      const trendsSql = filtered
        ? `SELECT kind, to_char(month, 'YYYY-MM') AS month, value FROM (
        SELECT 'sent' AS kind, ${monthOf('r.created_at')} AS month, count(*)::float8 AS value
          FROM referrals r WHERE ${where} AND r.created_at >= ${since} GROUP BY 2
        UNION ALL
        SELECT 'closedWon', ${monthOf('r.closed_won_at')}, count(*)::float8
          FROM referrals r WHERE ${where} AND r.status = 'became_customer' AND r.closed_won_at >= ${since} GROUP BY 2
        UNION ALL
        SELECT 'earned', ${monthOf('e.at')}, sum(e.amount_cents)::float8
          FROM commission_entries e JOIN referrals r ON r.id = e.referral_id
         WHERE e.user_id = $1 AND e.kind = 'earned' AND ${where} AND e.at >= ${since} GROUP BY 2) t`
        : `SELECT kind, to_char(month, 'YYYY-MM') AS month, value FROM (
        SELECT 'sent' AS kind, f.month, sum(f.count)::float8 AS value
          FROM referrer_month_figures f WHERE f.user_id = $1 AND f.month >= ${sinceMonth} GROUP BY 2
        UNION ALL
        SELECT 'closedWon', f.closed_won_month, sum(f.count)::float8
          FROM referrer_month_figures f WHERE f.user_id = $1 AND f.status = 'became_customer' AND f.closed_won_month >= ${sinceMonth} GROUP BY 2
        UNION ALL
        SELECT 'earned', ${monthOf('e.at')}, sum(e.amount_cents)::float8
          FROM commission_entries e WHERE e.user_id = $1 AND e.kind = 'earned' AND e.at >= ${since} GROUP BY 2) t`;

      const [totalsR, receivedR, payoutR, activityR, leaderboardR, trendsR, pendingR] = await Promise.all([
        pool.query<Totals>(totalsSql, params.slice(0, countOf(totalsSql))),
        pool.query<{ received: number }>(receivedSql, receivedParams),
        pool.query<{ in_escrow: string; paid: string; reversed: string }>(
          payoutSql,
          params.slice(0, countOf(payoutSql)),
        ),
        pool.query<{
          id: string;
          type: ImpactSummary['recentActivity'][number]['type'];
          partner: string;
          contact: string;
          amount: string | null;
          at: Date;
        }>(activitySql, activityParams),
        pool.query<{ partner: string; sent: number; revenue: string; received: number }>(
          leaderboardSql,
          leaderboardParams,
        ),
        pool.query<{ kind: 'sent' | 'closedWon' | 'earned'; month: string; value: number }>(trendsSql, trendParams),
        pool.query<{
          vendor_id: string;
          milestone: Milestone;
          deal: string | null;
          terms: string | null;
          n: number;
          bounties: string;
        }>(pendingSql, params.slice(0, countOf(pendingSql))),
      ]);
      const t = totalsR.rows[0]!;
      const payout = payoutR.rows[0]!;
      const trend = new Map(months.map((month) => [month, { month, sent: 0, closedWon: 0, earnedCents: 0 }]));
      for (const row of trendsR.rows) {
        const entry = trend.get(row.month);
        if (entry) entry[row.kind === 'earned' ? 'earnedCents' : row.kind] = row.value;
      }
      // Each vendor's bounties and each terms text are parsed once, however many rows share them.
      const parsedBounties = new Map<string, Bounties | null>();
      const parsedTerms = new Map<string, Bounty | undefined>();
      let pendingCents = 0;
      for (const row of pendingR.rows) {
        if (!parsedBounties.has(row.bounties)) parsedBounties.set(row.bounties, bountiesOf(JSON.parse(row.bounties)));
        const bounties = parsedBounties.get(row.bounties);
        if (!bounties) continue;
        if (row.terms !== null && !parsedTerms.has(row.terms)) {
          const parsed = Bounty.safeParse(JSON.parse(row.terms));
          parsedTerms.set(row.terms, parsed.success ? parsed.data : undefined);
        }
        const atReferral = row.terms === null ? undefined : parsedTerms.get(row.terms);
        const deal = row.deal === null ? null : Number(row.deal);
        const terms = termsOf(atReferral, bounties[row.milestone], deal);
        const amounts = terms && commissionCents(terms, deal);
        if (amounts) pendingCents += amounts.referrer * row.n;
      }
      const inEscrowCents = cents(payout.in_escrow);
      const paidCents = cents(payout.paid);
      return {
        totalReferrals: t.total,
        acceptanceRate: rate(t.accepted, t.total),
        pendingRate: rate(t.pending, t.total),
        declineRate: rate(t.declined, t.total),
        currency,
        pipelineValueCents: cents(t.pipeline),
        closedWonCount: t.closed_won,
        giveGetScore: { sent: t.total, received: receivedR.rows[0]!.received },
        payoutSummary: {
          currency,
          pendingCents,
          inEscrowCents,
          paidCents,
          reversedCents: cents(payout.reversed),
          earnedCents: inEscrowCents + paidCents,
        },
        recentActivity: activityR.rows.map((row) => ({
          id: row.id,
          type: row.type,
          partner: row.partner,
          contact: row.contact,
          amountCents: row.amount === null ? null : Number(row.amount),
          timestamp: new Date(row.at).toISOString(),
        })),
        conversionFunnel: { teeUps: t.total, warmIntros: t.warm, demos: t.demos, closedWon: t.closed_won },
        partnerLeaderboard: leaderboardR.rows.map((row) => ({
          partner: row.partner,
          leadsSent: row.sent,
          leadsReceived: row.received,
          revenueWonCents: cents(row.revenue),
          reciprocityRatio: row.received === 0 ? row.sent : Math.round((row.sent / row.received) * 100) / 100,
        })),
        trends: [...trend.values()],
      };
    },

    /** The user's commissions in range, newest first (the CSV export), at most MAX_COMMISSIONS. */
    async commissions(userId: string, query: Query): Promise<Commission[]> {
      const params: unknown[] = [userId];
      const conditions = ['c.user_id = $1', ...filtersOf(query, params)];
      if (query.partner) {
        params.push(companyKey(query.partner));
        conditions.push(isPartner(`$${params.length}`));
      }
      params.push(MAX_COMMISSIONS);
      return queryCommissions(
        pool,
        conditions.join(' AND '),
        params,
        `c.earned_at DESC, c.id DESC LIMIT $${params.length}`,
      );
    },
  };
}

/** How many parameters a query text uses (the highest $n): queries share one parameter list's prefix. */
function countOf(text: string): number {
  let max = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) max = Math.max(max, Number(match[1]));
  return max;
}

export type ImpactReads = ReturnType<typeof impactReads>;
