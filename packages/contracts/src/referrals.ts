import { z } from 'zod';
import { LedgerEntry, ReferralMoney } from './money.ts';
import { emailField, text, urlText } from './common.ts';
import { NOT_FOUND } from './search.ts';
import { ClientOrganization, IcpFit, LeadState } from './vendors.ts';

/** Referral stages (spec 4): stored value and the label screens show. */
export const REFERRAL_STATUSES = [
  'pending',
  'intro_made',
  'intro_accepted',
  'intro_occurred',
  'became_customer',
  'declined',
] as const;
export const ReferralStatus = z.enum(REFERRAL_STATUSES, { error: 'Unknown referral status' });
export type ReferralStatus = z.infer<typeof ReferralStatus>;

export const STATUS_LABELS: Record<ReferralStatus, string> = {
  pending: 'Tee-up',
  intro_made: 'Warm Intro',
  intro_accepted: 'Demo',
  intro_occurred: 'Intro Occurred',
  became_customer: 'Closed-Won',
  declined: 'Declined',
};

/** Company-name legal suffixes stripped for display (spec 9). */
const LEGAL_SUFFIXES = [
  'Ltd',
  'LLC',
  'Inc',
  'Corp',
  'Co',
  'Company',
  'Limited',
  'GmbH',
  'S.A.',
  'Pty',
  'Pvt',
  'B.V.',
  'AG',
  'Technologies',
  'Technology',
  'Software',
  'Solutions',
];
const suffixPattern = new RegExp(`[\\s,]+(${LEGAL_SUFFIXES.map((s) => s.replace(/\./g, '\\.')).join('|')})\\.?$`, 'i');

export function stripLegalSuffixes(company: string): string {
  let name = company.trim();
  for (let previous = ''; previous !== name && suffixPattern.test(name);) {
    previous = name;
    name = name.replace(suffixPattern, '').trim();
  }
  return name || company.trim();
}

const line = (label: string, max: number) => text({ label, max });

/** What a search that found nothing answers (issue 12): never a product or company one can refer. */
export const NOT_REFERABLE_MESSAGE = 'Search found no product to refer: try a product name, a website, or Smart Match';
const isNotFound = (value: string) => value.trim().toLowerCase() === NOT_FOUND.toLowerCase();
const found = <T extends z.ZodType<string>>(schema: T) =>
  schema.refine((value) => !isNotFound(value), { message: NOT_REFERABLE_MESSAGE });
const lines = (label: string, max: number) => text({ label, max, multiline: true });

/** POST /api/referrals: the referral form (spec 3 and 5) plus the product found by the search. */
export const CreateReferralRequest = z.strictObject({
  referredFirstName: text({ label: 'First name', max: 100, required: 'First name is required' }),
  referredLastName: text({ label: 'Last name', max: 100, required: 'Last name is required' }),
  referredEmail: emailField('Invalid email address'),
  referralReason: text({
    label: 'Reason',
    max: 5000,
    multiline: true,
    required: 'Please explain why this referral is a good fit',
  }),
  isReferralAware: z.boolean().default(false),
  canUseReferrerName: z.boolean().default(false),
  productId: text({ label: 'Product', max: 200, required: 'Product selection is required' }).default('auto-generated'),
  product: found(text({ label: 'Product', max: 200, required: 'Product selection is required' })),
  /** The product's company as the search found it: required, and never the search's 'Not found' (issue 12). */
  company: found(text({ label: 'Company', max: 200, required: 'Company is required' })),
  description: lines('Description', 2000).default(''),
  /** The product's website as the search found it: the surest way to the vendor's workspace. */
  website: urlText('Website', 300).default(''),
  /** The client organization (spec 1), checked against the vendor's ICP before the referral is routed. */
  client: ClientOrganization,
  /** Optional notes for the vendor (spec 1). */
  notes: lines('Notes', 2000).default(''),
});
export type CreateReferralRequest = z.input<typeof CreateReferralRequest>;

/** Recipients may arrive as an array, a JSON string or a plain comma-separated string (spec 3). */
export function normalizeRecipients(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => normalizeRecipients(item));
  if (typeof value !== 'string') return [];
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    try {
      return normalizeRecipients(JSON.parse(trimmed));
    } catch {
      // not JSON after all: fall through to comma splitting
    }
  }
  return trimmed
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

