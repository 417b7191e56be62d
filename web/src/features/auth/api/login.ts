import { operations, type LoginRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/session';

/** POST /api/login with exactly {email, password}. */
export const login = ({ email, password }: LoginRequest) => call(operations.login, { body: { email, password } });

/** Resolves after the current user has been fetched again, so the new session is in the cache. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
  });
}
