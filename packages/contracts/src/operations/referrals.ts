import { z } from 'zod';
import { idText } from '../common.ts';
import { ImpactQuery, ImpactSummary } from '../impact.ts';
import {
  AdminConfirmMilestoneRequest,
  Commission,
  ConfirmationRequest,
  ConfirmMilestoneRequest,
  ExpectedValueRequest,
  LedgerEntry,
  Payout,
  PayoutDue,
  RecordPayoutRequest,
  ReverseDealRequest,
  VendorCommissions,
} from '../money.ts';
import { defineOperation } from '../operation.ts';
import { DeclineLeadRequest } from '../vendors.ts';
import {
  AdminReferral,
  AutomateRequest,
  AutomateResponse,
  CreateReferralRequest,
  EmailDraftCheckResponse,
  EmailDraftResponse,
  ListReferralsQuery,
  Referral,
  ReferralList,
  ReferralFit,
  ReferralFitRequest,
  ReferralProgramResponse,
  ReferralProgramQuery,
  Lead,
  ListLeadsQuery,
  SendEmailRequest,
  SendEmailResponse,
  UpdateStatusRequest,
} from '../referrals.ts';

/** A referral id in a path: digits only (spec 5), else 400 'Invalid referral id'. */
export const ReferralIdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,12}$/, 'Invalid referral id')
    .transform(Number),
});
export const ProjectIdParams = z.object({
  projectId: idText('Product', 100, 'Product not found').min(1, 'Product not found'),
});
/** Any text (Fastify caps path parameters at 100 characters): one that names no payout, UUID or not, is 404. */
export const PayoutIdParams = z.object({ id: idText('Payout', 100, 'Payout not found') });
export const EmailDraftQuery = z.strictObject({
  checkOnly: z.enum(['true', 'false'], { error: 'checkOnly must be true or false' }).optional(),
});

const own = ['REFERRAL_NOT_FOUND', 'REFERRAL_FORBIDDEN'] as const;

