import { describe, expect, it } from 'vitest';
import { formatCents, MILESTONE_STAGES, milestoneLabel, parseDollarsToCents } from '../src/index.ts';

describe('money for people', () => {
  it('formats integer cents with the currency', () => {
    expect(formatCents(123_456)).toBe('$1,234.56');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(-2_940)).toBe('-$29.40');
    expect(formatCents(100_000, 'EUR')).toBe('€1,000.00');
  });

  it('reads typed dollars as cents without floating point, and refuses what is not an amount', () => {
    expect(parseDollarsToCents('12,500')).toBe(1_250_000);
    expect(parseDollarsToCents('$0.29')).toBe(29);
    expect(parseDollarsToCents(' 1.5 ')).toBe(150);
    expect(parseDollarsToCents('9999999999999.99')).toBe(999_999_999_999_999);
    for (const bad of ['', 'abc', '-5', '1.234', '1e6', '12.', '.5', 'NaN'])
      expect(parseDollarsToCents(bad)).toBeNull();
  });
});

describe('one stage model', () => {
  it('maps milestones to the spec stages and shows both names where they differ', () => {
    expect(MILESTONE_STAGES).toEqual({
      qualifiedLead: 'intro_made',
      meetingHeld: 'intro_occurred',
      opportunityCreated: 'intro_accepted',
      closedWon: 'became_customer',
    });
    expect(milestoneLabel('qualifiedLead')).toBe('Qualified Lead (Warm Intro)');
    expect(milestoneLabel('opportunityCreated')).toBe('Opportunity Created (Demo)');
    expect(milestoneLabel('closedWon')).toBe('Closed-Won');
    expect(milestoneLabel('retentionBonus')).toBe('Retention Bonus');
  });
});
