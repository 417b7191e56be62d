import { DEFAULT_BOUNTIES, type Bounties } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { bountySummary, bountyText, DEFAULT_MRR_MONTHS, describeBounty } from '../src/index.ts';

describe('bounty wording', () => {
  it('puts each payout type into words', () => {
    expect(bountyText('Closed-Won', 'flat', 1500, null)).toBe('$1,500 at Closed-Won');
    // Cents are written in full, as money is: never '$2,500.5'.
    expect(bountyText('Closed-Won', 'flat', 2500.5, null)).toBe('$2,500.50 at Closed-Won');
    expect(bountyText('Qualified Lead', 'flat', 50.05, null)).toBe('$50.05 at Qualified Lead');
    expect(bountyText('Closed-Won', 'percentage_arr', 12.5, null)).toBe('12.5% of first-year ARR at Closed-Won');
    expect(bountyText('Meeting Held', 'percentage_mrr', 10, 6)).toBe('10% of MRR for 6 months at Meeting Held');
    expect(bountyText('Meeting Held', 'percentage_mrr', 10, 1)).toBe('10% of MRR for 1 month at Meeting Held');
  });

  it('says an amount is not given yet (never $?), and reads an MRR bounty without months as a year', () => {
    expect(DEFAULT_MRR_MONTHS).toBe(12);
    expect(describeBounty({ enabled: true }, 'Closed-Won')).toBe('No amount set yet at Closed-Won');
    expect(describeBounty({ enabled: true, type: 'percentage_mrr', amount: 5 }, 'Retention Bonus')).toBe(
      '5% of MRR for 12 months at Retention Bonus',
    );
  });

  it('sums the enabled milestones up in milestone order as "You\'ll pay …"', () => {
    const bounties: Bounties = {
      ...DEFAULT_BOUNTIES,
      retentionBonus: { enabled: true, type: 'percentage_mrr', amount: 5, months: 6 },
      qualifiedLead: { enabled: true, type: 'flat', amount: 1500 },
      closedWon: { enabled: true, type: 'percentage_arr', amount: 20 },
    };
    expect(bountySummary(bounties)).toBe(
      "You'll pay $1,500 at Qualified Lead, 20% of first-year ARR at Closed-Won and 5% of MRR for 6 months at Retention Bonus.",
    );
    expect(bountySummary({ ...bounties, qualifiedLead: { enabled: false } })).toBe(
      "You'll pay 20% of first-year ARR at Closed-Won and 5% of MRR for 6 months at Retention Bonus.",
    );
    const none = Object.fromEntries(Object.keys(bounties).map((m) => [m, { enabled: false }])) as Bounties;
    expect(bountySummary(none)).toBeNull();
  });
});
