import { z } from 'zod';
import { Bounties, LeadCriteria } from './profiles.ts';

/**
 * Every event that crosses a service boundary, named `entity.past_tense`, with its payload schema.
 * Producers write them to their outbox; consumers parse the payload with the same schema.
 */
export const events = {
  /** A new account was created (auth). */
  'user.registered': z.object({
    userId: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    companyName: z.string(),
  }),
  /**
   * A verification link must be mailed (auth, on register and on resend). The token is sealed with a key
   * derived from INTERNAL_SECRET so it is never readable in the outbox table or the stream.
   */
  'email_verification.requested': z.object({
    userId: z.string(),
    email: z.string(),
    firstName: z.string(),
    sealedToken: z.string(),
    expiresAt: z.iso.datetime(),
  }),
  /** A user's email address was verified (auth). */
  'user.email_verified': z.object({ userId: z.string(), email: z.string() }),
  /** A session ended before its expiry (auth): gateways drop it from their cache at once. */
  'session.ended': z.object({ sessionId: z.string() }),

  /** A referrer submitted a referral (referrals): the AI service drafts the intro email for it. */
  'referral.created': z.object({
    referralId: z.number().int(),
    referrer: z.object({
      userId: z.string(),
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      companyName: z.string(),
    }),
    referred: z.object({ firstName: z.string(), lastName: z.string(), email: z.string() }),
    reason: z.string(),
    isReferralAware: z.boolean(),
    canUseReferrerName: z.boolean(),
    project: z.object({
      id: z.string(),
      productName: z.string(),
      companyName: z.string(),
      description: z.string(),
      website: z.string().nullable(),
    }),
  }),
  /** An intro email draft is ready for a referral (ai, or the enrichment callback). */
  'referral.draft_generated': z.object({
    referralId: z.number().int(),
    subject: z.string(),
    body: z.string(),
    recipients: z.object({ to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()) }),
    source: z.enum(['llm', 'template', 'enrichment']),
  }),
  /** The referrer approved and sent the intro email (referrals): the mail service sends it once. */
  'referral.intro_email_requested': z.object({
    referralId: z.number().int(),
    fromName: z.string(),
    replyTo: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    subject: z.string(),
    body: z.string(),
  }),
  /** A referral moved to another stage (referrals). */
  'referral.status_changed': z.object({
    referralId: z.number().int(),
    userId: z.string(),
    projectId: z.string(),
    from: z.string(),
    to: z.string(),
    changedAt: z.iso.datetime(),
  }),

  /** A referral program was created or changed (programs): search, matching and program checks use it. */
  'program.saved': z.object({
    programId: z.string(),
    name: z.string(),
    description: z.string(),
    website: z.string(),
    rewardDetails: z.string(),
    companyName: z.string().nullable(),
    isActive: z.boolean(),
  }),
  /** A vendor saved its Ideal Customer Profile (profiles). */
  'lead_criteria.saved': z.object({ userId: z.string(), companyName: z.string(), criteria: LeadCriteria }),
  /** A vendor saved its bounties (profiles). */
  'bounties.saved': z.object({ userId: z.string(), companyName: z.string(), bounties: Bounties }),

  /** Someone asked for a demo (profiles): the mail service tells the sales team (SALES_EMAIL). */
  'demo_request.submitted': z.object({
    requestId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string(),
    website: z.string(),
    referralSource: z.string().nullable(),
  }),
  /** A user asked to change their email (auth): the link goes to the NEW address; sealed like verification. */
  'email_change.requested': z.object({
    userId: z.string(),
    newEmail: z.string(),
    firstName: z.string(),
    sealedToken: z.string(),
    expiresAt: z.iso.datetime(),
  }),
  /** A user's password changed (auth): a notice goes to their address. */
  'password.changed': z.object({ userId: z.string(), email: z.string(), firstName: z.string() }),
} as const;

export type EventName = keyof typeof events;
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>;

/** The envelope every transport carries. `id` is the de-duplication key end to end. */
export interface EventEnvelope<N extends EventName = EventName> {
  id: string;
  name: N;
  payload: EventPayload<N>;
  occurredAt: string;
  requestId?: string;
}
