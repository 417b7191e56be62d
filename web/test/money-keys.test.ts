import { describe, expect, it } from 'vitest';
import { isMoneyKey } from '@/lib/query-keys';

describe('money query keys (issue 10)', () => {
  it('every money mutation refreshes referrals, impact, commissions, leads and payouts', () => {
    for (const key of [
      ['/api/referrals', '/api/referrals?page=1'],
      ['/api/referrals/7'],
      ['/api/referral-impact?from=2026-01-01'],
      ['/api/commissions'],
      ['/api/vendors/v-acme/leads', 'all'],
      ['/api/vendors/v-acme/commissions'],
      ['/api/admin/payouts/due'],
      ['/api/admin/payouts'],
    ])
      expect(isMoneyKey(key)).toBe(true);
    for (const key of [['/api/user'], ['/api/vendors/mine'], ['/api/vendors/v-acme/webhooks'], [42]])
      expect(isMoneyKey(key)).toBe(false);
  });
});
