import type { Referral, ReferralStatus } from '@app/contracts';
import type { badgeVariants } from '@/components/ui/badge';
import type { VariantProps } from 'class-variance-authority';

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

export const formatDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
};

export const formatDateTime = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormat.format(date);
};

export const referredName = (referral: Referral) =>
  `${referral.referredFirstName} ${referral.referredLastName}`.trim() ||
  referral.referredName ||
  referral.referredEmail;

/** The destination company: the product's company, else the referral's. */
export const destinationCompany = (referral: Referral) => referral.project.companyName || referral.company;

export const STATUS_BADGE: Record<ReferralStatus, NonNullable<VariantProps<typeof badgeVariants>['variant']>> = {
  pending: 'secondary',
  intro_made: 'info',
  intro_accepted: 'default',
  intro_occurred: 'warning',
  became_customer: 'success',
  declined: 'destructive',
};
