import { describe, expect, it } from 'vitest';
import {
  commissionCents,
  DEFAULT_MRR_MONTHS,
  DEFAULT_RETENTION_MONTHS,
  grossCents,
  retentionDueAt,
  splitPayout,
  termsOf,
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

describe('termsOf', () => {
  const flat = (amount: number) => ({ enabled: true, type: 'flat' as const, amount });
  const arr = (amount: number) => ({ enabled: true, type: 'percentage_arr' as const, amount });
  const mrr = (amount: number, months: number) => ({ enabled: true, type: 'percentage_mrr' as const, amount, months });

  it('keeps the terms at referral when the vendor lowers or disables the bounty, takes a raise', () => {
    expect(termsOf(flat(500), flat(1), null)).toEqual(flat(500));
    expect(termsOf(flat(500), { enabled: false }, null)).toEqual(flat(500));
    expect(termsOf(flat(500), undefined, null)).toEqual(flat(500));
    expect(termsOf(flat(500), flat(750), null)).toEqual(flat(750));
    expect(termsOf(arr(10), arr(1), 1_000_000)).toEqual(arr(10));
    expect(termsOf(arr(1), arr(10), 1_000_000)).toEqual(arr(10));
  });

  it("takes the bounty the referral was made without, and today's on a tie", () => {
    expect(termsOf(undefined, flat(100), null)).toEqual(flat(100));
    expect(termsOf({ enabled: false }, arr(5), null)).toEqual(arr(5));
    const today = { ...flat(100) };
    expect(termsOf(flat(100), today, null)).toBe(today);
    expect(termsOf(undefined, undefined, null)).toBeUndefined();
  });

  it('compares flat and percentage terms at the deal value known', () => {
    // 10% of $4,000 = $400 < $500 flat; 10% of $6,000 = $600 > $500.
    expect(termsOf(flat(500), arr(10), 400_000)).toEqual(flat(500));
    expect(termsOf(flat(500), arr(10), 600_000)).toEqual(arr(10));
    expect(termsOf(arr(10), flat(500), 600_000)).toEqual(arr(10));
    // Without a deal value a percentage pays nothing yet: the flat amount is what a confirmation would pay.
    expect(termsOf(arr(10), flat(500), null)).toEqual(flat(500));
    // 6% of MRR for 24 months = 12% of the deal > 10% of ARR, whatever the deal, known or not.
    expect(termsOf(arr(10), mrr(6, 24), null)).toEqual(mrr(6, 24));
    expect(termsOf(mrr(6, 24), arr(10), 1_234_567)).toEqual(mrr(6, 24));
    expect(termsOf(mrr(6, 24), arr(13), null)).toEqual(arr(13));
  });

  it('a percentage that pays nothing yet still beats a disabled bounty or a flat one of nothing', () => {
    expect(termsOf(arr(10), { enabled: false }, null)).toEqual(arr(10));
    expect(termsOf(arr(10), flat(0), null)).toEqual(arr(10));
    expect(termsOf(flat(0), { enabled: false }, null)).toEqual(flat(0));
  });
});
