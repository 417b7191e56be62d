import { STATUS_LABELS, type ReferralStatus, type TimelineEntry } from '@app/contracts';

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
    text: `Sent to ${vendorName}'s lead inbox`,
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
  stageChanged: (to: ReferralStatus): NewTimelineEntry => ({
    actor: 'referrer',
    kind: 'stage_changed',
    text: `Moved to ${STATUS_LABELS[to]}`,
  }),
};
