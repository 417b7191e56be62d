import { useQuery } from '@tanstack/react-query';
import { queryFetch } from '@/lib/api-client';
import { referralPath } from './keys';

export interface EmailDraftCheck {
  ready: boolean;
  fromClay: boolean;
}

/** Spec 7/9: the submitted screen polls every 3 seconds. */
export const SUBMITTED_POLL_MS = 3_000;

export const emailDraftCheckKey = (id: string | number) => [`${referralPath(id)}/email-draft?checkOnly=true`] as const;

/** GET /api/referrals/{id}/email-draft?checkOnly=true, polled every 3 s until the draft is ready. */
export function useEmailDraftCheck(id: string | number) {
  return useQuery({
    queryKey: emailDraftCheckKey(id),
    queryFn: () => queryFetch<EmailDraftCheck>(emailDraftCheckKey(id)[0]),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.ready ? false : SUBMITTED_POLL_MS),
  });
}
