import { operations, type LeadCriteria, type LeadCriteriaInput } from '@app/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError, urlFor } from '@/lib/api-client';

const get = operations.getLeadCriteria;
const workspace = (vendorId?: string) => (vendorId ? { vendorId } : {});

/** One profile per workspace: the key is the URL read, with `?vendorId=` when a workspace is named. */
export const leadCriteriaKey = (vendorId?: string) => [urlFor(get, { query: workspace(vendorId) })] as const;

/** GET /api/lead-criteria[?vendorId=]: the saved profile, or null when none was saved yet. */
export async function getLeadCriteria(vendorId?: string): Promise<LeadCriteria | null> {
  try {
    return await call(get, { query: workspace(vendorId) });
  } catch (error) {
    if (isApiError(error, 'LEAD_CRITERIA_NOT_FOUND')) return null;
    throw error;
  }
}

export const leadCriteriaQueryOptions = (vendorId?: string) =>
  queryOptions({ queryKey: leadCriteriaKey(vendorId), queryFn: () => getLeadCriteria(vendorId) });

export const useLeadCriteria = (vendorId?: string, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...leadCriteriaQueryOptions(vendorId), enabled });

/** POST /api/lead-criteria[?vendorId=]: the eleven fields, for the workspace named (or the user's only one). */
export const saveLeadCriteria = (criteria: LeadCriteriaInput, vendorId?: string) =>
  call(operations.saveLeadCriteria, { query: workspace(vendorId), body: criteria });

export function useSaveLeadCriteria(vendorId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (criteria: LeadCriteriaInput) => saveLeadCriteria(criteria, vendorId),
    onSuccess: (saved) => queryClient.setQueryData(leadCriteriaKey(vendorId), saved),
  });
}
