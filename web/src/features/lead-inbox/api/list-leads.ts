import { operations, type LeadStatus } from '@app/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call, urlFor } from '@/lib/api-client';

const list = operations.listLeads;

/** Every lead list of a workspace (any status filter) starts with this key. */
export const leadsKey = (vendorId: string) => [urlFor(list, { params: { vendorId } })] as const;

/** GET /api/vendors/{vendorId}/leads[?status=]: newest first. */
export const listLeads = (vendorId: string, status?: LeadStatus) =>
  call(list, { params: { vendorId }, query: status ? { status } : {} });

export const leadsQueryOptions = (vendorId: string, status?: LeadStatus) =>
  queryOptions({
    queryKey: [...leadsKey(vendorId), status ?? 'all'] as const,
    queryFn: () => listLeads(vendorId, status),
    // New leads arrive from referrers at any time: read again whenever the inbox opens.
    refetchOnMount: 'always',
  });

export const useLeads = (vendorId: string, status?: LeadStatus) => useQuery(leadsQueryOptions(vendorId, status));
