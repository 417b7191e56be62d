import type { Bounty, Milestone } from '@app/contracts';
import { BOUNTY_LABELS } from './bounties.ts';
import { DEFAULT_MRR_MONTHS, grossCents } from './commissions.ts';
import { STAGE_MILESTONES } from './stages.ts';
import { STATUS_LABELS, type ReferralStatus } from '@app/contracts';

/** The platform's one currency when none is configured (the CURRENCY setting). */
export const DEFAULT_CURRENCY = 'USD';

/** The highest deal value a vendor can enter when none is configured (DEAL_VALUE_MAX_CENTS): $10,000,000. */
export const DEFAULT_DEAL_VALUE_MAX_CENTS = 1_000_000_000;

/** Cents as money for people: formatCents(123456) is "$1,234.56"; whole amounts keep their cents. */
export function formatCents(cents: number, currency: string = DEFAULT_CURRENCY): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2 }).format(cents / 100);
}

/**
 * Dollars typed by a person ("12,500", "$12,500.50") as integer cents, or null when it is not an amount
 * with at most two decimals. Parsed from the text, never through floating-point arithmetic.
 */
export function parseDollarsToCents(input: string): number | null {
  const text = input.trim().replace(/^\$/, '').replace(/,/g, '');
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Milestone -> the spec stage it goes with (the retention bonus comes after Closed-Won and has none). */
export const MILESTONE_STAGES: Partial<Record<Milestone, ReferralStatus>> = Object.fromEntries(
  Object.entries(STAGE_MILESTONES).map(([stage, milestone]) => [milestone, stage]),
);

/**
 * A milestone with both names where the spec's stage label and the vendor's milestone differ:
 * "Qualified Lead (Warm Intro)", "Closed-Won", "Retention Bonus".
 */
export function milestoneLabel(milestone: Milestone): string {
  const label = BOUNTY_LABELS[milestone];
  const stage = MILESTONE_STAGES[milestone];
  const stageLabel = stage ? STATUS_LABELS[stage] : null;
  return stageLabel && stageLabel !== label ? `${label} (${stageLabel})` : label;
}

/** Which deal value a vendor enters when confirming a milestone: expected at opportunity, actual at Closed-Won. */
export const DEAL_VALUE_AT: Partial<Record<Milestone, 'expected' | 'actual'>> = {
  opportunityCreated: 'expected',
  closedWon: 'actual',
};

/** A bounty in words: "$500.00 flat", "10% of first-year ARR", "5% of MRR for 12 months". */
export function bountyWords(bounty: Bounty, currency: string): string | null {
  if (!bounty.enabled) return null;
  const amount = bounty.amount ?? 0;
  switch (bounty.type ?? 'flat') {
    case 'percentage_arr':
      return `${amount}% of first-year ARR`;
    case 'percentage_mrr': {
      const months = bounty.months ?? DEFAULT_MRR_MONTHS;
      return `${amount}% of MRR for ${months} month${months === 1 ? '' : 's'}`;
    }
    default:
      // The cents it pays (rounded once, as the commission is), not its float times 100: $1.005 pays $1.01.
      return `${formatCents(grossCents(bounty, null) ?? 0, currency)} flat`;
  }
}
