import { fail, type HandlersOf } from '@app/kit';
import type { ImpactReads } from './impact.ts';
import type { LeadUseCases } from './leads.ts';
import type { MoneyUseCases } from './money.ts';
import type { ReferralProgramUseCases } from './programs.ts';
import type { ReferralReads } from './reads.ts';
import type { ReferralUseCases } from './referrals.ts';

/**
 * The referrals service's operations (contracts: `referralOperations`, `leadOperations`,
 * `moneyAdminOperations`): input is parsed, call and reply.
 */
export function referralRoutes(deps: {
  referrals: ReferralUseCases;
  leads: LeadUseCases;
  money: MoneyUseCases;
  programs: ReferralProgramUseCases;
  reads: ReferralReads;
  impact: ImpactReads;
}): HandlersOf<'referrals'> {
  const { referrals, leads, money, programs, reads, impact } = deps;
  return {
    createReferral: ({ identity, body }) => referrals.create(identity, body),
    checkReferralFit: ({ body }) => referrals.checkFit(body),
    listReferrals: ({ identity, query }) => reads.list(identity.userId, query),
    getReferral: ({ identity, params }) => referrals.own(identity.userId, params.id),
    getEmailDraft: ({ identity, params, query }) =>
      referrals.emailDraft(identity, params.id, query.checkOnly === 'true'),
    sendEmail: ({ identity, params, body }) => referrals.sendIntroEmail(identity, params.id, body),
    updateStatus: ({ identity, params, body }) => referrals.updateStatus(identity.userId, params.id, body),
    getReferralProgram: async ({ identity, params, query }) => {
      // The caller's own referral (404, 403 as anywhere) of this product: its routed vendor's program counts.
      const referral = query.referralId === undefined ? null : await referrals.own(identity.userId, query.referralId);
      if (referral && referral.projectId !== params.projectId) fail('REFERRAL_NOT_FOUND');
      return programs.referralProgramOf(params.projectId, referral?.lead ?? null);
    },
    automateReferral: ({ identity, params, body }) => referrals.automate(identity.userId, params.id, body.dryRun),
    getImpact: ({ identity, query }) => impact.summary(identity.userId, query),
    listCommissions: ({ identity, query }) => impact.commissions(identity.userId, query),
    requestConfirmation: ({ identity, params, body }) => money.requestConfirmation(identity, params.id, body),
    listLeads: ({ identity, params, query }) => leads.list(identity, params.vendorId, query),
    getLead: ({ identity, params }) => leads.get(identity, params.vendorId, params.referralId),
    acceptLead: ({ identity, params }) => leads.accept(identity, params.vendorId, params.referralId),
    declineLead: ({ identity, params, body }) =>
      leads.decline(identity, params.vendorId, params.referralId, body.reason),
    confirmMilestone: ({ identity, params, body }) => leads.confirm(identity, params.vendorId, params.referralId, body),
    setExpectedValue: ({ identity, params, body }) =>
      leads.setExpectedValue(identity, params.vendorId, params.referralId, body.expectedValueCents),
    reverseDeal: ({ identity, params, body }) =>
      leads.reverseDeal(identity, params.vendorId, params.referralId, body.reason),
    listVendorCommissions: ({ identity, params }) => leads.commissions(identity, params.vendorId),
    adminConfirmMilestone: ({ identity, params, body }) => money.adminConfirm(identity, params.id, body),
    adminReverseDeal: ({ identity, params, body }) => money.adminReverse(identity, params.id, body.reason),
    getAdminReferral: ({ params }) => money.adminReferral(params.id),
    getReferralLedger: ({ params }) => money.ledger(params.id),
    listPayoutsDue: () => money.payoutsDue(),
    recordPayout: ({ identity, body }) => money.recordPayout(identity, body),
    listPayouts: () => money.listPayouts(),
    exportPayout: async ({ params, reply }) => {
      const { filename, csv } = await money.exportPayout(params.id);
      reply.header('content-disposition', `attachment; filename="${filename}"`);
      return csv;
    },
  };
}
