import { operations, type RegisterRequest } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/session';

/** POST /api/register with exactly the five registration fields (the server rejects any other). */
export function register({ firstName, lastName, companyName, email, password }: RegisterRequest) {
  return call(operations.register, { body: { firstName, lastName, companyName, email, password } });
}

/** Registering signs the user in: the current user is fetched again before the mutation resolves. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
  });
}