export const referralOperations = {
  createReferral: defineOperation({
    method: 'POST',
    path: '/api/referrals',
    service: 'referrals',
    access: 'verified',
    summary:
      "Submit a referral of a person to a product; routed to the vendor's lead inbox when the vendor is on the platform",
    body: CreateReferralRequest,
    response: { status: 201, description: 'Created', schema: Referral },
    errors: ['ICP_MISMATCH'],
  }),
  checkReferralFit: defineOperation({
    method: 'POST',
    path: '/api/referrals/fit',
    service: 'referrals',
    access: 'user',
    summary: "Where a referral would go and how the client fits the vendor's ICP, before submitting",
    body: ReferralFitRequest,
    response: { status: 200, description: 'The vendor and the fit', schema: ReferralFit },
  }),
  listReferrals: defineOperation({
    method: 'GET',
    path: '/api/referrals',
    service: 'referrals',
    access: 'user',
    summary: "The user's referrals, filtered and paged, with summary figures",
    query: ListReferralsQuery,
    response: { status: 200, description: 'A page of referrals', schema: ReferralList },
  }),
  getReferral: defineOperation({
    method: 'GET',
    path: '/api/referrals/{id}',
    service: 'referrals',
    access: 'user',
    summary: 'One referral with its project, draft and status history',
    params: ReferralIdParams,
    response: { status: 200, description: 'The referral', schema: Referral },
    errors: own,
  }),
  getEmailDraft: defineOperation({
    method: 'GET',
    path: '/api/referrals/{id}/email-draft',
    service: 'referrals',
    access: 'user',
    summary: 'The intro email draft (with ?checkOnly=true: only whether it is ready and where it came from)',
    params: ReferralIdParams,
    query: EmailDraftQuery,
    response: {
      status: 200,
      description: 'The draft, or with checkOnly the readiness',
      schema: EmailDraftResponse.or(EmailDraftCheckResponse),
    },
    errors: [...own, 'DRAFT_NOT_READY'],
  }),
  sendEmail: defineOperation({
    method: 'POST',
    path: '/api/referrals/{id}/send-email',
    service: 'referrals',
    access: 'verified',
    summary:
      "Send the (edited) intro email: From the referrer via Referral Hub, Reply-To the referrer, Cc the vendor's lead inbox when routed",
    params: ReferralIdParams,
    body: SendEmailRequest,
    response: { status: 200, description: 'Queued for sending', schema: SendEmailResponse },
    errors: [...own, 'EMAIL_ALREADY_SENT', 'REFERRAL_DECLINED', 'SEND_QUOTA_EXCEEDED'],
  }),
  updateStatus: defineOperation({
    method: 'PUT',
    path: '/api/referrals/{id}/status',
    service: 'referrals',
    access: 'user',
    summary: 'Move a referral to another stage (not one its vendor declined)',
    params: ReferralIdParams,
    body: UpdateStatusRequest,
    response: { status: 200, description: 'Updated referral', schema: Referral },
    errors: [...own, 'REFERRAL_ENDED'],
  }),
  getReferralProgram: defineOperation({
    method: 'GET',
    path: '/api/products/{projectId}/referral-program',
    service: 'referrals',
    access: 'user',
    summary: "Whether the product's vendor has a referral program",
    params: ProjectIdParams,
    query: ReferralProgramQuery,
    response: {
      status: 200,
      description: "The program's text, or one starting with 'NO'",
      schema: ReferralProgramResponse,
    },
    errors: ['PRODUCT_NOT_FOUND', 'PROGRAM_CHECK_UNAVAILABLE', 'REFERRAL_NOT_FOUND', 'REFERRAL_FORBIDDEN'],
  }),
  automateReferral: defineOperation({
    method: 'POST',
    path: '/api/referrals/{id}/automate',
    service: 'referrals',
    access: 'user',
    summary: "Dry run of filling the vendor's referral form (never submits anything)",
    params: ReferralIdParams,
    body: AutomateRequest,
    response: { status: 200, description: 'Outcome of the dry run', schema: AutomateResponse },
    errors: [...own, 'DRY_RUN_ONLY'],
  }),
  getImpact: defineOperation({
    method: 'GET',
    path: '/api/referral-impact',
    service: 'referrals',
    access: 'user',
    summary: "The referrer's impact: rates, pipeline, commissions and payouts, activity, funnel, leaderboard, trends",
    query: ImpactQuery,
    response: { status: 200, description: 'Impact summary', schema: ImpactSummary },
  }),
  listCommissions: defineOperation({
    method: 'GET',
    path: '/api/commissions',
    service: 'referrals',
    access: 'user',
    summary: "The referrer's commissions (the Payout Summary's lines, for CSV export)",
    query: ImpactQuery,
    response: { status: 200, description: 'Commissions', schema: Commission.array() },
  }),
  requestConfirmation: defineOperation({
    method: 'POST',
    path: '/api/referrals/{id}/confirmation-requests',
    service: 'referrals',
    access: 'user',
    summary: 'Ask the vendor to confirm a milestone ("I heard they signed"); the vendor is emailed',
    params: ReferralIdParams,
    body: ConfirmationRequest,
    response: { status: 200, description: 'The referral, with the request noted', schema: Referral },
    errors: [
      ...own,
      'REFERRAL_NOT_ROUTED',
      'VENDOR_NOT_VERIFIED',
      'LEAD_DECLINED',
      'MILESTONE_ALREADY_CONFIRMED',
      'MILESTONE_NEEDS_CLOSED_WON',
      'RETENTION_NOT_DUE',
      'CONFIRMATION_RECENTLY_REQUESTED',
    ],
  }),
} as const;

export const LeadParams = z.object({
  vendorId: idText('Vendor workspace', 64, 'Vendor workspace not found'),
  referralId: z
    .string()
    .regex(/^\d{1,12}$/, 'Lead not found')
    .transform(Number),
});