const recipientList = z.preprocess(
  normalizeRecipients,
  z.array(emailField('Invalid recipient email address', 'Recipient email')).max(50, 'At most 50 recipients per field'),
);

export const Recipients = z.object({
  to: recipientList,
  cc: recipientList.default([]),
  bcc: recipientList.default([]),
});

export const EmailDraft = z.object({
  subject: text({
    label: 'Subject',
    max: 300,
    required: 'Subject is required',
    maxMessage: 'Subject must be at most 300 characters',
  }),
  body: text({
    label: 'Email body',
    max: 20_000,
    multiline: true,
    required: 'Email body is required',
    maxMessage: 'Email body must be at most 20000 characters',
  }),
  recipients: Recipients,
});
export type EmailDraft = z.infer<typeof EmailDraft>;

/**
 * How many people one intro email may reach (issue 11): a warm intro names a handful of people, never a
 * list. The vendor's lead inbox the server copies comes on top and is not counted.
 */
export const INTRO_RECIPIENT_LIMITS = { perField: 5, total: 10 } as const;

/** An intro's recipients: plain addresses (`emailField`), so the email goes to the addresses the referrer sees. */
const introRecipientList = z.preprocess(
  normalizeRecipients,
  z
    .array(emailField('Invalid recipient email address', 'Recipient email'))
    .max(INTRO_RECIPIENT_LIMITS.perField, `At most ${INTRO_RECIPIENT_LIMITS.perField} addresses per field`),
);

/** POST /api/referrals/{id}/send-email */
export const SendEmailRequest = z.strictObject({
  subject: EmailDraft.shape.subject,
  body: EmailDraft.shape.body,
  recipients: z
    .object({
      to: introRecipientList.refine((list) => list.length > 0, 'At least one recipient is required'),
      cc: introRecipientList.default([]),
      bcc: introRecipientList.default([]),
    })
    .superRefine((recipients, ctx) => {
      const total = recipients.to.length + recipients.cc.length + recipients.bcc.length;
      if (total <= INTRO_RECIPIENT_LIMITS.total) return;
      // Next to the last field in use: the one that took the email over the limit.
      const field = recipients.bcc.length ? 'bcc' : recipients.cc.length ? 'cc' : 'to';
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `At most ${INTRO_RECIPIENT_LIMITS.total} recipients per intro email (To, Cc and Bcc together)`,
      });
    }),
});
export type SendEmailRequest = z.input<typeof SendEmailRequest>;

/**
 * PUT /api/referrals/{id}/status: the referrer's own tracking of the stage (spec 4). It earns nothing: money
 * follows the vendor's confirmations (money.ts). Moving to Declined withdraws the referral, which reverses
 * its unpaid commissions.
 */
export const UpdateStatusRequest = z.strictObject({ status: ReferralStatus });
export const AutomateRequest = z.strictObject({ dryRun: z.boolean().default(true) });

/** The vendor's product a referral is for. */
export const Project = z.object({
  id: z.string(),
  productName: z.string(),
  companyName: z.string(),
  description: z.string(),
  website: z.string().nullable(),
  referralProgram: z.string().nullable(),
});
export type Project = z.infer<typeof Project>;

export const StatusChange = z.object({ from: ReferralStatus.nullable(), to: ReferralStatus, at: z.iso.datetime() });

