import { operations, type Bounties } from '@app/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError, urlFor } from '@/lib/api-client';

const get = operations.getBounties;
const workspace = (vendorId?: string) => (vendorId ? { vendorId } : {});

/** One set of bounties per workspace: the key is the URL read, with `?vendorId=` when a workspace is named. */
export const bountiesKey = (vendorId?: string) => [urlFor(get, { query: workspace(vendorId) })] as const;

/** GET /api/bounties[?vendorId=]: the saved bounties, or null when none were saved yet. */
export async function getBounties(vendorId?: string): Promise<Bounties | null> {
  try {
    return (await call(get, { query: workspace(vendorId) })).bounties;
  } catch (error) {
    if (isApiError(error, 'BOUNTIES_NOT_FOUND')) return null;
    throw error;
  }
}

export const bountiesQueryOptions = (vendorId?: string) =>
  queryOptions({ queryKey: bountiesKey(vendorId), queryFn: () => getBounties(vendorId) });

export const useBounties = (vendorId?: string, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...bountiesQueryOptions(vendorId), enabled });

/** POST /api/bounties[?vendorId=]: one entry per milestone ({enabled, type?, amount?, months?}). */
export const saveBounties = (bounties: Bounties, vendorId?: string) =>
  call(operations.saveBounties, { query: workspace(vendorId), body: bounties });

export function useSaveBounties(vendorId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bounties: Bounties) => saveBounties(bounties, vendorId),
    onSuccess: (saved) => queryClient.setQueryData(bountiesKey(vendorId), saved.bounties),
  });
}
