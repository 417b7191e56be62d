import { operations, type RegisterRequest } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/register with exactly the five registration fields (the server rejects any other). */
export function register({ firstName, lastName, companyName, email, password }: RegisterRequest) {
  return call(operations.register, { body: { firstName, lastName, companyName, email, password } });
}

/** Registering starts no session (the emailed link signs the user in), so there is no user to refetch. */
export function useRegister() {
  return useMutation({ mutationFn: register });
}
