import type { User } from '@app/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryFetch } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/session';

/** GET /api/user: the signed-in user, or null when the session is missing (401). */
export function getUser(): Promise<User | null> {
  return queryFetch<User | null>(currentUserQueryKey[0], { on401: 'returnNull' });
}

export function getUserQueryOptions() {
  return queryOptions({ queryKey: currentUserQueryKey, queryFn: getUser });
}

export function useUser() {
  return useQuery(getUserQueryOptions());
}
