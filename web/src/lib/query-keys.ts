import { operations } from '@app/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { urlFor } from './api-client';

/**
 * Query keys more than one feature touches. Keys start with the URL read (spec 7). The dashboard's list
 * queries are keyed ['/api/referrals', url]: invalidating this prefix marks every page and filter
 * combination out of date (e.g. after a new referral).
 */
export const referralListKey = [operations.listReferrals.path] as const;

/** One referral (the referral screens read it; the dashboard refreshes it after a status change). */
export const referralKey = (id: string | number) => [urlFor(operations.getReferral, { params: { id } })] as const;

/**
 * Every query whose figures money changes move: referrals (list and detail, each key starts with
 * '/api/referrals'), the impact summary, commissions (the referrer's, a vendor's, payouts due and payouts),
 * and the vendor's leads. Keys are URLs, so a prefix test on the first element finds them all.
 */
const MONEY_PREFIXES = [
  operations.listReferrals.path,
  operations.getImpact.path,
  operations.listCommissions.path,
  '/api/admin/payouts',
  '/api/admin/referrals',
];
const MONEY_PATTERN = /^\/api\/vendors\/[^/]+\/(leads|commissions)/;

export const isMoneyKey = (key: readonly unknown[]) => {
  const first = key[0];
  if (typeof first !== 'string') return false;
  return MONEY_PREFIXES.some((prefix) => first.startsWith(prefix)) || MONEY_PATTERN.test(first);
};

/** After every money mutation (confirm, reverse, payout, stage change): nothing stale stays on screen. */
export const invalidateMoney = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ predicate: (query) => isMoneyKey(query.queryKey) });
