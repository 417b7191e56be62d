import { describe, expect, it } from 'vitest';
import {
  commissionCents,
  DEFAULT_MRR_MONTHS,
  DEFAULT_RETENTION_MONTHS,
  grossCents,
  retentionDueAt,
  splitPayout,
} from '../src/index.ts';

describe('grossCents', () => {
  it('pays a flat bounty its amount, cents rounded (an enabled bounty without a type is flat)', () => {
    expect(grossCents({ enabled: true, type: 'flat', amount: 250.55 }, null)).toBe(25_055);
    expect(grossCents({ enabled: true, amount: 100 }, null)).toBe(10_000);
  });

  it('pays percentage_arr of the deal value (cents), rounded half up once, and waits without one', () => {
    expect(grossCents({ enabled: true, type: 'percentage_arr', amount: 20 }, 1_000_000)).toBe(200_000);
    // 15% of $33,333.33 = $4,999.9995 -> $5,000.00
    expect(grossCents({ enabled: true, type: 'percentage_arr', amount: 15 }, 3_333_333)).toBe(500_000);
    // 12.5% of $0.99 = 12.375 cents -> 12; 2.5% of 1 cent = 0.025 -> 0
    expect(grossCents({ enabled: true, type: 'percentage_arr', amount: 12.5 }, 99)).toBe(12);
    expect(grossCents({ enabled: true, type: 'percentage_arr', amount: 2.5 }, 1)).toBe(0);
    // exact at the $10M ceiling and far above (no floating-point drift)
    expect(grossCents({ enabled: true, type: 'percentage_arr', amount: 33.33 }, 1_000_000_000)).toBe(333_300_000);
    expect(grossCents({ enabled: true, type: 'percentage_arr', amount: 0.01 }, 9_007_199_254_740_991)).toBe(
      900_719_925_474,
    );
    expect(grossCents({ enabled: true, type: 'percentage_arr', amount: 20 }, null)).toBeNull();
  });

  it('pays percentage_mrr of the monthly value for its months, as one total', () => {
    // 10% of $1,000 a month for 6 months.
    expect(grossCents({ enabled: true, type: 'percentage_mrr', amount: 10, months: 6 }, 1_200_000)).toBe(60_000);
    // 7% of ($1,000.01 / 12) for 5 months = 2916.695833… cents -> 2917
    expect(grossCents({ enabled: true, type: 'percentage_mrr', amount: 7, months: 5 }, 100_001)).toBe(2_917);
    expect(grossCents({ enabled: true, type: 'percentage_mrr', amount: 10, months: 6 }, null)).toBeNull();
  });

  it('counts 12 months for an MRR bounty without months, as the bounties form tells vendors', () => {
    expect(DEFAULT_MRR_MONTHS).toBe(12);
    expect(grossCents({ enabled: true, type: 'percentage_mrr', amount: 10 }, 1_200_000)).toBe(120_000);
  });
});

describe('splitPayout', () => {
  it('gives the referrer the Starter share (70%) rounded half up, the platform the rest', () => {
    expect(splitPayout(10_000)).toEqual({ referrer: 7_000, fee: 3_000 });
    expect(splitPayout(25_055)).toEqual({ referrer: 17_539, fee: 7_516 });
    expect(splitPayout(4_200)).toEqual({ referrer: 2_940, fee: 1_260 });
    for (const gross of [1, 3, 99, 12_345, 999_999]) {
      const { referrer, fee } = splitPayout(gross);
      expect(referrer + fee).toBe(gross);
    }
  });
});

describe('commissionCents', () => {
  it('pays nothing for a disabled bounty, a zero amount, or a percentage waiting for its deal value', () => {
    expect(commissionCents({ enabled: false, type: 'flat', amount: 999 }, null)).toBeNull();
    expect(commissionCents({ enabled: true, type: 'flat', amount: 0 }, null)).toBeNull();
    expect(commissionCents({ enabled: true, type: 'percentage_arr', amount: 5 }, null)).toBeNull();
    expect(commissionCents({ enabled: true, type: 'percentage_arr', amount: 5 }, 2_400_000)).toEqual({
      gross: 120_000,
      referrer: 84_000,
      fee: 36_000,
    });
  });
});

describe('retentionDueAt', () => {
  it("is the bonus's months after Closed-Won, a year when it names none", () => {
    const wonAt = new Date('2026-01-15T10:00:00Z');
    expect(retentionDueAt(wonAt, { enabled: true, type: 'flat', amount: 300, months: 3 })).toEqual(
      new Date('2026-04-15T10:00:00Z'),
    );
    expect(DEFAULT_RETENTION_MONTHS).toBe(12);
    expect(retentionDueAt(wonAt, { enabled: true, type: 'flat', amount: 300 })).toEqual(
      new Date('2027-01-15T10:00:00Z'),
    );
  });
});
