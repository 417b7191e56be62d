import { Bounty, MILESTONES } from '@app/contracts';
import { BOUNTY_LABELS, bountyText } from '@app/domain';
import type { z } from 'zod';
import type { BountySummary } from '@app/contracts';

type Summary = z.infer<typeof BountySummary>;

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
    const label = BOUNTY_LABELS[milestone];
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