const inbox = ['VENDOR_NOT_FOUND', 'NOT_A_MEMBER', 'WORKSPACE_NOT_VERIFIED'] as const;
const confirming = [
  'OWN_REFERRAL',
  'LEAD_DECLINED',
  'MILESTONE_ALREADY_CONFIRMED',
  'MILESTONE_NEEDS_CLOSED_WON',
  'RETENTION_NOT_DUE',
  'DEAL_VALUE_REQUIRED',
  'DEAL_VALUE_NOT_EXPECTED',
  'DEAL_VALUE_TOO_LARGE',
] as const;

/** The vendor's lead inbox: members of the verified workspace only. */
export const leadOperations = {
  listLeads: defineOperation({
    method: 'GET',
    path: '/api/vendors/{vendorId}/leads',
    service: 'referrals',
    access: 'verified',
    summary: 'The leads routed to a vendor workspace, newest first (members of the verified workspace)',
    params: z.object({ vendorId: idText('Vendor workspace', 64, 'Vendor workspace not found') }),
    query: ListLeadsQuery,
    response: { status: 200, description: 'Leads', schema: Lead.array() },
    errors: inbox,
  }),
  getLead: defineOperation({
    method: 'GET',
    path: '/api/vendors/{vendorId}/leads/{referralId}',
    service: 'referrals',
    access: 'verified',
    summary: 'One lead with its timeline',
    params: LeadParams,
    response: { status: 200, description: 'The lead', schema: Lead },
    errors: [...inbox, 'LEAD_NOT_FOUND'],
  }),
  acceptLead: defineOperation({
    method: 'POST',
    path: '/api/vendors/{vendorId}/leads/{referralId}/accept',
    service: 'referrals',
    access: 'verified',
    summary: 'Accept a lead; the referrer is told by email',
    params: LeadParams,
    response: { status: 200, description: 'Accepted', schema: Lead },
    errors: [...inbox, 'LEAD_NOT_FOUND', 'LEAD_ALREADY_DECIDED', 'LEAD_WITHDRAWN', 'OWN_LEAD'],
  }),
  declineLead: defineOperation({
    method: 'POST',
    path: '/api/vendors/{vendorId}/leads/{referralId}/decline',
    service: 'referrals',
    access: 'verified',
    summary: 'Decline a lead with a reason the referrer sees; the referral becomes Declined',
    params: LeadParams,
    body: DeclineLeadRequest,
    response: { status: 200, description: 'Declined', schema: Lead },
    errors: [...inbox, 'LEAD_NOT_FOUND', 'LEAD_ALREADY_DECIDED', 'LEAD_WITHDRAWN', 'OWN_LEAD'],
  }),
  confirmMilestone: defineOperation({
    method: 'POST',
    path: '/api/vendors/{vendorId}/leads/{referralId}/milestones',
    service: 'referrals',
    access: 'verified',
    summary:
      "Confirm a milestone of a lead (members of the verified workspace): earns the commission from the vendor's bounties now",
    params: LeadParams,
    body: ConfirmMilestoneRequest,
    response: { status: 200, description: 'The lead with the milestone confirmed', schema: Lead },
    errors: [...inbox, 'LEAD_NOT_FOUND', ...confirming],
  }),
  setExpectedValue: defineOperation({
    method: 'PUT',
    path: '/api/vendors/{vendorId}/leads/{referralId}/expected-value',
    service: 'referrals',
    access: 'verified',
    summary: "Set the lead's expected deal value (the referrer's pipeline value)",
    params: LeadParams,
    body: ExpectedValueRequest,
    response: { status: 200, description: 'The lead', schema: Lead },
    errors: [...inbox, 'LEAD_NOT_FOUND', 'OWN_REFERRAL', 'LEAD_DECLINED', 'DEAL_VALUE_TOO_LARGE'],
  }),
  reverseDeal: defineOperation({
    method: 'POST',
    path: '/api/vendors/{vendorId}/leads/{referralId}/reverse',
    service: 'referrals',
    access: 'verified',
    summary: 'The deal fell through: reverse every unpaid commission of the lead (a ledger entry each)',
    params: LeadParams,
    body: ReverseDealRequest,
    response: { status: 200, description: 'The lead', schema: Lead },
    errors: [...inbox, 'LEAD_NOT_FOUND', 'NOTHING_TO_REVERSE'],
  }),
  listVendorCommissions: defineOperation({
    method: 'GET',
    path: '/api/vendors/{vendorId}/commissions',
    service: 'referrals',
    access: 'verified',
    summary: 'What the vendor owes (in escrow) and has paid, commission by commission',
    params: z.object({ vendorId: idText('Vendor workspace', 64, 'Vendor workspace not found') }),
    response: { status: 200, description: 'Commissions', schema: VendorCommissions },
    errors: inbox,
  }),
} as const;

