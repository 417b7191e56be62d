import { z } from 'zod';
import type { ServiceName } from './operation.ts';
import { Bounties, LeadCriteria, MILESTONES } from './profiles.ts';
import { REFERRAL_STATUSES } from './referrals.ts';
import { VendorRole } from './vendors.ts';

/** A lead told to its vendor's team (a new one, a withdrawn one): who referred which client for what. */
const TeamLeadNotice = z.object({
  referralId: z.number().int(),
  vendorId: z.string(),
  vendorName: z.string(),
  /** The lead inbox and every member, de-duplicated. */
  recipients: z.array(z.string()),
  referrerName: z.string(),
  clientName: z.string(),
  productName: z.string(),
});

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
    /** The vendor workspace the program belongs to (null until an administrator links it). */
    vendorId: z.string().nullable(),
    /** A display and matching hint only; the vendor is `vendorId`. */
    companyName: z.string().nullable(),
    isActive: z.boolean(),
  }),

  /**
   * A vendor workspace was created or changed (profiles): the whole state, so every consumer keeps a copy.
   * `version` grows with each change: a consumer ignores a version older than the one it has.
   */
  'vendor.saved': z.object({
    vendorId: z.string(),
    version: z.number().int(),
    name: z.string(),
    domain: z.string(),
    /** companyKey(name): only a matching hint. */
    companyKey: z.string(),
    leadInbox: z.string(),
    verified: z.boolean(),
    members: z.array(z.object({ userId: z.string(), email: z.string(), name: z.string(), role: VendorRole })),
  }),
  /** A verified vendor's members saved its Ideal Customer Profile (profiles). */
  'lead_criteria.saved': z.object({ vendorId: z.string(), version: z.number().int(), criteria: LeadCriteria }),
  /** A verified vendor's members saved its bounties (profiles). */
  'bounties.saved': z.object({ vendorId: z.string(), version: z.number().int(), bounties: Bounties }),
  /** Someone was invited to a vendor workspace (profiles): the mail service tells them. */
  'vendor_invitation.created': z.object({
    invitationId: z.string(),
    vendorId: z.string(),
    vendorName: z.string(),
    email: z.string(),
    invitedByName: z.string(),
  }),

  /** A referral was routed to a vendor on the platform (referrals): the lead inbox and members are emailed. */
  'lead.created': TeamLeadNotice,
  /** The vendor accepted a lead (referrals): the referrer is emailed. */
  'lead.accepted': z.object({
    referralId: z.number().int(),
    vendorName: z.string(),
    referrerEmail: z.string(),
    referrerFirstName: z.string(),
    clientName: z.string(),
    productName: z.string(),
  }),
  /** The vendor declined a lead, with the reason the referrer sees (referrals): the referrer is emailed. */
  'lead.declined': z.object({
    referralId: z.number().int(),
    vendorName: z.string(),
    referrerEmail: z.string(),
    referrerFirstName: z.string(),
    clientName: z.string(),
    productName: z.string(),
    reason: z.string(),
  }),

  /**
   * A lead moved (referrals): the referrer's stage change, a milestone the vendor confirmed, the vendor's
   * decision, a withdrawal or a reversal. Vendors' CRM webhooks receive it (profiles).
   */
  'lead.status_changed': z.object({
    referralId: z.number().int(),
    vendorId: z.string(),
    /** The referral's stage after the change, and before it. */
    stage: z.enum(REFERRAL_STATUSES),
    previousStage: z.enum(REFERRAL_STATUSES).nullable(),
    /** What happened: stage_changed, accepted, declined, withdrawn, milestone_confirmed, deal_reversed. */
    change: z.string(),
    milestone: z.enum(MILESTONES).nullable(),
    changedAt: z.iso.datetime(),
  }),
  /** A confirmed milestone earned a commission (referrals): webhooks and the referrer's email. */
  'commission.created': z.object({
    commissionId: z.string(),
    referralId: z.number().int(),
    vendorId: z.string().nullable(),
    vendorName: z.string(),
    milestone: z.enum(MILESTONES),
    currency: z.string(),
    grossCents: z.number().int(),
    referrerCents: z.number().int(),
    referrerEmail: z.string(),
    referrerFirstName: z.string(),
    clientName: z.string(),
    /** Who confirmed the milestone: a member of the vendor, or an administrator on its behalf. */
    confirmedBy: z.enum(['vendor', 'admin']).optional(),
    createdAt: z.iso.datetime(),
  }),
  /** The referrer asked the vendor to confirm a milestone (referrals): the lead inbox and members are emailed. */
  'milestone.confirmation_requested': z.object({
    referralId: z.number().int(),
    vendorId: z.string(),
    vendorName: z.string(),
    recipients: z.array(z.string()),
    milestone: z.enum(MILESTONES),
    referrerName: z.string(),
    clientName: z.string(),
    productName: z.string(),
    message: z.string(),
  }),
  /** The referrer withdrew a referral routed to a vendor (referrals): the lead inbox and members are emailed. */
  'lead.withdrawn': TeamLeadNotice,
  /**
   * The vendor or an administrator reversed a deal (referrals): its unpaid commissions were reversed, and the
   * referrer is emailed what they lost and why.
   */
  'commissions.reversed': z.object({
    referralId: z.number().int(),
    vendorId: z.string().nullable(),
    vendorName: z.string(),
    clientName: z.string(),
    referrerEmail: z.string(),
    referrerFirstName: z.string(),
    reversedBy: z.enum(['vendor', 'admin']),
    reason: z.string(),
    milestones: z.array(z.enum(MILESTONES)),
    currency: z.string(),
    /** The referrer's share of the reversed commissions, in cents. */
    referrerCents: z.number().int(),
    reversedAt: z.iso.datetime(),
  }),
  /** An administrator recorded a payout batch (referrals): each referrer paid is emailed their lines. */
  'payout.recorded': z.object({
    payoutId: z.string(),
    reference: z.string(),
    method: z.string(),
    paidOn: z.iso.date(),
    currency: z.string(),
    referrers: z.array(
      z.object({
        userId: z.string(),
        email: z.string(),
        firstName: z.string(),
        totalCents: z.number().int(),
        commissions: z.number().int(),
      }),
    ),
  }),

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
  /**
   * Someone tried to register an address that already has an account (auth): the sign-up answered as for a
   * new one, and the account's owner is told instead.
   */
  'user.sign_up_attempted': z.object({ userId: z.string(), email: z.string(), firstName: z.string() }),
  /**
   * Someone asked to move another account to an address that already has one (auth): the request answered as
   * for a free address, and this address's owner is told instead (no link: nothing can change).
   */
  'email_change.taken_notice_requested': z.object({ userId: z.string(), email: z.string(), firstName: z.string() }),
  /** An email change was requested (auth): a notice goes to the CURRENT (old) address. */
  'email_change.notice_requested': z.object({
    userId: z.string(),
    email: z.string(),
    newEmail: z.string(),
    firstName: z.string(),
  }),
  /** A user's address changed (auth, the new one confirmed): the old address is told; copies of it follow. */
  'user.email_changed': z.object({
    userId: z.string(),
    oldEmail: z.string(),
    newEmail: z.string(),
    firstName: z.string(),
  }),
} as const;

