import type { Bounties } from '@app/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, queryFetch } from '@/lib/api-client';
import { errorStatus } from '@/lib/errors';

export const bountiesKey = ['/api/bounties'] as const;

interface SavedBounties {
  bounties: Bounties;
  updatedAt: string;
}

/** GET /api/bounties: the saved bounties, or null when none were saved yet (404). */
export async function getBounties(): Promise<Bounties | null> {
  try {
    return (await queryFetch<SavedBounties>(bountiesKey[0])).bounties;
  } catch (error) {
    if (errorStatus(error) === 404) return null;
    throw error;
  }
}

export const bountiesQueryOptions = () => queryOptions({ queryKey: bountiesKey, queryFn: getBounties });

export const useBounties = () => useQuery(bountiesQueryOptions());

/** POST /api/bounties: one entry per milestone ({enabled, type?, amount?, months?}). */
export function saveBounties(bounties: Bounties): Promise<SavedBounties> {
  return apiRequest<SavedBounties>('POST', bountiesKey[0], bounties);
}

export function useSaveBounties() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBounties,
    onSuccess: (saved) => queryClient.setQueryData(bountiesKey, saved.bounties),
  });
}
