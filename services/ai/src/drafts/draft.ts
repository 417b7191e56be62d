import type { EventPayload } from '@app/contracts';

export type NewReferral = EventPayload<'referral.created'>;
export type Draft = EventPayload<'referral.draft_generated'>;

/** What a writer of intro emails produces; recipients are never left to a writer (see recipientsFor). */
export interface DraftText {
  subject: string;
  body: string;
}

export const SUBJECT_MAX = 300;
export const BODY_MAX = 20_000;

/**
 * To the referred person. The referrer gets a copy: in Cc when their name may be used, else in Bcc, so an
 * intro that keeps the referrer anonymous does not show their address to the recipient.
 */
export function recipientsFor(referral: NewReferral): Draft['recipients'] {
  const to = [referral.referred.email];
  const copy =
    referral.referrer.email.toLowerCase() === referral.referred.email.toLowerCase() ? [] : [referral.referrer.email];
  return referral.canUseReferrerName ? { to, cc: copy, bcc: [] } : { to, cc: [], bcc: copy };
}
