import { STATUS_LABELS, type Milestone, type ReferralStatus, type TimelineEntry } from '@app/contracts';
import { formatCents, milestoneLabel, possessive } from '@app/domain';

/**
 * The entries of a referral's timeline, in the words both its referrer and its vendor read. Written when
 * the thing happens (a vendor renamed later does not rewrite history).
 */

export type NewTimelineEntry = Omit<TimelineEntry, 'at'>;

export const timelineEntry = {
  submitted: (): NewTimelineEntry => ({ actor: 'referrer', kind: 'submitted', text: 'Referral submitted' }),
  routed: (vendorName: string): NewTimelineEntry => ({
    actor: 'system',
    kind: 'routed',
    text: `Sent to ${possessive(vendorName)} lead inbox`,
  }),
  notRouted: (destination: string): NewTimelineEntry => ({
    actor: 'system',
    kind: 'not_routed',
    text: `${destination} is not on Referral Hub yet: nothing was sent to the vendor, the referral is tracked here`,
  }),
  introSent: (to: string[]): NewTimelineEntry => ({
    actor: 'referrer',
    kind: 'intro_sent',
    text: `Intro email sent to ${to.join(', ')}`,
  }),
  accepted: (vendorName: string): NewTimelineEntry => ({
    actor: 'vendor',
    kind: 'accepted',
    text: `${vendorName} accepted the lead`,
  }),
  declined: (vendorName: string, reason: string): NewTimelineEntry => ({
    actor: 'vendor',
    kind: 'declined',
    text: `${vendorName} declined the lead: ${reason}`,
  }),
  stageChanged: (to: ReferralStatus, actor: NewTimelineEntry['actor'] = 'referrer'): NewTimelineEntry => ({
    actor,
    kind: 'stage_changed',
    text: `Moved to ${STATUS_LABELS[to]}`,
  }),
  withdrawn: (): NewTimelineEntry => ({ actor: 'referrer', kind: 'withdrawn', text: 'Withdrawn by the referrer' }),
  milestoneConfirmed: (
    milestone: Milestone,
    by: { actor: 'vendor' | 'admin'; vendorName: string; note: string },
  ): NewTimelineEntry => ({
    actor: by.actor,
    kind: 'milestone_confirmed',
    text:
      by.actor === 'vendor'
        ? `${by.vendorName} confirmed ${milestoneLabel(milestone)}`
        : `An administrator recorded ${milestoneLabel(milestone)} for ${by.vendorName}: ${by.note}`,
  }),
  confirmationRequested: (milestone: Milestone, vendorName: string): NewTimelineEntry => ({
    actor: 'referrer',
    kind: 'confirmation_requested',
    text: `Asked ${vendorName} to confirm ${milestoneLabel(milestone)}`,
  }),
  expectedValueSet: (vendorName: string, cents: number, currency: string): NewTimelineEntry => ({
    actor: 'vendor',
    kind: 'expected_value_set',
    text: `${vendorName} expects a deal of ${formatCents(cents, currency)}`,
  }),
  dealReversed: (actor: 'vendor' | 'admin', who: string, reason: string): NewTimelineEntry => ({
    actor,
    kind: 'deal_reversed',
    text: `${actor === 'vendor' ? who : 'An administrator'} reversed the deal: ${reason}`,
  }),
};
