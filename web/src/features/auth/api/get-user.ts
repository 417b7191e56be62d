import type { User } from '@app/contracts';
import { ApiError, request } from '@/lib/http';
import { currentUserQueryKey } from '@/lib/session';

/**
 * GET /api/user: the signed-in user, or null without a session (401, spec 4). The session is read from the
 * entry chunk (main.tsx), which holds no zod (CSP, landing page budget) and no TanStack Query (`use-user.ts`
 * puts this read in the query cache): the contract's parse is a chunk of its own (zod's jitless config first),
 * loaded only for a signed-in answer.
 */
export async function getUser(): Promise<User | null> {
  const answer = await request('GET', currentUserQueryKey[0]).catch((error: unknown) => {
    // Spec 4: a 401 means nobody is signed in (UNAUTHENTICATED from the gateway, or any answer without a code).
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  });
  if (!answer) return null;
  const { parseUser } = await import('./parse-user');
  return parseUser(answer.data, answer.status);
}
