import { operations, type ImpactQuery } from '@app/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call, urlFor } from '@/lib/api-client';

/** The Filters panel: '' means "not narrowed". Dates are YYYY-MM-DD (the date inputs' own format). */
export interface ImpactFilters {
  from: string;
  to: string;
  partner: string;
}

export const NO_FILTERS: ImpactFilters = { from: '', to: '', partner: '' };

/** The query shared by GET /api/referral-impact and GET /api/commissions: only the filters in use. */
export function impactQuery(filters: ImpactFilters): ImpactQuery {
  const query: ImpactQuery = {};
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  if (filters.partner.trim()) query.partner = filters.partner.trim();
  return query;
}

/** GET /api/referral-impact with the filters. */
export const getImpact = (filters: ImpactFilters) => call(operations.getImpact, { query: impactQuery(filters) });

export function impactQueryOptions(filters: ImpactFilters) {
  return queryOptions({
    queryKey: [urlFor(operations.getImpact, { query: impactQuery(filters) })] as const,
    queryFn: () => getImpact(filters),
    // Keep the figures on screen while a new filter loads; the skeletons are for the first load only.
    placeholderData: keepPreviousData,
  });
}

export function useImpactSummary(filters: ImpactFilters) {
  return useQuery(impactQueryOptions(filters));
}

/** GET /api/commissions with the same filters (read when Download CSV is pressed, always fresh). */
export const fetchCommissions = (filters: ImpactFilters) =>
  call(operations.listCommissions, { query: impactQuery(filters) });
