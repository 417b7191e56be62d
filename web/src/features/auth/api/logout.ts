import { operations } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/session';

/** POST /api/logout. */
export const logout = () => call(operations.logout);

/**
 * Ends the session, then forgets the user and every other cached answer (they belonged to that user).
 * A failure is only logged: the user stays signed in (spec 4 and 8).
 */
export function useLogout({ onLoggedOut }: { onLoggedOut?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserQueryKey[0] });
      queryClient.setQueryData(currentUserQueryKey, null);
      onLoggedOut?.();
    },
    onError: (error) => {
      console.error('Logout failed:', error);
    },
  });
}
