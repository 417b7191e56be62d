import { describe, expect, it } from 'vitest';
import { bountyWords } from '@app/domain';

describe('a bounty in words', () => {
  it('shows a flat bounty as the cents it pays, rounded once as its commission is', () => {
    expect(bountyWords({ enabled: true, type: 'flat', amount: 500 }, 'USD')).toBe('$500.00 flat');
    // 1.005 is just below its decimal as a float: its float times 100 rounded to $1.00; it pays 101 cents.
    expect(bountyWords({ enabled: true, type: 'flat', amount: 1.005 }, 'USD')).toBe('$1.01 flat');
    expect(bountyWords({ enabled: true, amount: 250.55 }, 'EUR')).toBe('€250.55 flat');
    expect(bountyWords({ enabled: true, type: 'percentage_arr', amount: 0.125 }, 'USD')).toBe(
      '0.125% of first-year ARR',
    );
    expect(bountyWords({ enabled: false, type: 'flat', amount: 500 }, 'USD')).toBeNull();
  });
});