export type EventName = keyof typeof events;

/**
 * The one service that publishes each event. NATS lets each service publish only its own
 * (`npm run deploy:generate` writes the permissions from this map and the subscribers), and a test checks that
 * no service emits an event it does not own.
 */
export const EVENT_PRODUCERS: Record<EventName, ServiceName> = {
  'user.registered': 'auth',
  'email_verification.requested': 'auth',
  'user.email_verified': 'auth',
  'session.ended': 'auth',
  'email_change.requested': 'auth',
  'password.changed': 'auth',
  'referral.created': 'referrals',
  'referral.draft_generated': 'ai',
  'referral.intro_email_requested': 'referrals',
  'referral.status_changed': 'referrals',
  'lead.created': 'referrals',
  'lead.accepted': 'referrals',
  'lead.declined': 'referrals',
  'lead.status_changed': 'referrals',
  'commission.created': 'referrals',
  'milestone.confirmation_requested': 'referrals',
  'lead.withdrawn': 'referrals',
  'commissions.reversed': 'referrals',
  'payout.recorded': 'referrals',
  'program.saved': 'programs',
  'vendor.saved': 'profiles',
  'lead_criteria.saved': 'profiles',
  'bounties.saved': 'profiles',
  'vendor_invitation.created': 'profiles',
  'demo_request.submitted': 'profiles',
  'user.sign_up_attempted': 'auth',
  'email_change.notice_requested': 'auth',
  'email_change.taken_notice_requested': 'auth',
  'user.email_changed': 'auth',
};
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>;

/** The envelope every transport carries. `id` is the de-duplication key end to end. */
export interface EventEnvelope<N extends EventName = EventName> {
  id: string;
  name: N;
  payload: EventPayload<N>;
  occurredAt: string;
  requestId?: string;
}
