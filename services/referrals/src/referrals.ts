import {
  REFERRAL_MESSAGES,
  type ClientOrganization,
  type CreateReferralRequest,
  type EmailDraft,
  type IcpFit,
  type Referral,
  type ReferralFit,
  type ReferralFitRequest,
  type SendEmailRequest,
  type UpdateStatusRequest,
} from '@app/contracts';
import { fail, type Identity, type PgTransaction, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import { pgSql, type Sql, type Tx } from './db.ts';
import { countNewReferral } from './figures.ts';
import { lockReferral } from './money-repository.ts';
import { introSenderName, personName, PLATFORM_SENDER, profileName } from './people.ts';
import { vendorLinks, vendorProductDescription } from './programs-repository.ts';
import type { ReferralReads, ReferralRow } from './reads.ts';
import {
  insertReferral,
  introSendFacts,
  lockIntroSends,
  recordIntroEmailSent,
  referrerProfile,
  upsertReferrerAndProject,
  type IntroSendFacts,
  type NewReferral,
  type UpsertedProject,
} from './repository.ts';
import { leadRecipients, routeOf } from './routing.ts';
import { changeStage } from './stage-change.ts';
import { timelineEntry, type NewTimelineEntry } from './timeline.ts';
import { lockVendor, vendorById } from './vendors-repository.ts';

/** Addresses once each, case aside, in their first spelling, leaving out `except`. */
function distinctAddresses(addresses: string[], except: string[] = []): string[] {
  const seen = new Set(except.map((a) => a.toLowerCase()));
  return addresses.filter((address) => {
    const key = address.toLowerCase();
    if (!address || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Why a send is refused: the quota, and what is left of it when some is. */
function quotaMessage(limit: number, per: 'hour' | 'day', used: number): string {
  const left = Math.max(0, limit - used);
  return `You can send intro emails to at most ${limit} recipients per ${per}${left ? ` (${left} left now)` : ''}. Please try again later${left ? ' or with fewer recipients' : ''}.`;
}

/**
 * The row `reads.byId` would read of a referral just created, from what its transaction wrote (no reload):
 * the referral as inserted, its project, its vendor's name when routed, its two timeline entries and its
 * first status (pending, at its creation).
 */
function createdRow(created: {
  referral: NewReferral;
  project: UpsertedProject;
  vendorName: string | null;
  timeline: NewTimelineEntry[];
}): ReferralRow {
  const { referral, project, vendorName, timeline } = created;
  const at = referral.createdAt.toISOString();
  return {
    id: referral.id,
    user_id: referral.userId,
    project_id: referral.projectId,
    status: referral.status,
    created_at: at,
    updated_at: referral.updatedAt.toISOString(),
    referred_first_name: referral.referredFirstName,
    referred_last_name: referral.referredLastName,
    referred_email: referral.referredEmail,
    referred_phone: referral.referredPhone,
    referral_reason: referral.referralReason,
    is_referral_aware: referral.isReferralAware,
    can_use_referrer_name: referral.canUseReferrerName,
    notes: referral.notes,
    company: referral.company,
    email_draft: null,
    has_draft: false,
    from_clay: referral.fromClay,
    email_sent_at: null,
    deal_value_cents: null,
    expected_value_cents: null,
    history: [{ from: null, to: referral.status, at }],
    product_name: project.productName,
    project_company_name: project.companyName,
    project_description: project.description,
    project_website: project.website,
    referral_program: project.referralProgram,
    description: referral.description,
    client: referral.client as ClientOrganization | null,
    vendor_id: referral.vendorId,
    vendor_name: vendorName,
    lead_status: referral.leadStatus,
    decline_reason: null,
    decided_at: null,
    fit: referral.fit as IcpFit | null,
    bounties_at_referral: referral.bountiesAtReferral,
    timeline: timeline.map((entry) => ({ at, ...entry })),
  };
}

/** Use cases of referrals: each owns its transaction and the events it announces. */
export function referralUseCases(deps: {
  db: Tx;
  transaction: TransactionRunner<Tx>;
  /** Statements in plain SQL on the pg pool, for the hot paths' reads. */
  sql: Sql;
  /** Transactions in plain SQL on the pg pool (with the outbox), for the hot paths. */
  sqlTransaction: TransactionRunner<PgTransaction>;
  /**
   * The create's transactions in plain SQL, on the Prisma client's connections: creates wait for those (503
   * after 2 s), never for the pg pool's, which the draft store and the send need to keep up.
   */
  createTransaction: TransactionRunner<PgTransaction>;
  reads: ReferralReads;
  /** Intro email recipients one user may reach per rolling hour and day. */
  sendQuota: { perHour: number; perDay: number };
}) {
  const { db, transaction, sql, sqlTransaction, createTransaction, reads, sendQuota } = deps;

  /** The user's own referral: 404 when there is none, 403 when it is another user's (spec 6). */
  async function own(userId: string, referralId: number): Promise<Referral> {
    const found = (await reads.byId(referralId)) ?? fail('REFERRAL_NOT_FOUND');
    if (found.userId !== userId) fail('REFERRAL_FORBIDDEN');
    return found.referral;
  }

  const reload = async (referralId: number) => (await reads.byId(referralId))!.referral;

  /**
   * How the intro email of a referral is sent: From "{referrer's name} via Referral Hub" (the mail service
   * adds MAIL_FROM's address), Reply-To the referrer, and the vendor's lead inbox always in Cc while the
   * referral's vendor is a verified workspace. Never signed or named as the vendor. A referrer who did not
   * allow their name is named nowhere (the draft is signed "Referral Hub" and copies them in Bcc): From
   * "Referral Hub", replies to the vendor's lead inbox when routed (the team the email offers to put the
   * client in touch with), else to the platform's own address (no Reply-To).
   */
  function envelopeOf(identity: Identity, facts: IntroSendFacts) {
    const alwaysCc = facts.leadInbox ? [facts.leadInbox] : [];
    if (!facts.namesReferrer) return { from: PLATFORM_SENDER, replyTo: facts.leadInbox ?? '', alwaysCc };
    const from = introSenderName({ firstName: facts.firstName, lastName: facts.lastName, email: identity.email });
    return { from, replyTo: identity.email, alwaysCc };
  }

  /** The user's own referral's sending facts (`own`'s 404 and 403, in one statement, without the referral). */
  async function ownSendFacts(identity: Identity, referralId: number): Promise<IntroSendFacts> {
    const facts = (await introSendFacts(sql, referralId, identity.userId)) ?? fail('REFERRAL_NOT_FOUND');
    if (facts.userId !== identity.userId) fail('REFERRAL_FORBIDDEN');
    return facts;
  }

  /** The recipients as sent: the draft's, with the addresses the server always copies added to the Cc. */
  const sendTo = (recipients: EmailDraft['recipients'], alwaysCc: string[]) => ({
    to: recipients.to,
    cc: distinctAddresses([...recipients.cc, ...alwaysCc], recipients.to),
    bcc: recipients.bcc,
  });

  return {
    own,

    /** Where a referral would go and how the client fits the vendor's ICP (nothing is stored). */
    async checkFit(input: z.output<typeof ReferralFitRequest>): Promise<ReferralFit> {
      const route = await routeOf(db, input, input.client);
      return {
        vendor: route.vendor && { id: route.vendor.id, name: route.vendor.name },
        fit: route.fit,
        routable: route.routable,
      };
    },

    /**
     * A referral in Tee-up, to the project of its product and company (created on first use; the form's
     * productId names none). When the product's vendor is a verified workspace the referral is routed to it
     * (`new` in its lead inbox, `lead.created`), unless the client clearly fails its ICP: then nothing is
     * stored and the answer is 422 ICP_MISMATCH with the reasons. Announced with the referrer's profile and
     * the referrer's own description, so the intro email is drafted from their words only.
     */
    async create(identity: Identity, input: z.output<typeof CreateReferralRequest>): Promise<Referral> {
      // Plain SQL (a pg transaction, not Prisma's interactive one): the pipeline's first step (bench:pipeline).
      const created = await createTransaction(async (pgTx, emit) => {
        const tx = pgSql(pgTx.client);
        const route = await routeOf(tx, input, input.client);
        if (!route.routable) fail('ICP_MISMATCH', undefined, { details: route.fit?.fails ?? [] });
        const locked = route.vendor && (await lockVendor(tx, route.vendor.id));
        const vendor = locked?.verified ? locked : null;
        const upserted = await upsertReferrerAndProject(tx, identity, {
          productName: input.product,
          companyName: input.company,
          vendorDescription: vendor ? await vendorProductDescription(tx, vendor.id, input.product) : '',
        });
        const { referrer } = upserted;
        const { referralProgram, ...project } = upserted.project;
        const timeline = [
          timelineEntry.submitted(),
          vendor ? timelineEntry.routed(vendor.name) : timelineEntry.notRouted(input.company || input.product),
        ];
        const routing = {
          vendorId: vendor?.id ?? null,
          company: vendor?.name ?? input.company,
          fit: vendor ? route.fit : null,
        };
        const referral = await insertReferral(tx, identity.userId, project, input, routing, timeline);
        // Its answer is not needed: it goes out with the COMMIT (pipelined, one round trip fewer).
        pgTx.withCommit(countNewReferral(tx, identity.userId, referral.company, routing.vendorId));
        emit('referral.created', {
          referralId: referral.id,
          referrer,
          referred: {
            firstName: referral.referredFirstName,
            lastName: referral.referredLastName,
            email: referral.referredEmail,
          },
          reason: referral.referralReason,
          isReferralAware: referral.isReferralAware,
          canUseReferrerName: referral.canUseReferrerName,
          // The referrer's own words; without any, only the vendor's (the project's shared text is its program's).
          project: { ...project, description: input.description || project.description },
        });
        if (vendor)
          emit('lead.created', {
            referralId: referral.id,
            vendorId: vendor.id,
            vendorName: vendor.name,
            recipients: leadRecipients(vendor),
            referrerName: personName(referrer),
            clientName: input.client.name,
            productName: project.productName,
          });
        return { referral, project: { ...project, referralProgram }, vendorName: vendor?.name ?? null, timeline };
      });
      return reads.created(createdRow(created));
    },

    /**
     * The intro email draft with how it will be sent (From, Reply-To, the recipients with the vendor's
     * lead inbox in Cc), or with `checkOnly` whether it is ready (the screen polls it).
     */
    async emailDraft(identity: Identity, referralId: number, checkOnly: boolean) {
      const referral = await own(identity.userId, referralId);
      if (checkOnly) return { ready: referral.emailDraft !== null, fromClay: referral.fromClay };
      const draft = referral.emailDraft ?? fail('DRAFT_NOT_READY');
      const envelope = envelopeOf(identity, await ownSendFacts(identity, referralId));
      return {
        emailDraft: draft,
        fromClay: referral.fromClay,
        ...envelope,
        sendTo: sendTo(draft.recipients, envelope.alwaysCc),
      };
    },

    /**
     * Sends the (edited) intro email once (mail service), as `envelopeOf` says: From the referrer via Referral
     * Hub, Reply-To the referrer (neither when they did not allow their name), Cc the vendor's lead inbox when
     * routed. The stored draft becomes what was sent. The user's recipients (the addresses they chose, each
     * once) must fit their hourly and daily quotas, counted under a lock of the user's: over either, 429
     * SEND_QUOTA_EXCEEDED and nothing is stored or sent.
     */
    async sendIntroEmail(identity: Identity, referralId: number, input: z.output<typeof SendEmailRequest>) {
      const facts = await ownSendFacts(identity, referralId);
      if (facts.emailSent) fail('EMAIL_ALREADY_SENT');
      if (facts.declined) fail('REFERRAL_DECLINED');
      const envelope = envelopeOf(identity, facts);
      const draft = {
        subject: input.subject,
        body: input.body,
        recipients: sendTo(input.recipients, envelope.alwaysCc),
      };
      const chosen = distinctAddresses([...input.recipients.to, ...input.recipients.cc, ...input.recipients.bcc]);
      // Plain SQL (a pg transaction, not Prisma's interactive one): the pipeline's hot path (bench:pipeline).
      await sqlTransaction(async ({ client }, emit) => {
        await lockIntroSends(client, identity.userId);
        const { usage, marked } = await recordIntroEmailSent(client, {
          referralId,
          userId: identity.userId,
          draft,
          recipients: chosen.length,
          entry: timelineEntry.introSent(draft.recipients.to),
          quota: sendQuota,
        });
        if (usage.lastHour + chosen.length > sendQuota.perHour)
          fail('SEND_QUOTA_EXCEEDED', quotaMessage(sendQuota.perHour, 'hour', usage.lastHour));
        if (usage.lastDay + chosen.length > sendQuota.perDay)
          fail('SEND_QUOTA_EXCEEDED', quotaMessage(sendQuota.perDay, 'day', usage.lastDay));
        // Sent, or moved to Declined, since the facts were read (the update checks both).
        if (!marked) fail('EMAIL_ALREADY_SENT');
        emit('referral.intro_email_requested', {
          referralId,
          fromName: envelope.from,
          replyTo: envelope.replyTo,
          to: draft.recipients.to,
          cc: draft.recipients.cc,
          bcc: draft.recipients.bcc,
          subject: draft.subject,
          body: draft.body,
        });
      });
      return { success: true as const, message: REFERRAL_MESSAGES.emailSent };
    },

    /**
     * The referrer moves their referral to a stage (any from any, spec 4): their own tracking, which earns
     * nothing. Setting the current stage again records nothing. Declined withdraws the referral: its unpaid
     * commissions are reversed in the same transaction.
     */
    async updateStatus(
      userId: string,
      referralId: number,
      input: z.output<typeof UpdateStatusRequest>,
    ): Promise<Referral> {
      const referral = await own(userId, referralId);
      await transaction(async (tx, emit) => {
        const lead = (await lockReferral(tx, referral.id)) ?? fail('REFERRAL_NOT_FOUND');
        // The vendor's decline ends the lead: its unpaid commissions are reversed, and a later stage would
        // count a deal the vendor said is not one. (The referrer's own withdrawal can be undone.)
        if (lead.leadStatus === 'declined' && input.status !== lead.status) fail('REFERRAL_ENDED');
        const referrer = await referrerProfile(tx, userId);
        const name = profileName(referrer);
        const moved = await changeStage(
          tx,
          emit,
          { id: referral.id, userId, projectId: referral.projectId },
          { status: input.status, timeline: true, actor: { kind: 'referrer', userId, name } },
        );
        // Withdrawn: the vendor that has the lead (and has not declined it) is told, as for a new lead.
        const withdrawn = moved && input.status === 'declined';
        const vendor =
          withdrawn && lead.vendorId && lead.leadStatus !== 'declined' ? await vendorById(tx, lead.vendorId) : null;
        if (vendor?.verified)
          emit('lead.withdrawn', {
            referralId: referral.id,
            vendorId: vendor.id,
            vendorName: vendor.name,
            recipients: leadRecipients(vendor),
            referrerName: name,
            clientName: lead.clientName || referral.referredName,
            productName: lead.productName,
          });
      });
      return reload(referral.id);
    },

    /**
     * Never submits anything to a vendor: the screen shows a simulated form (spec 2, "mock dry run"), the
     * vendor's own variant when its website is known (the product's, else the vendor's or its program's).
     */
    async automate(userId: string, referralId: number, dryRun: boolean) {
      const referral = await own(userId, referralId);
      if (!dryRun) fail('DRY_RUN_ONLY');
      // The project, and the workspace this referral was routed to (by evidence: its vendor counts whatever its name).
      const { project } = referral;
      const links = project.website ? null : await vendorLinks(db, project, referral.lead?.vendorId ?? null);
      return {
        success: true,
        message: `Mock dry run: the referral form for ${project.productName} was filled but not submitted.`,
        website: project.website ?? links?.vendorWebsite ?? links?.programWebsite ?? null,
      };
    },
  };
}

export type ReferralUseCases = ReturnType<typeof referralUseCases>;
