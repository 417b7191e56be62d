import { operations, type Bounties } from '@app/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError } from '@/lib/api-client';

const get = operations.getBounties;
export const bountiesKey = [get.path] as const;

/** GET /api/bounties: the saved bounties, or null when none were saved yet. */
export async function getBounties(): Promise<Bounties | null> {
  try {
    return (await call(get)).bounties;
  } catch (error) {
    if (isApiError(error, 'BOUNTIES_NOT_FOUND')) return null;
    throw error;
  }
}

export const bountiesQueryOptions = () => queryOptions({ queryKey: bountiesKey, queryFn: getBounties });

export const useBounties = () => useQuery(bountiesQueryOptions());

/** POST /api/bounties: one entry per milestone ({enabled, type?, amount?, months?}). */
export const saveBounties = (bounties: Bounties) => call(operations.saveBounties, { body: bounties });

export function useSaveBounties() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBounties,
    onSuccess: (saved) => queryClient.setQueryData(bountiesKey, saved.bounties),
  });
}
