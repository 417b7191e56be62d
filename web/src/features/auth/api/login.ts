import type { AuthResponse, LoginRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/session';

/** POST /api/login with exactly {email, password}. */
export function login(data: LoginRequest): Promise<AuthResponse> {
  return apiRequest<AuthResponse>('POST', '/api/login', { email: data.email, password: data.password });
}

/** Resolves after the current user has been fetched again, so the new session is in the cache. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
  });
}
