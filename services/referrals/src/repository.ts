import type { CreateReferralRequest, EmailDraft, ReferralStatus } from '@app/contracts';
import { companyKey, STAGE_RANK } from '@app/domain';
import type { z } from 'zod';
import type { Tx } from './db.ts';
import { projectIdFor } from './projects.ts';
import { searchTextOf } from './search-text.ts';

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

/**
 * The referrer with the current email of the gateway's identity, created from it when `user.registered`
 * has not arrived yet (no names then).
 */
export async function referrerWithEmail(tx: Tx, userId: string, email: string): Promise<ReferrerProfile> {
  const [row] = await tx.$queryRaw<
    Array<{ user_id: string; email: string; first_name: string; last_name: string; company_name: string }>
  >`
    INSERT INTO referrers (user_id, email) VALUES (${userId}, ${email})
    ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email
    RETURNING user_id, email, first_name, last_name, company_name`;
  return {
    userId: row!.user_id,
    email: row!.email,
    firstName: row!.first_name,
    lastName: row!.last_name,
    companyName: row!.company_name,
  };
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

/** The project for a product of a company, created on first use; a later referral may fill an empty description. */
export async function upsertProject(
  tx: Tx,
  product: { productName: string; companyName: string; description: string },
): Promise<StoredProject> {
  const { productName, companyName, description } = product;
  const [row] = await tx.$queryRaw<
    Array<{ id: string; product_name: string; company_name: string; description: string; website: string | null }>
  >`
    INSERT INTO projects (id, product_name, company_name, company_key, description)
    VALUES (${projectIdFor(productName, companyName)}, ${productName}, ${companyName}, ${companyKey(companyName)}, ${description})
    ON CONFLICT (id) DO UPDATE SET description = CASE WHEN projects.description = '' THEN EXCLUDED.description ELSE projects.description END
    RETURNING id, product_name, company_name, description, website`;
  return {
    id: row!.id,
    productName: row!.product_name,
    companyName: row!.company_name,
    description: row!.description,
    website: row!.website,
  };
}

/** A new referral to a project, in Tee-up, with the first entry of its history. */
export async function insertReferral(
  tx: Tx,
  userId: string,
  project: StoredProject,
  input: z.output<typeof CreateReferralRequest>,
) {
  const referral = await tx.referral.create({
    data: {
      userId,
      projectId: project.id,
      referredFirstName: input.referredFirstName,
      referredLastName: input.referredLastName,
      referredEmail: input.referredEmail,
      referralReason: input.referralReason,
      isReferralAware: input.isReferralAware,
      canUseReferrerName: input.canUseReferrerName,
      company: input.company,
      searchText: searchTextOf({
        firstName: input.referredFirstName,
        lastName: input.referredLastName,
        email: input.referredEmail,
        company: input.company,
        projectCompanyName: project.companyName,
        reason: input.referralReason,
      }),
    },
  });
  await recordStatusChange(tx, { referralId: referral.id, userId, from: null, to: 'pending', at: referral.createdAt });
  return referral;
}

/** One entry of a referral's history (the timeline and the Impact dashboard's activity). */
export async function recordStatusChange(
  tx: Tx,
  change: { referralId: number; userId: string; from: ReferralStatus | null; to: ReferralStatus; at: Date },
): Promise<void> {
  await tx.referralStatusChange.create({ data: change });
}

/**
 * Stores the sent version of the intro email and marks it sent, unless it already was: a conditional
 * update, so of two concurrent sends exactly one finds email_sent_at still empty. Answers whether it did.
 */
export async function markIntroEmailSent(tx: Tx, referralId: number, draft: EmailDraft): Promise<boolean> {
  const claimed = await tx.$executeRaw`
    UPDATE referrals SET email_draft = ${JSON.stringify(draft)}::jsonb, email_sent_at = now(), updated_at = now()
     WHERE id = ${referralId} AND email_sent_at IS NULL`;
  return claimed === 1;
}

/**
 * The referral's stage and deal value, its row locked until the transaction ends: concurrent changes
 * each record the stage they really moved from, and commissions are decided one change at a time.
 */
export async function lockReferralStage(
  tx: Tx,
  referralId: number,
): Promise<{ status: ReferralStatus; dealValue: number | null }> {
  const [row] = await tx.$queryRaw<Array<{ status: ReferralStatus; deal_value: number | null }>>`
    SELECT status::text, deal_value::float8 AS deal_value FROM referrals WHERE id = ${referralId} FOR UPDATE`;
  return { status: row!.status, dealValue: row!.deal_value };
}

export async function setDealValue(tx: Tx, referralId: number, dealValue: number, at: Date): Promise<void> {
  await tx.$executeRaw`UPDATE referrals SET deal_value = ${dealValue}, updated_at = ${at} WHERE id = ${referralId}`;
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
 * Stores an intro email draft unless the email was sent (the stored draft is then what was sent), and
 * unless an enrichment draft is kept: one replaces a template/LLM draft, never the other way round.
 * Answers whether it was stored.
 */
export async function storeEmailDraft(
  tx: Tx,
  referralId: number,
  draft: EmailDraft,
  fromEnrichment: boolean,
): Promise<boolean> {
  const stored = await tx.referral.updateMany({
    where: { id: referralId, emailSentAt: null, ...(fromEnrichment ? {} : { fromClay: false }) },
    data: { emailDraft: draft, fromClay: fromEnrichment },
  });
  return stored.count > 0;
}
