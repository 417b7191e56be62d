import { z } from 'zod';
import { text } from './common.ts';
import { Bounty, MILESTONES } from './profiles.ts';

/**
 * Money (issue 10): every amount is an integer number of cents in the one currency the platform runs in
 * (the CURRENCY setting, answered with each figure); no floating-point money anywhere.
 *
 * Milestones that earn money are confirmed by the vendor (a member of the verified workspace) or recorded
 * by an administrator on the vendor's behalf, with a note. A confirmation creates the commission from the
 * vendor's bounties at that moment; every change of a commission is an append-only ledger entry, and
 * every total is computed from the ledger.
 */

export const MilestoneName = z.enum(MILESTONES, { error: 'Unknown milestone' });

/**
 * A deal value in cents: a whole, positive number. The ceiling is a setting (DEAL_VALUE_MAX_CENTS, by
 * default $10,000,000); above it the service answers DEAL_VALUE_TOO_LARGE.
 */
export const DealValueCents = z
  .number({ error: 'Deal value must be a number' })
  .int('Deal value must be a whole number of cents')
  .positive('Deal value must be positive')
  .max(Number.MAX_SAFE_INTEGER, 'Deal value is too large');

const note = (label: string, max: number) => text({ label, max, multiline: true });

/**
 * POST /api/vendors/{vendorId}/leads/{referralId}/milestones: a vendor member confirms a milestone.
 * opportunityCreated needs the expected deal value, closedWon the actual one (first-year ARR in cents);
 * the others take none.
 */
export const ConfirmMilestoneRequest = z.strictObject({
  milestone: MilestoneName,
  dealValueCents: DealValueCents.optional(),
  note: note('Note', 1000).optional(),
});
export type ConfirmMilestoneRequest = z.input<typeof ConfirmMilestoneRequest>;

/** POST /api/admin/referrals/{id}/milestones: an administrator records a milestone for the vendor; the note is required (audited). */
export const AdminConfirmMilestoneRequest = ConfirmMilestoneRequest.extend({
  note: text({ label: 'Note', max: 1000, multiline: true, required: 'Please say why you record this for the vendor' }),
});
export type AdminConfirmMilestoneRequest = z.input<typeof AdminConfirmMilestoneRequest>;

/** PUT /api/vendors/{vendorId}/leads/{referralId}/expected-value: the vendor's expected deal value (pipeline). */
export const ExpectedValueRequest = z.strictObject({ expectedValueCents: DealValueCents });

/** POST …/reverse: the deal fell through; every unpaid commission of the referral is reversed. */
export const ReverseDealRequest = z.strictObject({
  reason: text({ label: 'Reason', max: 1000, multiline: true, required: 'Please say why the deal is reversed' }),
});

/** POST /api/referrals/{id}/confirmation-requests: the referrer asks the vendor to confirm a milestone. */
export const ConfirmationRequest = z.strictObject({
  milestone: MilestoneName,
  message: note('Message', 1000).default(''),
});
export type ConfirmationRequest = z.input<typeof ConfirmationRequest>;

export const MILESTONE_STATES = ['open', 'requested', 'confirmed', 'reversed'] as const;

/** Where one bounty milestone of a referral stands, as the referrer, the vendor and administrators see it. */
export const MilestoneState = z.object({
  milestone: MilestoneName,
  /** Whether the vendor's bounty for it is enabled (a milestone without one can still be confirmed). */
  bountyEnabled: z.boolean(),
  /**
   * The bounty it pays by, in words ("$500 flat", "10% of first-year ARR"), or null when none: open, the better
   * of termsAtReferral and termsNow at the deal value known; confirmed, the terms it was confirmed under.
   */
  bounty: z.string().nullable(),
  /**
   * Open milestones: the vendor's bounty for it when the referral was made, and today's (null: none). A
   * confirmation pays the better of the two at the deal value it gives (termsOf of @app/domain). Null once
   * confirmed.
   */
  termsAtReferral: Bounty.nullable(),
  termsNow: Bounty.nullable(),
  state: z.enum(MILESTONE_STATES),
  /** When the referrer last asked the vendor to confirm it. */
  requestedAt: z.iso.datetime().nullable(),
  confirmedAt: z.iso.datetime().nullable(),
  /** 'vendor' (a workspace member) or 'admin' (recorded on the vendor's behalf). */
  confirmedBy: z.enum(['vendor', 'admin']).nullable(),
  /** Retention only: the date from which it can be confirmed (its months after Closed-Won), once known. */
  dueAt: z.iso.datetime().nullable(),
});
export type MilestoneState = z.infer<typeof MilestoneState>;

