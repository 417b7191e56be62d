import { operations, type LeadCriteria, type LeadCriteriaInput } from '@app/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError } from '@/lib/api-client';

const get = operations.getLeadCriteria;
export const leadCriteriaKey = [get.path] as const;

/** GET /api/lead-criteria: the saved profile, or null when none was saved yet. */
export async function getLeadCriteria(): Promise<LeadCriteria | null> {
  try {
    return await call(get);
  } catch (error) {
    if (isApiError(error, 'LEAD_CRITERIA_NOT_FOUND')) return null;
    throw error;
  }
}

export const leadCriteriaQueryOptions = () => queryOptions({ queryKey: leadCriteriaKey, queryFn: getLeadCriteria });

export const useLeadCriteria = () => useQuery(leadCriteriaQueryOptions());

/** POST /api/lead-criteria: the eleven fields. */
export const saveLeadCriteria = (criteria: LeadCriteriaInput) => call(operations.saveLeadCriteria, { body: criteria });

export function useSaveLeadCriteria() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveLeadCriteria,
    onSuccess: (saved) => queryClient.setQueryData(leadCriteriaKey, saved),
  });
}
