import type { HandlersOf } from '@app/kit';
import type { CommissionUseCases } from './commissions.ts';
import type { ImpactReads } from './impact.ts';
import type { ReferralProgramUseCases } from './programs.ts';
import type { ReferralReads } from './reads.ts';
import type { ReferralUseCases } from './referrals.ts';

/** The referrals service's operations (contracts: `referralOperations`): input is parsed, call and reply. */
export function referralRoutes(deps: {
  referrals: ReferralUseCases;
  commissions: CommissionUseCases;
  programs: ReferralProgramUseCases;
  reads: ReferralReads;
  impact: ImpactReads;
}): HandlersOf<'referrals'> {
  const { referrals, commissions, programs, reads, impact } = deps;
  return {
    createReferral: ({ identity, body }) => referrals.create(identity, body),
    listReferrals: ({ identity, query }) => reads.list(identity.userId, query),
    getReferral: ({ identity, params }) => referrals.own(identity.userId, params.id),
    getEmailDraft: ({ identity, params, query }) =>
      referrals.emailDraft(identity.userId, params.id, query.checkOnly === 'true'),
    sendEmail: ({ identity, params, body }) => referrals.sendIntroEmail(identity, params.id, body),
    updateStatus: ({ identity, params, body }) => referrals.updateStatus(identity.userId, params.id, body),
    getReferralProgram: ({ params }) => programs.referralProgramOf(params.projectId),
    automateReferral: ({ identity, params, body }) => referrals.automate(identity.userId, params.id, body.dryRun),
    getImpact: ({ identity, query }) => impact.summary(identity.userId, query),
    listCommissions: ({ identity, query }) => impact.commissions(identity.userId, query),
    recordPayout: ({ params }) => commissions.recordPayout(params.id),
  };
}
