import { QueryClient, notifyManager } from '@tanstack/react-query';
import { getQueryFn } from './http';

/** Spec 7/9: GET by URL key, no retries, never stale, no polling, no refetch on focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn(),
        retry: false,
        staleTime: Infinity,
        refetchInterval: false,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * Runs `fn` once the cache changes made so far have reached the components. The query cache notifies React
 * on its next tick; navigating before that would route with the previous session (e.g. a just-signed-out
 * user sent to /login would be bounced to / by the signed-in route table).
 */
export function afterCacheUpdates(fn: () => void): void {
  notifyManager.schedule(fn);
}
