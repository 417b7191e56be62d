import {
  REFERRAL_STATUSES,
  STATUS_LABELS,
  type LeadState,
  type LeadStatus,
  type Milestone,
  type ReferralStatus,
} from '@app/contracts';

/** A lead's state (LEAD_STATES): the vendor's decline first, then the referrer's withdrawal (Declined), else the decision. */
export const leadState = (decision: LeadStatus, stage: ReferralStatus): LeadState =>
  decision !== 'declined' && stage === 'declined' ? 'withdrawn' : decision;

/**
 * The one stage model. Spec order and labels; how far along each stage is (the funnel counts referrals
 * that ever reached a stage); and which vendor bounty milestone a stage reaches.
 */
export const STAGES: readonly ReferralStatus[] = REFERRAL_STATUSES;

export const stageLabel = (status: ReferralStatus) => STATUS_LABELS[status];

/** How far along a stage is (0 for Tee-up and Declined). */
export const STAGE_RANK: Record<ReferralStatus, number> = {
  pending: 0,
  declined: 0,
  intro_made: 1,
  intro_occurred: 2,
  intro_accepted: 3,
  became_customer: 4,
};

/**
 * Stage -> the bounty milestone it reaches: Warm Intro -> qualified lead, Intro Occurred -> meeting held,
 * Demo -> opportunity created, Closed-Won -> closed-won. The retention bonus comes after Closed-Won.
 */
export const STAGE_MILESTONES: Partial<Record<ReferralStatus, Milestone>> = {
  intro_made: 'qualifiedLead',
  intro_occurred: 'meetingHeld',
  intro_accepted: 'opportunityCreated',
  became_customer: 'closedWon',
};

/** The milestones a referral has reached at a stage (every one up to its rank). */
export function milestonesReached(furthest: ReferralStatus): Milestone[] {
  const rank = STAGE_RANK[furthest];
  return (Object.entries(STAGE_MILESTONES) as Array<[ReferralStatus, Milestone]>)
    .filter(([stage]) => STAGE_RANK[stage] <= rank && rank > 0)
    .map(([, milestone]) => milestone);
}
