import type { AuthResponse, RegisterRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/session';

/** POST /api/register with exactly the five registration fields (the server rejects any other). */
export function register(data: RegisterRequest): Promise<AuthResponse> {
  const { firstName, lastName, companyName, email, password } = data;
  return apiRequest<AuthResponse>('POST', '/api/register', { firstName, lastName, companyName, email, password });
}

/** Registering signs the user in: the current user is fetched again before the mutation resolves. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
  });
}