/**
 * A commission's state, from its ledger: in_escrow once earned, paid once a payout included it, reversed
 * when the deal fell through before it was paid.
 */
export const COMMISSION_STATES = ['in_escrow', 'paid', 'reversed'] as const;
export type CommissionState = (typeof COMMISSION_STATES)[number];

/** One commission: a vendor bounty that became the referrer's when the vendor confirmed its milestone. */
export const Commission = z.object({
  id: z.string(),
  referralId: z.number().int(),
  milestone: MilestoneName,
  vendorId: z.string().nullable(),
  /** The vendor company, and the referred person. */
  partner: z.string(),
  contact: z.string(),
  /** The referrer (for administrators and vendors). */
  referrer: z.object({ userId: z.string(), name: z.string(), email: z.string() }),
  currency: z.string(),
  /** What the vendor pays, the referrer's plan share of it and the platform's fee (gross = the two). */
  grossCents: z.number().int(),
  referrerCents: z.number().int(),
  feeCents: z.number().int(),
  /** The deal value it was computed from, when the bounty is a percentage. */
  dealValueCents: z.number().int().nullable(),
  state: z.enum(COMMISSION_STATES),
  earnedAt: z.iso.datetime(),
  paidAt: z.iso.datetime().nullable(),
  payoutId: z.string().nullable(),
  payoutReference: z.string().nullable(),
  reversedAt: z.iso.datetime().nullable(),
  reversalReason: z.string().nullable(),
});
export type Commission = z.infer<typeof Commission>;

export const LEDGER_KINDS = ['earned', 'reversed', 'paid'] as const;

