import { describe, expect, it } from 'vitest';
import { commissionCents, grossCents } from '../src/index.ts';

/**
 * A bounty's amount is taken exactly as the vendor entered it and rounded once, half up, at the end
 * (docs/product-decisions.md, "Commission amount"): never rounded to hundredths first.
 */
describe('exact bounty amounts', () => {
  it('keeps every decimal of a percentage until the one rounding', () => {
    // 0.125% of $10,000.00 = $12.50 (pre-rounded to 0.13% it was $13.00).
    expect(grossCents({ enabled: true, type: 'percentage_arr', amount: 0.125 }, 1_000_000)).toBe(1_250);
    // 12.345% of $1,000.00 = 12345 cents (not 12.35%: 12350).
    expect(grossCents({ enabled: true, type: 'percentage_arr', amount: 12.345 }, 100_000)).toBe(12_345);
    // 2.555% of MRR ($1,200.00 / 12) for 12 months = 3066 cents.
    expect(grossCents({ enabled: true, type: 'percentage_mrr', amount: 2.555, months: 12 }, 120_000)).toBe(3_066);
  });

  it('rounds a flat amount with sub-cent digits half up once (as written, not as its binary float)', () => {
    // 1.005 and 100.005 are just below their decimal in binary: Math.round(x * 100) rounded them down.
    expect(grossCents({ enabled: true, type: 'flat', amount: 1.005 }, null)).toBe(101);
    expect(grossCents({ enabled: true, type: 'flat', amount: 100.005 }, null)).toBe(10_001);
    expect(grossCents({ enabled: true, type: 'flat', amount: 250.55 }, null)).toBe(25_055);
    expect(grossCents({ enabled: true, type: 'flat', amount: 10_000_000 }, null)).toBe(1_000_000_000);
  });

  it('pays nothing for amounts below half a cent, negative or not a number', () => {
    expect(commissionCents({ enabled: true, type: 'flat', amount: 0.004 }, null)).toBeNull();
    expect(commissionCents({ enabled: true, type: 'flat', amount: 1e-7 }, null)).toBeNull();
    expect(commissionCents({ enabled: true, type: 'flat', amount: -5 }, null)).toBeNull();
    expect(commissionCents({ enabled: true, type: 'flat', amount: Number.NaN }, null)).toBeNull();
    expect(commissionCents({ enabled: true, type: 'flat', amount: 0.005 }, null)).toEqual({
      gross: 1,
      referrer: 1,
      fee: 0,
    });
  });
});