export const TIMELINE_ACTORS = ['referrer', 'vendor', 'admin', 'system'] as const;
/** One thing that happened to a referral, as both the referrer and the vendor see it. */
export const TimelineEntry = z.object({
  at: z.iso.datetime(),
  actor: z.enum(TIMELINE_ACTORS),
  /** Machine kind: submitted, routed, not_routed, intro_sent, accepted, declined, stage_changed... */
  kind: z.string(),
  /** What a person reads: "Acme accepted the lead", "Declined: not in our region". */
  text: z.string(),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;

/** Where a referral went: the vendor on the platform (null when it is not), and what it decided. */
export const ReferralLead = z.object({
  vendorId: z.string(),
  vendorName: z.string(),
  status: LeadState,
  declineReason: z.string().nullable(),
  decidedAt: z.iso.datetime().nullable(),
});

export const Referral = z.object({
  id: z.number().int(),
  projectId: z.string(),
  status: ReferralStatus,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  referredFirstName: z.string(),
  referredLastName: z.string(),
  referredName: z.string(),
  referredEmail: z.string(),
  referredPhone: z.string().nullable(),
  referralReason: z.string(),
  isReferralAware: z.boolean(),
  canUseReferrerName: z.boolean(),
  notes: z.string().nullable(),
  company: z.string(),
  project: Project,
  emailDraft: EmailDraft.nullable(),
  fromClay: z.boolean(),
  emailSentAt: z.iso.datetime().nullable(),
  /** Deal values, milestones confirmed by the vendor, and commissions. */
  money: ReferralMoney,
  /** The latest thing that really happened (the newest timeline entry), for the Tee ups table. */
  lastActivity: z.object({ at: z.iso.datetime(), text: z.string() }),
  /** The intro draft is ready and waits for the referrer's approval (not sent yet). */
  awaitingApproval: z.boolean(),
  history: z.array(StatusChange),
  /** The product description as the referrer saw it when referring (their own text, never shared). */
  description: z.string(),
  /** The client organization (null for referrals made before it was asked). */
  client: ClientOrganization.nullable(),
  /** The vendor workspace the referral was routed to, or null when the vendor is not on the platform. */
  lead: ReferralLead.nullable(),
  /** The vendor's ICP against this client, when the vendor has one. */
  fit: IcpFit.nullable(),
  timeline: z.array(TimelineEntry),
});
export type Referral = z.infer<typeof Referral>;

/**
 * A referral as an administrator looks it up before recording a milestone or reversing a deal: who referred
 * whom to which vendor, its stage, its money and its ledger (not the referrer's private notes or texts).
 */
export const AdminReferral = z.object({
  id: z.number().int(),
  status: ReferralStatus,
  createdAt: z.iso.datetime(),
  referredName: z.string(),
  referredEmail: z.string(),
  /** The client organization's name (null for referrals made before it was asked). */
  clientName: z.string().nullable(),
  productName: z.string(),
  /** The vendor company as the referrer named it (the workspace, when routed, is `lead`). */
  companyName: z.string(),
  referrer: z.object({ name: z.string(), email: z.string() }),
  lead: ReferralLead.nullable(),
  money: ReferralMoney,
  ledger: z.array(LedgerEntry),
});
export type AdminReferral = z.infer<typeof AdminReferral>;

/** A referral in the Tee ups list: without the intro draft (the detail and draft endpoints carry it). */
export const ReferralListItem = Referral.omit({ emailDraft: true });
export type ReferralListItem = z.infer<typeof ReferralListItem>;

/**
 * A whole number in a query string: decimal digits only ('1e3', '0x10', ' 5', '5.0' and a repeated parameter
 * are refused, where Number() would take them), from min to max.
 */
const queryInteger = (label: string, min: number, max: number) => {
  const message = `${label} must be a whole number from ${min} to ${max.toLocaleString('en-US')}`;
  return z
    .union(
      [
        z.int(),
        z
          .string()
          .regex(/^\d{1,10}$/, message)
          .transform(Number),
      ],
      { error: message },
    )
    .pipe(z.number().min(min, message).max(max, message));
};

/** GET /api/referrals: server-side filters of the Tee ups dashboard (spec 9) and paging. */
export const ListReferralsQuery = z.strictObject({
  search: line('Search', 200).optional(),
  status: ReferralStatus.optional(),
  company: line('Company', 200).optional(),
  days: z.enum(['7', '30', '90', 'all']).default('90'),
  page: queryInteger('Page', 1, 100_000).default(1),
  pageSize: queryInteger('Page size', 1, 100).default(25),
});
export type ListReferralsQuery = z.input<typeof ListReferralsQuery>;

export const ReferralList = z.object({
  referrals: z.array(ReferralListItem),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Distinct company names of all the user's referrals, for the company filter. */
  companies: z.array(z.string()),
  /** Figures of the four summary cards, over all the user's referrals. */
  summary: z.object({
    total: z.number().int(),
    inFlight: z.number().int(),
    closedWon: z.number().int(),
    declined: z.number().int(),
  }),
  /** Referrals the user sent and received (the reciprocity panel). */
  reciprocity: z.object({ sent: z.number().int(), received: z.number().int() }),
});
export type ReferralList = z.infer<typeof ReferralList>;

export const EmailDraftResponse = z.object({
  emailDraft: EmailDraft,
  fromClay: z.boolean(),
  /**
   * The sender name as the email shows it (at the platform's address): "{referrer's name} via Referral Hub", or
   * "Referral Hub" when the referrer did not allow their name to be used.
   */
  from: z.string(),
  /**
   * Replies go to the referrer; when they did not allow their name, to the vendor's lead inbox when routed,
   * else '' (no Reply-To: replies reach the platform's own address).
   */
  replyTo: z.string(),
  /** What the server always adds to the Cc when it sends: the vendor's lead inbox when the referral was routed. */
  alwaysCc: z.array(z.string()),
  /** The draft's recipients exactly as they would be sent now (alwaysCc added to the Cc). */
  sendTo: z.object({ to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()) }),
});
export const EmailDraftCheckResponse = z.object({ ready: z.boolean(), fromClay: z.boolean() });
export const ReferralProgramResponse = z.object({ referralProgram: z.string() });
export const AutomateResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  /** The vendor's website the preview imitates (issue 12): the product's, else the vendor's or its program's. */
  website: z.string().nullable().optional(),
});
export const SendEmailResponse = z.object({ success: z.literal(true), message: z.string() });

