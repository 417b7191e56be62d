import { operations, type UserIntent } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/session';

/** PUT /api/user/intent: what the user came for (issue 12). */
export const setIntent = (intent: UserIntent) => call(operations.setIntent, { body: { intent } });

/** The answer is the user with the choice: the session's user is replaced with it. */
export function useSetIntent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setIntent,
    onSuccess: (user) => queryClient.setQueryData(currentUserQueryKey, user),
  });
}
