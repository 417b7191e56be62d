import { Bounty, MILESTONES, type Milestone } from '@app/contracts';
import type { z } from 'zod';
import type { BountySummary } from '@app/contracts';

export const MILESTONE_LABELS: Record<Milestone, string> = {
  qualifiedLead: 'Qualified Lead',
  meetingHeld: 'Meeting Held',
  opportunityCreated: 'Opportunity Created',
  closedWon: 'Closed-Won',
  retentionBonus: 'Retention Bonus',
};

type Summary = z.infer<typeof BountySummary>;

const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** '$500 at Closed-Won', '20% of first-year ARR at Closed-Won', '10% of MRR for 12 months at Meeting Held'. */
export function bountyText(label: string, type: string, amount: number, months: number | null): string {
  if (type === 'percentage_arr') return `${number(amount)}% of first-year ARR at ${label}`;
  if (type === 'percentage_mrr')
    return `${number(amount)}% of MRR for ${months ?? 1} month${months === 1 ? '' : 's'} at ${label}`;
  return `$${number(amount)} at ${label}`;
}

/**
 * The enabled bounties of a vendor, in milestone order. Stored bounties passed the profiles service's
 * validation; each milestone is read on its own, and one that is unreadable or has no amount is left
 * out rather than shown wrong.
 */
export function bountySummaries(stored: unknown): Summary[] {
  if (!stored || typeof stored !== 'object') return [];
  const summaries: Summary[] = [];
  for (const milestone of MILESTONES) {
    const parsed = Bounty.safeParse((stored as Record<string, unknown>)[milestone]);
    if (!parsed.success) continue;
    const bounty = parsed.data;
    if (!bounty.enabled || bounty.amount === undefined || bounty.amount <= 0) continue;
    const type = bounty.type ?? 'flat';
    if (type !== 'flat' && bounty.amount > 100) continue;
    const months = type === 'percentage_mrr' ? (bounty.months ?? null) : null;
    const label = MILESTONE_LABELS[milestone];
    summaries.push({
      milestone,
      label,
      type,
      amount: bounty.amount,
      months,
      text: bountyText(label, type, bounty.amount, months),
    });
  }
  return summaries;
}
