import type { CreateReferralRequest, EmailDraft, IcpFit, LeadStatus, ReferralStatus } from '@app/contracts';
import { companyKey, STAGE_RANK } from '@app/domain';
import type pg from 'pg';
import type { z } from 'zod';
import { prepared } from '@app/kit';
import type { Sql, Tx } from './db.ts';
import { projectIdFor } from './projects.ts';
import { isReferralId } from './reads.ts';
import { searchTextOf } from './search-text.ts';
import type { NewTimelineEntry } from './timeline.ts';

/**
 * Data access of referrals, their projects and referrers: what is stored and how, nothing about HTTP or
 * events. Reads for the screens are in reads.ts and impact.ts, the per-user counters in figures.ts.
 */

export interface ReferrerProfile {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  companyName: string;
}

/** The referrer's profile as known (null before any referral or `user.registered`). */
export async function referrerProfile(tx: Tx, userId: string): Promise<ReferrerProfile | null> {
  return tx.referrer.findUnique({
    where: { userId },
    select: { userId: true, email: true, firstName: true, lastName: true, companyName: true },
  });
}

/** The referrer's profile from `user.registered`. */
export async function saveReferrer(tx: Tx, profile: ReferrerProfile): Promise<void> {
  const { userId, ...fields } = profile;
  const data = { ...fields, companyKey: companyKey(fields.companyName) };
  await tx.referrer.upsert({ where: { userId }, create: { userId, ...data }, update: data });
}

export interface StoredProject {
  id: string;
  productName: string;
  companyName: string;
  description: string;
  website: string | null;
}

/** What `upsertProject` answers: the project, and its referral program for the new referral's answer. */
export type UpsertedProject = StoredProject & { referralProgram: string | null };

/**
 * What a new referral needs first, in one statement (the create is the pipeline's first step,
 * bench:pipeline): the referrer with the current email of the gateway's identity, created from it when
 * `user.registered` has not arrived yet (no names then); and the project for a product of a company,
 * created on first use. A project's shared description is only ever the verified vendor's own (its
 * program's), filled when empty: never a referrer's typing.
 */
export async function upsertReferrerAndProject(
  tx: Sql,
  identity: { userId: string; email: string },
  product: { productName: string; companyName: string; vendorDescription: string },
): Promise<{ referrer: ReferrerProfile; project: UpsertedProject }> {
  const { productName, companyName, vendorDescription: description } = product;
  const [row] = await tx.$queryRaw<
    Array<{
      user_id: string;
      email: string;
      first_name: string;
      last_name: string;
      company_name: string;
      id: string;
      product_name: string;
      project_company_name: string;
      description: string;
      website: string | null;
      referral_program: string | null;
    }>
  >`
    WITH referrer AS (
      INSERT INTO referrers (user_id, email) VALUES (${identity.userId}, ${identity.email})
      ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email
      RETURNING user_id, email, first_name, last_name, company_name),
    project AS (
      INSERT INTO projects (id, product_name, company_name, company_key, description)
      VALUES (${projectIdFor(productName, companyName)}, ${productName}, ${companyName}, ${companyKey(companyName)}, ${description})
      ON CONFLICT (id) DO UPDATE SET description = CASE WHEN projects.description = '' THEN EXCLUDED.description ELSE projects.description END
      RETURNING id, product_name, company_name, description, website, referral_program)
    SELECT r.user_id, r.email, r.first_name, r.last_name, r.company_name, p.id, p.product_name,
           p.company_name AS project_company_name, p.description, p.website, p.referral_program
      FROM referrer r, project p`;
  const r = row!;
  return {
    referrer: {
      userId: r.user_id,
      email: r.email,
      firstName: r.first_name,
      lastName: r.last_name,
      companyName: r.company_name,
    },
    project: {
      id: r.id,
      productName: r.product_name,
      companyName: r.project_company_name,
      description: r.description,
      website: r.website,
      referralProgram: r.referral_program,
    },
  };
}

