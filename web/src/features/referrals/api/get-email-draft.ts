import { operations } from '@app/contracts';
import { useQuery } from '@tanstack/react-query';
import { ApiError, call, isApiError, urlFor } from '@/lib/api-client';

/** Spec 7/9: the draft screen polls every 5 seconds while the draft is not ready. */
export const DRAFT_POLL_MS = 5_000;

/** Spec 8: the draft answer did not have the shape of spec 3 (subject, body, recipients). */
export const UNEXPECTED_DRAFT = 'Email draft data is missing or in an unexpected format';

export const emailDraftKey = (id: string | number) => [urlFor(operations.getEmailDraft, { params: { id } })] as const;

/** The draft is still being written: the screen says so and reads it again. */
export const isDraftNotReady = (error: unknown) => isApiError(error, 'DRAFT_NOT_READY');

const unexpectedDraft = () => new ApiError({ status: 200, code: 'UNEXPECTED_RESPONSE', message: UNEXPECTED_DRAFT });

/** GET /api/referrals/{id}/email-draft: the draft, recipients normalized to lists (array, JSON or comma text). */
export async function getEmailDraft(id: string | number) {
  let answer;
  try {
    answer = await call(operations.getEmailDraft, { params: { id } });
  } catch (error) {
    throw isApiError(error, 'UNEXPECTED_RESPONSE') ? unexpectedDraft() : error;
  }
  // The operation also answers the readiness check; without checkOnly the draft must be there.
  if (!('emailDraft' in answer)) throw unexpectedDraft();
  return answer;
}

export function useEmailDraft(id: string | number, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: emailDraftKey(id),
    queryFn: () => getEmailDraft(id),
    enabled: options.enabled ?? true,
    refetchInterval: (query) => (isDraftNotReady(query.state.error) ? DRAFT_POLL_MS : false),
  });
}
