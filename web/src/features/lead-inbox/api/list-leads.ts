import { operations, type LeadState } from '@app/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call, membershipRetry, urlFor } from '@/lib/api-client';

const list = operations.listLeads;

/** Leads one inbox page shows; the page asks one more, to know whether older ones follow. */
export const LEADS_PAGE = 20;

/** Every lead list of a workspace (any status filter or page) starts with this key. */
export const leadsKey = (vendorId: string) => [urlFor(list, { params: { vendorId } })] as const;

export interface LeadsPage {
  status?: LeadState;
  /** The last lead of the page before (newest first): this page holds the leads older than it. */
  before?: number;
}

/** GET /api/vendors/{vendorId}/leads?limit=21[&status=][&before=]: newest first. */
export const listLeads = (vendorId: string, { status, before }: LeadsPage = {}) =>
  call(list, {
    params: { vendorId },
    query: { limit: LEADS_PAGE + 1, ...(status ? { status } : {}), ...(before ? { before } : {}) },
  });

export const leadsQueryOptions = (vendorId: string, page: LeadsPage = {}) => {
  const status = page.status ?? 'all';
  return queryOptions({
    queryKey: [...leadsKey(vendorId), status, page.before ?? 'newest'] as const,
    queryFn: () => listLeads(vendorId, page),
    // New leads arrive from referrers at any time: read again whenever the inbox opens.
    refetchOnMount: 'always',
    ...membershipRetry,
    // Turning a page keeps the page before on screen while the next is read; another filter does not.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === status ? previous : undefined),
  });
};

export const useLeads = (vendorId: string, page: LeadsPage = {}) => useQuery(leadsQueryOptions(vendorId, page));