/** Where a new referral goes: the verified vendor (null when not on the platform) and the client's fit. */
export interface Routing {
  vendorId: string | null;
  /** The company shown and filtered by: the vendor workspace's name when routed, else the one the referrer saw. */
  company: string;
  fit: IcpFit | null;
}

/** A referral as `insertReferral` stored it. */
export interface NewReferral {
  id: number;
  userId: string;
  projectId: string;
  status: ReferralStatus;
  referredFirstName: string;
  referredLastName: string;
  referredEmail: string;
  referredPhone: string | null;
  referralReason: string;
  isReferralAware: boolean;
  canUseReferrerName: boolean;
  notes: string | null;
  company: string;
  fromClay: boolean;
  description: string;
  client: unknown;
  vendorId: string | null;
  leadStatus: LeadStatus | null;
  fit: unknown;
  bountiesAtReferral: unknown;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A new referral to a project, in Tee-up (and `new` in the vendor's lead inbox when routed), with its first
 * history entry (pending) and its first timeline entries, all at its creation: one statement (the create is
 * the pipeline's first step, bench:pipeline). Timeline entries get their ids in the order given.
 */
export async function insertReferral(
  tx: Sql,
  userId: string,
  project: StoredProject,
  input: z.output<typeof CreateReferralRequest>,
  routing: Routing,
  timeline: NewTimelineEntry[],
): Promise<NewReferral> {
  const at = new Date();
  const searchText = searchTextOf({
    firstName: input.referredFirstName,
    lastName: input.referredLastName,
    email: input.referredEmail,
    company: routing.company,
    projectCompanyName: project.companyName,
    reason: input.referralReason,
  });
  const [row] = await tx.$queryRaw<
    Array<{
      id: number;
      user_id: string;
      project_id: string;
      status: ReferralStatus;
      referred_first_name: string;
      referred_last_name: string;
      referred_email: string;
      referred_phone: string | null;
      referral_reason: string;
      is_referral_aware: boolean;
      can_use_referrer_name: boolean;
      notes: string | null;
      company: string;
      from_clay: boolean;
      description: string;
      client: unknown;
      vendor_id: string | null;
      lead_status: LeadStatus | null;
      fit: unknown;
      bounties_at_referral: unknown;
      created_at: Date;
      updated_at: Date;
    }>
  >`
    WITH inserted AS (
      INSERT INTO referrals (user_id, project_id, referred_first_name, referred_last_name, referred_email, referral_reason,
                             is_referral_aware, can_use_referrer_name, company, description, client, notes, vendor_id,
                             lead_status, fit, bounties_at_referral, search_text, created_at, updated_at)
      VALUES (${userId}, ${project.id}, ${input.referredFirstName}, ${input.referredLastName}, ${input.referredEmail},
              ${input.referralReason}, ${input.isReferralAware}, ${input.canUseReferrerName}, ${routing.company},
              ${input.description}, ${JSON.stringify(input.client)}::jsonb, ${input.notes || null}, ${routing.vendorId},
              ${routing.vendorId ? 'new' : null}::lead_status, ${routing.fit ? JSON.stringify(routing.fit) : null}::jsonb,
              (SELECT vb.bounties FROM vendor_bounties vb JOIN vendors v ON v.id = vb.vendor_id AND v.verified
                WHERE vb.vendor_id = ${routing.vendorId}),
              ${searchText}, ${at}, ${at})
      RETURNING *),
    history AS (
      INSERT INTO referral_status_changes (referral_id, user_id, from_status, to_status, at)
      SELECT id, user_id, NULL, status, created_at FROM inserted),
    entries AS (
      INSERT INTO referral_timeline (referral_id, at, actor, kind, text)
      SELECT i.id, i.created_at, e.actor, e.kind, e.text
        FROM inserted i,
             unnest(${timeline.map((e) => e.actor)}::text[], ${timeline.map((e) => e.kind)}::text[],
                    ${timeline.map((e) => e.text)}::text[]) WITH ORDINALITY AS e(actor, kind, text, n)
       ORDER BY e.n)
    SELECT id, user_id, project_id, status::text AS status, referred_first_name, referred_last_name, referred_email,
           referred_phone, referral_reason, is_referral_aware, can_use_referrer_name, notes, company, from_clay,
           description, client, vendor_id, lead_status::text AS lead_status, fit, bounties_at_referral,
           created_at, updated_at
      FROM inserted`;
  const r = row!;
  return {
    id: r.id,
    userId: r.user_id,
    projectId: r.project_id,
    status: r.status,
    referredFirstName: r.referred_first_name,
    referredLastName: r.referred_last_name,
    referredEmail: r.referred_email,
    referredPhone: r.referred_phone,
    referralReason: r.referral_reason,
    isReferralAware: r.is_referral_aware,
    canUseReferrerName: r.can_use_referrer_name,
    notes: r.notes,
    company: r.company,
    fromClay: r.from_clay,
    description: r.description,
    client: r.client,
    vendorId: r.vendor_id,
    leadStatus: r.lead_status,
    fit: r.fit,
    bountiesAtReferral: r.bounties_at_referral,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** One entry of a referral's timeline (append-only; both sides read it). */
export async function addTimelineEntry(tx: Tx, referralId: number, entry: NewTimelineEntry, at = new Date()) {
  await tx.referralTimelineEntry.create({ data: { referralId, at, ...entry } });
}

/**
 * Records the vendor's decision on a lead unless it was decided before: a conditional update, so of two
 * concurrent decisions exactly one finds the lead still `new`. Answers whether it did.
 */
export async function decideLead(
  tx: Tx,
  lead: { referralId: number; vendorId: string; status: Exclude<LeadStatus, 'new'>; reason: string | null; at: Date },
): Promise<boolean> {
  const decided = await tx.$executeRaw`
    UPDATE referrals SET lead_status = ${lead.status}::lead_status, decline_reason = ${lead.reason}, decided_at = ${lead.at},
           updated_at = ${lead.at}
     WHERE id = ${lead.referralId} AND vendor_id = ${lead.vendorId} AND lead_status = 'new'`;
  return decided === 1;
}

/** What a decision on a routed referral needs of it: its owner, project and the names the emails use. */
export async function decidedReferral(tx: Tx, referralId: number) {
  const [row] = await tx.$queryRaw<
    Array<{ user_id: string; project_id: string; client_name: string | null; product_name: string }>
  >`
    SELECT r.user_id, r.project_id, r.client ->> 'name' AS client_name, p.product_name
      FROM referrals r JOIN projects p ON p.id = r.project_id WHERE r.id = ${referralId}`;
  return {
    userId: row!.user_id,
    projectId: row!.project_id,
    clientName: row!.client_name ?? '',
    productName: row!.product_name,
  };
}

/**
 * A vendor's workspace was renamed: its routed referrals show the new name (one vendor, one name), in the
 * company filter and the search too.
 */
export async function renameVendorReferrals(tx: Tx, vendorId: string, name: string): Promise<number> {
  const rows = await tx.$queryRaw<
    Array<{
      id: number;
      user_id: string;
      company: string;
      referred_first_name: string;
      referred_last_name: string;
      referred_email: string;
      referral_reason: string;
      project_company_name: string;
    }>
  >`
    SELECT r.id, r.user_id, r.company, r.referred_first_name, r.referred_last_name, r.referred_email, r.referral_reason,
           p.company_name AS project_company_name
      FROM referrals r JOIN projects p ON p.id = r.project_id
     WHERE r.vendor_id = ${vendorId} AND r.company <> ${name}
     ORDER BY r.id FOR UPDATE OF r`;
  if (!rows.length) return 0;
  const ids = rows.map((row) => row.id);
  const texts = rows.map((row) =>
    searchTextOf({
      firstName: row.referred_first_name,
      lastName: row.referred_last_name,
      email: row.referred_email,
      company: name,
      projectCompanyName: row.project_company_name,
      reason: row.referral_reason,
    }),
  );
  await tx.$executeRaw`
    UPDATE referrals r SET company = ${name}, search_text = u.text
      FROM unnest(${ids}::int[], ${texts}::text[]) AS u(id, text) WHERE r.id = u.id`;
  const users = [...new Set(rows.map((row) => row.user_id))];
  await tx.$executeRaw`
    INSERT INTO referrer_companies (user_id, company) SELECT unnest(${users}::text[]), ${name} ON CONFLICT DO NOTHING`;
  const old = [...new Map(rows.map((row) => [`${row.user_id}\u0000${row.company}`, row])).values()];
  await tx.$executeRaw`
    DELETE FROM referrer_companies rc
     USING unnest(${old.map((row) => row.user_id)}::text[], ${old.map((row) => row.company)}::text[]) AS o(user_id, company)
     WHERE rc.user_id = o.user_id AND rc.company = o.company
       AND NOT EXISTS (SELECT 1 FROM referrals r WHERE r.user_id = o.user_id AND r.company = o.company)`;
  return rows.length;
}

/** One entry of a referral's history (the timeline and the Impact dashboard's activity). */
export async function recordStatusChange(
  tx: Tx,
  change: { referralId: number; userId: string; from: ReferralStatus | null; to: ReferralStatus; at: Date },
): Promise<void> {
  await tx.referralStatusChange.create({ data: change });
}

/** What sending a referral's intro email needs to know of it and of its referrer, read in one statement. */
export interface IntroSendFacts {
  /** The referral's owner. */
  userId: string;
  emailSent: boolean;
  /** In Declined (withdrawn, or declined by the vendor): its intro email is never sent. */
  declined: boolean;
  /** Whether the referrer allowed their name to be used (the referral form's "may mention my name"). */
  namesReferrer: boolean;
  /** The referrer's profile names ('' when no profile yet). */
  firstName: string;
  lastName: string;
  /** The vendor's lead inbox while the referral is routed to a verified workspace that has one, else null. */
  leadInbox: string | null;
}

/**
 * The referral's owner and whether its intro email was sent, the names of the user `userId` (the sender)
 * and the lead inbox the email always copies, in one statement; null when there is no such referral.
 */
export async function introSendFacts(db: Sql, referralId: number, userId: string): Promise<IntroSendFacts | null> {
  if (!isReferralId(referralId)) return null;
  const [row] = await db.$queryRaw<
    Array<{
      user_id: string;
      sent: boolean;
      declined: boolean;
      names_referrer: boolean;
      first_name: string | null;
      last_name: string | null;
      lead_inbox: string | null;
    }>
  >`
    SELECT r.user_id, r.email_sent_at IS NOT NULL AS sent, r.status = 'declined' AS declined,
           r.can_use_referrer_name AS names_referrer, p.first_name, p.last_name,
           CASE WHEN r.lead_status IS NOT NULL AND v.verified AND v.lead_inbox <> '' THEN v.lead_inbox END AS lead_inbox
      FROM referrals r
      LEFT JOIN referrers p ON p.user_id = ${userId}
      LEFT JOIN vendors v ON v.id = r.vendor_id
     WHERE r.id = ${referralId}`;
  if (!row) return null;
  return {
    userId: row.user_id,
    emailSent: row.sent,
    declined: row.declined,
    namesReferrer: row.names_referrer,
    firstName: row.first_name ?? '',
    lastName: row.last_name ?? '',
    leadInbox: row.lead_inbox,
  };
}

/** A user's intro email recipients in the last rolling hour and day. */
export interface IntroRecipientUsage {
  lastHour: number;
  lastDay: number;
}

/**
 * Takes a lock of the user's own until the transaction ends: concurrent sends of one user are counted
 * (`recordIntroEmailSent`) one after the other, so together they never go over a quota.
 */
export async function lockIntroSends(client: pg.ClientBase, userId: string): Promise<void> {
  await client.query(prepared('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`intro-sends:${userId}`]));
}

/**
 * Within the user's quotas (their recipients in the last rolling hour and day, read after `lockIntroSends`),
 * stores the sent version of the intro email and marks it sent unless it already was (a conditional update,
 * so of two concurrent sends exactly one finds email_sent_at still empty; never in Declined), and with it records the send
 * with its recipients and the timeline entry: one statement. Answers the usage before this send and whether
 * the email was marked sent; when not (over a quota, or sent before), nothing is written.
 */
export async function recordIntroEmailSent(
  client: pg.ClientBase,
  sent: {
    referralId: number;
    userId: string;
    draft: EmailDraft;
    recipients: number;
    entry: NewTimelineEntry;
    quota: { perHour: number; perDay: number };
  },
): Promise<{ usage: IntroRecipientUsage; marked: boolean }> {
  const { rows } = await client.query<{ last_hour: number; last_day: number; marked: number }>(
    prepared(
      `WITH usage AS (
       SELECT coalesce(sum(recipients) FILTER (WHERE sent_at > clock_timestamp() - interval '1 hour'), 0)::int AS last_hour,
              coalesce(sum(recipients), 0)::int AS last_day
         FROM intro_sends
        WHERE user_id = $3 AND sent_at > clock_timestamp() - interval '1 day'),
     marked AS (
       UPDATE referrals SET email_draft = $2::jsonb, email_sent_at = now(), updated_at = now()
        WHERE id = $1 AND email_sent_at IS NULL AND status <> 'declined'
          AND (SELECT last_hour FROM usage) + $4 <= $9 AND (SELECT last_day FROM usage) + $4 <= $10
       RETURNING id),
     sends AS (
       INSERT INTO intro_sends (referral_id, user_id, recipients, sent_at)
       SELECT id, $3, $4, clock_timestamp() FROM marked),
     entry AS (
       INSERT INTO referral_timeline (referral_id, at, actor, kind, text) SELECT id, $5, $6, $7, $8 FROM marked)
     SELECT last_hour, last_day, (SELECT count(*)::int FROM marked) AS marked FROM usage`,
      [
        sent.referralId,
        JSON.stringify(sent.draft),
        sent.userId,
        sent.recipients,
        new Date(),
        sent.entry.actor,
        sent.entry.kind,
        sent.entry.text,
        sent.quota.perHour,
        sent.quota.perDay,
      ],
    ),
  );
  const row = rows[0]!;
  return { usage: { lastHour: row.last_hour, lastDay: row.last_day }, marked: row.marked === 1 };
}

/**
 * The referral's stage and vendor, its row locked until the transaction ends: concurrent changes each
 * record the stage they really moved from, and money is decided one change at a time.
 */
export async function lockReferralStage(
  tx: Tx,
  referralId: number,
): Promise<{ status: ReferralStatus; vendorId: string | null }> {
  const [row] = await tx.$queryRaw<Array<{ status: ReferralStatus; vendor_id: string | null }>>`
    SELECT status::text, vendor_id FROM referrals WHERE id = ${referralId} FOR UPDATE`;
  return { status: row!.status, vendorId: row!.vendor_id };
}

/** Moves the referral to a stage: how far it ever got (STAGE_RANK) and when it became Closed-Won follow. */
export async function setStage(tx: Tx, referralId: number, status: ReferralStatus, at: Date): Promise<void> {
  await tx.$executeRaw`
    UPDATE referrals SET status = ${status}::referral_status, updated_at = ${at},
           furthest_stage = GREATEST(furthest_stage, ${STAGE_RANK[status]}),
           closed_won_at = ${status === 'became_customer' ? at : null}
     WHERE id = ${referralId}`;
}

/**
 * Claims a `referral.draft_generated` event for the subscriber and stores its intro email draft, in one
 * autocommit statement (one round trip and commit: the pipeline's busiest subscriber): the draft is stored
 * only when the claim is new (a redelivery changes nothing), unless the email was sent (the stored draft is
 * then what was sent), and unless an enrichment draft is kept: one replaces a template/LLM draft, never the
 * other way round. Answers whether the event was claimed and whether the draft was stored.
 */
export async function claimAndStoreEmailDraft(
  pool: pg.Pool,
  claim: { subscriber: string; eventId: string },
  referralId: number,
  draft: EmailDraft,
  fromEnrichment: boolean,
): Promise<{ claimed: boolean; stored: boolean }> {
  const { rows } = await pool.query<{ claimed: boolean; stored: boolean }>(
    prepared(
      `WITH claimed AS (
       INSERT INTO processed_events (subscriber, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1),
     stored AS (
       UPDATE referrals SET email_draft = $4::jsonb, from_clay = $5, updated_at = now()
        WHERE id = $3 AND email_sent_at IS NULL AND ($5 OR NOT from_clay) AND EXISTS (SELECT 1 FROM claimed)
       RETURNING 1)
     SELECT EXISTS (SELECT 1 FROM claimed) AS claimed, EXISTS (SELECT 1 FROM stored) AS stored`,
      [claim.subscriber, claim.eventId, referralId, JSON.stringify(draft), fromEnrichment],
    ),
  );
  return rows[0]!;
}

/** One `referral.draft_generated` event to claim and store (`claimAndStoreEmailDrafts`). */
export interface DraftToStore {
  subscriber: string;
  eventId: string;
  referralId: number;
  draft: EmailDraft;
  fromEnrichment: boolean;
}

/**
 * `claimAndStoreEmailDraft` for several events in one statement, with the same rule for each. The events
 * must be of distinct referrals (an UPDATE ... FROM changes a row once, with one of its matches: `batched`'s
 * key), so each draft is judged against the row as it was before the statement, as alone. Answers per event,
 * in order.
 */
export async function claimAndStoreEmailDrafts(
  pool: pg.Pool,
  drafts: DraftToStore[],
): Promise<Array<{ claimed: boolean; stored: boolean }>> {
  const { rows } = await pool.query<{ claimed: boolean; stored: boolean }>(
    prepared(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::jsonb[], $5::boolean[]) WITH ORDINALITY
             AS d(subscriber, event_id, referral_id, draft, from_enrichment, n)),
       claimed AS (
         INSERT INTO processed_events (subscriber, event_id) SELECT subscriber, event_id FROM input
         ON CONFLICT DO NOTHING RETURNING subscriber, event_id),
       stored AS (
         UPDATE referrals r SET email_draft = d.draft, from_clay = d.from_enrichment, updated_at = now()
           FROM input d JOIN claimed k ON k.subscriber = d.subscriber AND k.event_id = d.event_id
          WHERE r.id = d.referral_id AND r.email_sent_at IS NULL AND (d.from_enrichment OR NOT r.from_clay)
         RETURNING d.n)
       SELECT k.event_id IS NOT NULL AS claimed, s.n IS NOT NULL AS stored
         FROM input d
         LEFT JOIN claimed k ON k.subscriber = d.subscriber AND k.event_id = d.event_id
         LEFT JOIN stored s ON s.n = d.n
        ORDER BY d.n`,
      [
        drafts.map((draft) => draft.subscriber),
        drafts.map((draft) => draft.eventId),
        drafts.map((draft) => draft.referralId),
        drafts.map((draft) => JSON.stringify(draft.draft)),
        drafts.map((draft) => draft.fromEnrichment),
      ],
    ),
  );
  return rows;
}
