import {
  REFERRAL_MESSAGES,
  type CreateReferralRequest,
  type Referral,
  type SendEmailRequest,
  type UpdateStatusRequest,
} from '@app/contracts';
import { fail, type Identity, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import { earnCommissions } from './commissions.ts';
import type { Tx } from './db.ts';
import { countNewReferral, countStatusChange } from './figures.ts';
import type { ReferralReads } from './reads.ts';
import {
  insertReferral,
  lockReferralStage,
  markIntroEmailSent,
  recordStatusChange,
  referrerWithEmail,
  setDealValue,
  setStage,
  upsertProject,
} from './repository.ts';

/** The sender name of intro emails: they come from the product, replies go to the referrer. */
export const introSenderName = (productName: string) => `${productName} via Referral Hub`;

/** A deal value as stored (numeric(14,2)): cents rounded, so a repeated value changes nothing. */
const toCents = (dollars: number) => Math.round(dollars * 100) / 100;

/** Use cases of referrals: each owns its transaction and the events it announces. */
export function referralUseCases(deps: { transaction: TransactionRunner<Tx>; reads: ReferralReads }) {
  const { transaction, reads } = deps;

  /** The user's own referral: 404 when there is none, 403 when it is another user's (spec 6). */
  async function own(userId: string, referralId: number): Promise<Referral> {
    const found = (await reads.byId(referralId)) ?? fail('REFERRAL_NOT_FOUND');
    if (found.userId !== userId) fail('REFERRAL_FORBIDDEN');
    return found.referral;
  }

  const reload = async (referralId: number) => (await reads.byId(referralId))!.referral;

  return {
    own,

    /**
     * A referral in Tee-up, to the project of its product and company (created on first use; the form's
     * productId names none), announced with the referrer's profile so the intro email can be drafted.
     */
    async create(identity: Identity, input: z.output<typeof CreateReferralRequest>): Promise<Referral> {
      const referralId = await transaction(async (tx, emit) => {
        const referrer = await referrerWithEmail(tx, identity.userId, identity.email);
        const project = await upsertProject(tx, {
          productName: input.product,
          companyName: input.company,
          description: input.description,
        });
        const referral = await insertReferral(tx, identity.userId, project, input);
        await countNewReferral(tx, identity.userId, referral.company);
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
          project,
        });
        return referral.id;
      });
      return reload(referralId);
    },

    /** The intro email draft, or with `checkOnly` whether it is ready (the screen polls it). */
    async emailDraft(userId: string, referralId: number, checkOnly: boolean) {
      const referral = await own(userId, referralId);
      if (checkOnly) return { ready: referral.emailDraft !== null, fromClay: referral.fromClay };
      if (!referral.emailDraft) fail('DRAFT_NOT_READY');
      return { emailDraft: referral.emailDraft, fromClay: referral.fromClay };
    },

    /** Sends the (edited) intro email once: From the product, Reply-To the referrer (mail service). */
    async sendIntroEmail(identity: Identity, referralId: number, input: z.output<typeof SendEmailRequest>) {
      const referral = await own(identity.userId, referralId);
      if (referral.emailSentAt) fail('EMAIL_ALREADY_SENT');
      const draft = { subject: input.subject, body: input.body, recipients: input.recipients };
      await transaction(async (tx, emit) => {
        if (!(await markIntroEmailSent(tx, referral.id, draft))) fail('EMAIL_ALREADY_SENT');
        emit('referral.intro_email_requested', {
          referralId: referral.id,
          fromName: introSenderName(referral.project.productName),
          replyTo: identity.email,
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
     * Moves a referral to a stage (any from any, spec 4) and/or gives its deal value; setting the current
     * stage again records nothing. Commissions owed are earned in the same transaction.
     */
    async updateStatus(
      userId: string,
      referralId: number,
      input: z.output<typeof UpdateStatusRequest>,
    ): Promise<Referral> {
      const referral = await own(userId, referralId);
      const { status } = input;
      const dealValue = input.dealValue === undefined ? undefined : toCents(input.dealValue);
      await transaction(async (tx, emit) => {
        const current = await lockReferralStage(tx, referral.id);
        const from = current.status;
        const newDeal = dealValue !== undefined && dealValue !== current.dealValue;
        if (from === status && !newDeal) return;
        const at = new Date();
        if (newDeal) await setDealValue(tx, referral.id, dealValue, at);
        if (from !== status) {
          await setStage(tx, referral.id, status, at);
          await recordStatusChange(tx, { referralId: referral.id, userId, from, to: status, at });
          await countStatusChange(tx, userId, from, status);
          emit('referral.status_changed', {
            referralId: referral.id,
            userId,
            projectId: referral.projectId,
            from,
            to: status,
            changedAt: at.toISOString(),
          });
        }
        await earnCommissions(tx, referral.id);
      });
      return reload(referral.id);
    },

    /** Never submits anything to a vendor: the screen shows a simulated form (spec 2, "mock dry run"). */
    async automate(userId: string, referralId: number, dryRun: boolean) {
      const referral = await own(userId, referralId);
      if (!dryRun) fail('DRY_RUN_ONLY');
      return {
        success: true,
        message: `Mock dry run: the referral form for ${referral.project.productName} was filled but not submitted.`,
      };
    },
  };
}

export type ReferralUseCases = ReturnType<typeof referralUseCases>;
