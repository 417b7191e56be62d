import type { ReferralList, ReferralStatus } from '@app/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryFetch } from '@/lib/api-client';
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

/** The query string of GET /api/referrals: only the filters in use, plus the range and the page. */
export function listReferralsParams(
  filters: ReferralFilters,
  page: number,
  pageSize = DASHBOARD_PAGE_SIZE,
): URLSearchParams {
  const params = new URLSearchParams();
  const search = filters.search.trim();
  if (search) params.set('search', search);
  if (filters.status) params.set('status', filters.status);
  if (filters.company) params.set('company', filters.company);
  params.set('days', filters.days);
  params.set('page', String(page));
  params.set('pageSize', String(pageSize));
  return params;
}

export function listReferralsQueryOptions(filters: ReferralFilters, page: number, pageSize = DASHBOARD_PAGE_SIZE) {
  const params = listReferralsParams(filters, page, pageSize);
  return queryOptions({
    queryKey: [...referralListKey, params.toString()] as const,
    queryFn: () => queryFetch<ReferralList>(`${referralListKey[0]}?${params.toString()}`),
    // Keep showing the previous page while the next filter or page loads.
    placeholderData: keepPreviousData,
  });
}

/** GET /api/referrals with the dashboard's filters, filtered and paged by the server. */
export function useReferralList(filters: ReferralFilters, page: number) {
  return useQuery(listReferralsQueryOptions(filters, page));
}
