import type { User } from '@app/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { currentUserQueryKey } from '@/lib/session';
import { getUser } from './get-user';

function getUserQueryOptions() {
  return queryOptions({ queryKey: currentUserQueryKey, queryFn: getUser });
}

export function useUser() {
  // A session read that failed before the app started (`startSessionQuery`) is not asked again when the route
  // table mounts: the app reads the session once per page load, as when it started the read itself.
  return useQuery({ ...getUserQueryOptions(), retryOnMount: false });
}

/**
 * Puts a session read already under way (main.tsx reads it before the app's chunk has loaded) in the cache, as
 * if `useUser` had started it: a failed read is the query's error, as it would have been. Later reads (after
 * signing in or out) are `getUser` again, the function `useUser` gives the query.
 */
export function startSessionQuery(client: QueryClient, session: Promise<User | null>) {
  void client.prefetchQuery({ ...getUserQueryOptions(), queryFn: () => session });
}