/** Administrators: milestones on a vendor's behalf, and payouts. */
export const moneyAdminOperations = {
  adminConfirmMilestone: defineOperation({
    method: 'POST',
    path: '/api/admin/referrals/{id}/milestones',
    service: 'referrals',
    access: 'admin',
    summary: "Record a milestone on the vendor's behalf, with a note (audited in the ledger)",
    params: ReferralIdParams,
    body: AdminConfirmMilestoneRequest,
    response: { status: 200, description: 'The referral as its referrer sees it', schema: Referral },
    errors: ['REFERRAL_NOT_FOUND', 'REFERRAL_NOT_ROUTED', 'VENDOR_NOT_VERIFIED', ...confirming],
  }),
  adminReverseDeal: defineOperation({
    method: 'POST',
    path: '/api/admin/referrals/{id}/reverse',
    service: 'referrals',
    access: 'admin',
    summary: 'Reverse every unpaid commission of a referral, with the reason (audited in the ledger)',
    params: ReferralIdParams,
    body: ReverseDealRequest,
    response: { status: 200, description: 'The referral', schema: Referral },
    errors: ['REFERRAL_NOT_FOUND', 'NOTHING_TO_REVERSE'],
  }),
  getAdminReferral: defineOperation({
    method: 'GET',
    path: '/api/admin/referrals/{id}',
    service: 'referrals',
    access: 'admin',
    summary: 'A referral as an administrator looks it up: parties, stage, money and ledger',
    params: ReferralIdParams,
    response: { status: 200, description: 'The referral', schema: AdminReferral },
    errors: ['REFERRAL_NOT_FOUND'],
  }),
  getReferralLedger: defineOperation({
    method: 'GET',
    path: '/api/admin/referrals/{id}/ledger',
    service: 'referrals',
    access: 'admin',
    summary: "A referral's ledger entries, oldest first",
    params: ReferralIdParams,
    response: { status: 200, description: 'Ledger entries', schema: LedgerEntry.array() },
    errors: ['REFERRAL_NOT_FOUND'],
  }),
  listPayoutsDue: defineOperation({
    method: 'GET',
    path: '/api/admin/payouts/due',
    service: 'referrals',
    access: 'admin',
    summary: 'Commissions in escrow, per referrer',
    response: { status: 200, description: 'What is due', schema: PayoutDue.array() },
  }),
  recordPayout: defineOperation({
    method: 'POST',
    path: '/api/admin/payouts',
    service: 'referrals',
    access: 'admin',
    summary: 'Record a payout batch: every listed commission becomes paid, or none does',
    body: RecordPayoutRequest,
    response: { status: 201, description: 'The payout', schema: Payout },
    errors: ['PAYOUT_CONFLICT', 'PAYOUT_BEFORE_EARNED', 'PAYOUT_REFERENCE_TAKEN'],
  }),
  listPayouts: defineOperation({
    method: 'GET',
    path: '/api/admin/payouts',
    service: 'referrals',
    access: 'admin',
    summary: 'Recorded payout batches, newest first',
    response: { status: 200, description: 'Payouts', schema: Payout.array() },
  }),
  exportPayout: defineOperation({
    method: 'GET',
    path: '/api/admin/payouts/{id}/export',
    service: 'referrals',
    access: 'admin',
    summary: 'One payout batch as CSV (a line per commission)',
    params: PayoutIdParams,
    response: { status: 200, description: 'CSV', contentType: 'text/csv; charset=utf-8' },
    errors: ['PAYOUT_NOT_FOUND'],
  }),
} as const;