/** One append-only ledger entry: who did what to a commission, when and why. */
export const LedgerEntry = z.object({
  id: z.string(),
  commissionId: z.string(),
  kind: z.enum(LEDGER_KINDS),
  /** Signed, in cents of the referrer's share: earned +, reversed -, paid - (out of escrow). */
  amountCents: z.number().int(),
  actor: z.enum(['vendor', 'admin', 'referrer', 'system']),
  actorName: z.string(),
  reason: z.string(),
  at: z.iso.datetime(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

/** The referrer's money, from the ledger (cents, referrer's share). */
export const PayoutSummary = z.object({
  currency: z.string(),
  /** Milestones the referrer moved to but the vendor has not confirmed yet, valued at the vendor's bounties now. */
  pendingCents: z.number().int(),
  inEscrowCents: z.number().int(),
  paidCents: z.number().int(),
  reversedCents: z.number().int(),
  /** In escrow + paid. */
  earnedCents: z.number().int(),
});
export type PayoutSummary = z.infer<typeof PayoutSummary>;

export const PAYOUT_METHODS = ['bank_transfer', 'paypal', 'wise', 'check', 'other'] as const;
export const PAYOUT_METHOD_LABELS: Record<(typeof PAYOUT_METHODS)[number], string> = {
  bank_transfer: 'Bank transfer',
  paypal: 'PayPal',
  wise: 'Wise',
  check: 'Check',
  other: 'Other',
};

/**
 * The latest date that is today somewhere on Earth (UTC+14): a payout records a transfer already made, so its
 * date cannot be later, in whatever time zone the administrator recorded it (a later one would tell the
 * referrers they were paid before the money left).
 */
const latestToday = () => new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);

/** POST /api/admin/payouts: one batch paying the listed commissions (all in escrow) at once, or nothing. */
export const RecordPayoutRequest = z.strictObject({
  reference: text({ label: 'Payment reference', max: 100, required: 'Please enter the payment reference' }),
  method: z.enum(PAYOUT_METHODS, { error: 'Please choose how it was paid' }),
  // Year 0 matches the date pattern but is no date (the calendar goes from 1 BC to AD 1): PostgreSQL refuses it.
  paidOn: z.iso
    .date({ error: 'Please enter the date it was paid (YYYY-MM-DD)' })
    .refine((date) => !date.startsWith('0000-'), 'Please enter the date it was paid (YYYY-MM-DD)')
    .refine((date) => date <= latestToday(), 'The date it was paid cannot be in the future'),
  commissionIds: z
    .array(z.uuid({ error: 'Unknown commission' }), { error: 'Please choose the commissions paid' })
    .min(1, 'Please choose the commissions paid')
    .max(1000, 'At most 1000 commissions per payout')
    .refine((ids) => new Set(ids).size === ids.length, 'A commission is listed twice'),
});
export type RecordPayoutRequest = z.input<typeof RecordPayoutRequest>;

/** What is due to one referrer: their commissions in escrow. */
export const PayoutDue = z.object({
  referrer: Commission.shape.referrer,
  currency: z.string(),
  totalCents: z.number().int(),
  commissions: z.array(Commission),
});
export type PayoutDue = z.infer<typeof PayoutDue>;

export const Payout = z.object({
  id: z.string(),
  reference: z.string(),
  method: z.enum(PAYOUT_METHODS),
  paidOn: z.iso.date(),
  recordedAt: z.iso.datetime(),
  recordedBy: z.string(),
  currency: z.string(),
  totalCents: z.number().int(),
  /** The referrers paid in this batch. */
  referrers: z.array(Commission.shape.referrer.extend({ totalCents: z.number().int() })),
  commissions: z.array(Commission),
});
export type Payout = z.infer<typeof Payout>;

/** GET /api/vendors/{vendorId}/commissions: what a vendor owes (gross amounts) and has paid. */
export const VendorCommissions = z.object({
  currency: z.string(),
  owedCents: z.number().int(),
  paidCents: z.number().int(),
  commissions: z.array(Commission),
});
export type VendorCommissions = z.infer<typeof VendorCommissions>;

/** Money of one referral as both sides see it (Referral.money and Lead.money). */
export const ReferralMoney = z.object({
  currency: z.string(),
  /** Entered by the vendor: expected at opportunity, actual at Closed-Won. */
  expectedValueCents: z.number().int().nullable(),
  dealValueCents: z.number().int().nullable(),
  milestones: z.array(MilestoneState),
  commissions: z.array(Commission),
  /** The referrer's share earned (in escrow + paid), and what the open enabled milestones would pay at today's bounties. */
  earnedCents: z.number().int(),
  expectedCents: z.number().int().nullable(),
});
export type ReferralMoney = z.infer<typeof ReferralMoney>;

// Outbound webhooks (profiles): a vendor workspace's CRM endpoints.

export const WEBHOOK_EVENTS = ['lead.created', 'lead.status_changed', 'commission.created'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const CreateWebhookRequest = z.strictObject({
  url: text({ label: 'Endpoint URL', max: 2000, typeMessage: 'Please enter the endpoint URL' })
    .pipe(z.url({ error: 'Please enter a valid URL' }))
    .refine((url) => url.startsWith('https://'), 'Webhook URLs must use HTTPS'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: 'Unknown event' }))
    .min(1, 'Please choose at least one event')
    .transform((events) => [...new Set(events)]),
  description: note('Description', 200).default(''),
});
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequest>;

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string(),
  createdAt: z.iso.datetime(),
  /** The last characters of the signing secret, to tell endpoints apart. */
  secretHint: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** Answered once, when the endpoint is created: the signing secret ("whsec_…"), never shown again. */
export const CreatedWebhook = z.object({ endpoint: WebhookEndpoint, secret: z.string() });

export const DELIVERY_STATES = ['pending', 'succeeded', 'retrying', 'failed'] as const;

export const WebhookDelivery = z.object({
  id: z.string(),
  endpointId: z.string(),
  /** The event's id, also the webhook-id header (receivers de-duplicate on it). */
  eventId: z.string(),
  eventType: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  lastAttemptAt: z.iso.datetime().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  /** The endpoint's last HTTP status, and the start of its answer (or why it could not be reached). */
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
