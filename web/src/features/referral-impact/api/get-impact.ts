import type { Commission, ImpactQuery, ImpactSummary } from '@app/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryFetch } from '@/lib/api-client';

/** The Filters panel: '' means "not narrowed". Dates are YYYY-MM-DD (the date inputs' own format). */
export interface ImpactFilters {
  from: string;
  to: string;
  partner: string;
}

export const NO_FILTERS: ImpactFilters = { from: '', to: '', partner: '' };

/** The query string shared by GET /api/referral-impact and GET /api/commissions: only the filters in use. */
export function impactParams(filters: ImpactFilters): URLSearchParams {
  const query: ImpactQuery = {};
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  if (filters.partner.trim()) query.partner = filters.partner.trim();
  return new URLSearchParams(query as Record<string, string>);
}

const withQuery = (path: string, params: URLSearchParams) => (params.size > 0 ? `${path}?${params.toString()}` : path);

export function impactQueryOptions(filters: ImpactFilters) {
  const url = withQuery('/api/referral-impact', impactParams(filters));
  return queryOptions({
    queryKey: [url] as const,
    queryFn: () => queryFetch<ImpactSummary>(url),
    // Keep the figures on screen while a new filter loads; the skeletons are for the first load only.
    placeholderData: keepPreviousData,
  });
}

/** GET /api/referral-impact with the filters. */
export function useImpactSummary(filters: ImpactFilters) {
  return useQuery(impactQueryOptions(filters));
}

/** GET /api/commissions with the same filters (read when Download CSV is pressed, always fresh). */
export function fetchCommissions(filters: ImpactFilters): Promise<Commission[]> {
  return queryFetch<Commission[]>(withQuery('/api/commissions', impactParams(filters)));
}
