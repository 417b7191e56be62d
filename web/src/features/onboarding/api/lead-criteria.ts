import type { LeadCriteria, LeadCriteriaInput } from '@app/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, queryFetch } from '@/lib/api-client';
import { errorStatus } from '@/lib/errors';

export const leadCriteriaKey = ['/api/lead-criteria'] as const;

/** GET /api/lead-criteria: the saved profile, or null when none was saved yet (404). */
export async function getLeadCriteria(): Promise<LeadCriteria | null> {
  try {
    return await queryFetch<LeadCriteria>(leadCriteriaKey[0]);
  } catch (error) {
    if (errorStatus(error) === 404) return null;
    throw error;
  }
}

export const leadCriteriaQueryOptions = () => queryOptions({ queryKey: leadCriteriaKey, queryFn: getLeadCriteria });

export const useLeadCriteria = () => useQuery(leadCriteriaQueryOptions());

/** POST /api/lead-criteria: the eleven fields. */
export function saveLeadCriteria(criteria: LeadCriteriaInput): Promise<LeadCriteria> {
  return apiRequest<LeadCriteria>('POST', leadCriteriaKey[0], criteria);
}

export function useSaveLeadCriteria() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveLeadCriteria,
    onSuccess: (saved) => queryClient.setQueryData(leadCriteriaKey, saved),
  });
}
