import type { ReferralListItem as Referral, ReferralStatus } from '@app/contracts';
import { formatCents } from '@app/domain';
import type { badgeVariants } from '@/components/ui/badge';
import type { VariantProps } from 'class-variance-authority';

export { formatDate, formatDateTime } from '@/lib/dates';

export const referredName = (referral: Referral) =>
  `${referral.referredFirstName} ${referral.referredLastName}`.trim() ||
  referral.referredName ||
  referral.referredEmail;

/** The destination company: the product's company, else the referral's. */
/**
 * The referral's company: a routed referral's is its vendor workspace's name (following a rename), the same name
 * the company filter offers; else the company the search found. The project's name is as first typed
 * ("Pipedrive Inc." beside a workspace named Pipedrive).
 */
export const destinationCompany = (referral: Referral) => referral.company || referral.project.companyName;

export const STATUS_BADGE: Record<ReferralStatus, NonNullable<VariantProps<typeof badgeVariants>['variant']>> = {
  pending: 'secondary',
  intro_made: 'info',
  intro_accepted: 'default',
  intro_occurred: 'warning',
  became_customer: 'success',
  declined: 'destructive',
};

/** The vendor's decision on a routed referral, in a few words (nothing when it was not routed). */
export function leadStatusText(referral: Referral): string {
  if (!referral.lead) return '';
  if (referral.lead.status === 'declined') return `Declined by ${referral.lead.vendorName}`;
  if (referral.lead.status === 'withdrawn') return 'Withdrawn by you';
  // The deal fell through after its milestones were confirmed: the stage stays, its commissions do not.
  if (referral.money.milestones.some((m) => m.state === 'reversed')) return 'Deal reversed';
  if (referral.lead.status === 'accepted') return `Accepted by ${referral.lead.vendorName}`;
  return `Waiting for ${referral.lead.vendorName}`;
}

/**
 * The Bounty column (issue 10): the referrer's share earned (confirmed by the vendor), else what the open
 * milestones would pay (marked expected), else 'TBD'.
 */
export function bountyText(referral: Referral): { text: string; kind: 'earned' | 'expected' | 'none' } {
  const { money } = referral;
  if (money.earnedCents > 0) return { text: formatCents(money.earnedCents, money.currency), kind: 'earned' };
  if (money.expectedCents !== null && money.expectedCents > 0)
    return { text: formatCents(money.expectedCents, money.currency), kind: 'expected' };
  return { text: 'TBD', kind: 'none' };
}
