import { EmailDraftResponse } from '@app/contracts';
import type { z } from 'zod';
import { useQuery } from '@tanstack/react-query';
import { ApiError, queryFetch } from '@/lib/api-client';
import { serverMessage } from '@/lib/errors';
import { referralPath } from './keys';

export type EmailDraftAnswer = z.output<typeof EmailDraftResponse>;

/** Spec 7/9: the draft screen polls every 5 seconds while the draft is not ready. */
export const DRAFT_POLL_MS = 5_000;

export const UNEXPECTED_DRAFT = 'Email draft data is missing or in an unexpected format';

/** The draft answer did not have the shape of spec 3 (subject, body, recipients). */
export class UnexpectedDraftError extends Error {
  constructor() {
    super(UNEXPECTED_DRAFT);
    this.name = 'UnexpectedDraftError';
  }
}

export const emailDraftKey = (id: string | number) => [`${referralPath(id)}/email-draft`] as const;

/** 404 'Email draft not found': the draft is still being written. */
export const isDraftNotReady = (error: unknown) =>
  error instanceof ApiError && error.status === 404 && serverMessage(error) !== 'Referral not found';

/** GET /api/referrals/{id}/email-draft: recipients normalized to lists (array, JSON string or comma text). */
export async function getEmailDraft(id: string | number): Promise<EmailDraftAnswer> {
  const answer = await queryFetch<unknown>(emailDraftKey(id)[0]);
  const parsed = EmailDraftResponse.safeParse(answer);
  if (!parsed.success) throw new UnexpectedDraftError();
  return parsed.data;
}

export function useEmailDraft(id: string | number, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: emailDraftKey(id),
    queryFn: () => getEmailDraft(id),
    enabled: options.enabled ?? true,
    refetchInterval: (query) => (isDraftNotReady(query.state.error) ? DRAFT_POLL_MS : false),
  });
}