export const REFERRAL_MESSAGES = {
  notAuthorized: 'Not authorized to access this referral',
  notFound: 'Referral not found',
  draftNotFound: 'Email draft not found',
  invalidId: 'Invalid referral id',
  emailSent: 'Email sent successfully!',
  alreadySent: 'This intro email has already been sent',
  noProgram: 'NO: this vendor has no referral program we know of.',
} as const;

/** POST /api/referrals/fit: where a referral would go and how the client fits, before submitting. */
export const ReferralFitRequest = z.strictObject({
  product: text({ label: 'Product', max: 200, required: 'Product selection is required' }),
  company: line('Company', 200).default(''),
  website: urlText('Website', 300).default(''),
  client: ClientOrganization,
});
export type ReferralFitRequest = z.input<typeof ReferralFitRequest>;

export const ReferralFit = z.object({
  /** The vendor workspace it would be routed to; null when the vendor is not on the platform. */
  vendor: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Null when the vendor has no ICP (or is not on the platform). */
  fit: IcpFit.nullable(),
  /** False when the client clearly fails a hard criterion: submitting is refused (ICP_MISMATCH). */
  routable: z.boolean(),
});
export type ReferralFit = z.infer<typeof ReferralFit>;

/** A lead in a vendor's inbox: a referral routed to the vendor. */
export const Lead = z.object({
  referralId: z.number().int(),
  createdAt: z.iso.datetime(),
  status: LeadState,
  declineReason: z.string().nullable(),
  decidedAt: z.iso.datetime().nullable(),
  productName: z.string(),
  client: ClientOrganization.nullable(),
  contact: z.object({ firstName: z.string(), lastName: z.string(), email: z.string() }),
  referrer: z.object({ name: z.string(), company: z.string(), email: z.string() }),
  reason: z.string(),
  notes: z.string(),
  fit: IcpFit.nullable(),
  /** The intro email: the referrer's draft until it is sent, then what was sent. */
  introEmail: z.object({ subject: z.string(), body: z.string(), sentAt: z.iso.datetime().nullable() }).nullable(),
  timeline: z.array(TimelineEntry),
  /** The referral's stage as the referrer tracks it. */
  stage: ReferralStatus,
  /** Deal values, milestones (the vendor confirms them here) and commissions (gross: what the vendor owes). */
  money: ReferralMoney,
});
export type Lead = z.infer<typeof Lead>;

/** The most leads one inbox call answers (the newest, or the newest older than `before`). */
export const MAX_LEADS = 500;

/**
 * GET /api/products/{projectId}/referral-program: with `referralId` (the caller's own referral of the product),
 * the program of the vendor workspace that referral was routed to counts whatever its name.
 */
export const ReferralProgramQuery = z.strictObject({
  referralId: queryInteger('Referral', 1, 2_147_483_647).optional(),
});
export type ReferralProgramQuery = z.input<typeof ReferralProgramQuery>;

/**
 * GET /api/vendors/{vendorId}/leads: newest first, `limit` of them (all up to MAX_LEADS by default), only those
 * older than the lead `before` (a referral id of the same inbox) when given: the next page after that lead.
 */
export const ListLeadsQuery = z.strictObject({
  status: LeadState.optional(),
  before: queryInteger('The lead to page from', 1, 2_147_483_647).optional(),
  limit: queryInteger('Limit', 1, MAX_LEADS).default(MAX_LEADS),
});
export type ListLeadsQuery = z.input<typeof ListLeadsQuery>;
