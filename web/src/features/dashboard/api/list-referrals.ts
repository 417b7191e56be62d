import { operations, type ListReferralsQuery, type ReferralStatus } from '@app/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call, urlFor } from '@/lib/api-client';
import { referralListKey } from '@/lib/query-keys';

export type DateRange = '7' | '30' | '90' | 'all';

/** The dashboard filter bar (spec 9); '' means "all" for stage and company. */
export interface ReferralFilters {
  search: string;
  status: ReferralStatus | '';
  company: string;
  days: DateRange;
}

export const DEFAULT_FILTERS: ReferralFilters = { search: '', status: '', company: '', days: '90' };

export const DASHBOARD_PAGE_SIZE = 10;

/** The query of GET /api/referrals: only the filters in use, plus the range and the page. */
export function listReferralsQuery(
  filters: ReferralFilters,
  page: number,
  pageSize = DASHBOARD_PAGE_SIZE,
): ListReferralsQuery {
  const search = filters.search.trim();
  return {
    ...(search ? { search } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.company ? { company: filters.company } : {}),
    days: filters.days,
    page,
    pageSize,
  };
}

/** GET /api/referrals with the dashboard's filters, filtered and paged by the server. */
export const listReferrals = (query: ListReferralsQuery) => call(operations.listReferrals, { query });

export function listReferralsQueryOptions(filters: ReferralFilters, page: number, pageSize = DASHBOARD_PAGE_SIZE) {
  const query = listReferralsQuery(filters, page, pageSize);
  return queryOptions({
    queryKey: [...referralListKey, urlFor(operations.listReferrals, { query })] as const,
    queryFn: () => listReferrals(query),
    // Keep showing the previous page while the next filter or page loads.
    placeholderData: keepPreviousData,
  });
}

export function useReferralList(filters: ReferralFilters, page: number) {
  return useQuery(listReferralsQueryOptions(filters, page));
}
