import { operations } from '@app/contracts';
import { useQuery } from '@tanstack/react-query';
import { ApiError, call, urlFor } from '@/lib/api-client';
import { UNEXPECTED_RESPONSE_MESSAGE } from '@/lib/errors';

/** Spec 7/9: the submitted screen polls every 3 seconds. */
export const SUBMITTED_POLL_MS = 3_000;

const query = { checkOnly: 'true' } as const;

export const emailDraftCheckKey = (id: string | number) =>
  [urlFor(operations.getEmailDraft, { params: { id }, query })] as const;

/** GET /api/referrals/{id}/email-draft?checkOnly=true: whether the draft is ready, and where it came from. */
export async function checkEmailDraft(id: string | number) {
  const answer = await call(operations.getEmailDraft, { params: { id }, query });
  if (!('ready' in answer)) {
    throw new ApiError({ status: 200, code: 'UNEXPECTED_RESPONSE', message: UNEXPECTED_RESPONSE_MESSAGE });
  }
  return answer;
}

/** Polled every 3 s until the draft is ready. */
export function useEmailDraftCheck(id: string | number) {
  return useQuery({
    queryKey: emailDraftCheckKey(id),
    queryFn: () => checkEmailDraft(id),
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.ready ? false : SUBMITTED_POLL_MS),
  });
}
