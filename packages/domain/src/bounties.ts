import { MILESTONES, type Bounties, type Bounty, type Milestone, type PayoutType } from '@app/contracts';
import { DEFAULT_MRR_MONTHS } from './commissions.ts';

/**
 * How a vendor's bounties are put into words, the same on the bounty form, in Smart Match and wherever a
 * reward is shown: '$500 at Closed-Won', '20% of first-year ARR at Closed-Won', '10% of MRR for 12 months
 * at Meeting Held'.
 */

/** The names of the milestones (title case, as the vendor sets them), wherever a bounty is shown. */
export const BOUNTY_LABELS: Record<Milestone, string> = {
  qualifiedLead: 'Qualified Lead',
  meetingHeld: 'Meeting Held',
  opportunityCreated: 'Opportunity Created',
  closedWon: 'Closed-Won',
  retentionBonus: 'Retention Bonus',
};

const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 });
/** Dollars as money is written: whole ones bare ('$1,500'), else with both cents ('$2,500.50', not '$2,500.5'). */
const dollars = (value: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(value) ? 0 : 2, maximumFractionDigits: 2 });

/** One milestone's payout in words; without an amount yet it says so (never '$?', issue 12). */
export function bountyText(
  label: string,
  type: PayoutType | string | undefined,
  amount: number | undefined,
  months: number | null | undefined,
): string {
  if (amount === undefined || !(amount > 0)) return `No amount set yet at ${label}`;
  const shown = number(amount);
  if (type === 'percentage_arr') return `${shown}% of first-year ARR at ${label}`;
  if (type === 'percentage_mrr') {
    const paidMonths = months ?? DEFAULT_MRR_MONTHS;
    return `${shown}% of MRR for ${paidMonths} month${paidMonths === 1 ? '' : 's'} at ${label}`;
  }
  return `$${dollars(amount)} at ${label}`;
}

/** A milestone's bounty as it stands (type flat when none was chosen). */
export const describeBounty = (bounty: Bounty, label: string): string =>
  bountyText(label, bounty.type ?? 'flat', bounty.amount, bounty.months);

/**
 * The enabled milestones that have an amount, in milestone order, in words ("$50 at Qualified Lead and 10% of
 * first-year ARR at Closed-Won"); null when none pays anything yet.
 */
export function bountyList(bounties: Bounties): string | null {
  const parts = MILESTONES.filter((m) => bounties[m].enabled && (bounties[m].amount ?? 0) > 0).map((m) =>
    describeBounty(bounties[m], BOUNTY_LABELS[m]),
  );
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** "You'll pay …" from the enabled milestones, in milestone order; null when none is enabled. */
export function bountySummary(bounties: Bounties): string | null {
  if (!MILESTONES.some((m) => bounties[m].enabled)) return null;
  // Only the amounts set: a milestone still without one is said on its own card.
  const list = bountyList(bounties);
  return list ? `You'll pay ${list}.` : 'Enter an amount to see what you will pay.';
}
