import { z } from 'zod';

/**
 * Every error the gateway or a service can answer, once: a stable `code` the web branches on, its HTTP
 * status, and the default message (the spec's exact words where it has them). A throw site may give a more
 * precise message (validation names the field), never another status.
 */
export const ERRORS = {
  // Any operation
  VALIDATION_FAILED: { status: 400, message: 'Invalid input' },
  MALFORMED_BODY: { status: 400, message: 'Malformed JSON body' },
  EMPTY_BODY: { status: 400, message: 'Request body is empty' },
  UNAUTHENTICATED: { status: 401, message: 'Authentication required' },
  EMAIL_NOT_VERIFIED: {
    status: 403,
    message: 'Email Verification Required – Please verify your email address before proceeding.',
  },
  ADMIN_ONLY: { status: 403, message: 'Only administrators can do this' },
  INTERNAL_ONLY: { status: 403, message: 'Internal route' },
  CROSS_SITE_REQUEST: { status: 403, message: 'Cross-site request refused' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type' },
  RATE_LIMITED: { status: 429, message: 'Too many attempts. Please wait a minute and try again.' },
  INTERNAL_ERROR: { status: 500, message: 'Internal server error' },
  BAD_GATEWAY: { status: 502, message: 'Service temporarily unavailable. Please try again.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service temporarily unavailable. Please try again.' },
  UPSTREAM_TIMEOUT: { status: 504, message: 'The service took too long to answer. Please try again.' },

  // Accounts
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid email or password' },
  LOGIN_EMAIL_NOT_VERIFIED: {
    status: 403,
    message: 'Email not verified. Please check your inbox for a verification link or request a new one.',
  },
  VERIFICATION_LINK_INVALID: {
    status: 400,
    message: 'This verification link is invalid or has expired. Please request a new one.',
  },
  WRONG_PASSWORD: { status: 403, message: 'The password is not correct' },
  SAME_EMAIL: { status: 400, message: 'That is already your email address' },
  /** The email-change link was opened after another account took the new address. */
  EMAIL_CHANGE_TAKEN: {
    status: 400,
    message:
      'This email address is now used by another account, so your email was not changed. Please request the change again with another address.',
  },
  SESSION_NOT_FOUND: { status: 404, message: 'No session' },

  // Referrals
  REFERRAL_NOT_FOUND: { status: 404, message: 'Referral not found' },
  REFERRAL_FORBIDDEN: { status: 403, message: 'Not authorized to access this referral' },
  DRAFT_NOT_READY: { status: 404, message: 'Email draft not found' },
  EMAIL_ALREADY_SENT: { status: 409, message: 'This intro email has already been sent' },
  PRODUCT_NOT_FOUND: { status: 404, message: 'Product not found' },
  DRY_RUN_ONLY: { status: 400, message: 'Only dry runs are supported' },
  COMMISSION_NOT_FOUND: { status: 404, message: 'Commission not found' },

  // Money (milestones, commissions, payouts)
  REFERRAL_NOT_ROUTED: {
    status: 409,
    message: 'This referral did not reach a vendor on the platform, so there is no one to confirm milestones.',
  },
  MILESTONE_ALREADY_CONFIRMED: { status: 409, message: 'This milestone has already been confirmed' },
  /** A vendor member or administrator who is also the referral's referrer: confirming or valuing it never counts. */
  OWN_REFERRAL: { status: 403, message: 'You cannot confirm milestones or deal values of your own referral' },
  /** A vendor member who is also the lead's referrer: the vendor's decision is someone else's to make. */
  OWN_LEAD: { status: 403, message: 'You cannot accept or decline your own referral' },
  MILESTONE_NEEDS_CLOSED_WON: { status: 409, message: 'Confirm Closed-Won before the retention bonus' },
  RETENTION_NOT_DUE: { status: 409, message: 'The retention bonus cannot be confirmed before its date' },
  CONFIRMATION_RECENTLY_REQUESTED: {
    status: 409,
    message: 'You already asked the vendor to confirm this milestone today. Please give them time to answer.',
  },
  /** The referrer has the lead in Declined (withdrawn): the vendor has nothing to decide. */
  LEAD_WITHDRAWN: {
    status: 409,
    message: 'The referrer withdrew this referral: there is nothing to accept or decline',
  },
  /** An intro email of a referral in Declined (withdrawn, or declined by the vendor) is never sent. */
  REFERRAL_DECLINED: {
    status: 409,
    message: 'This referral was declined or withdrawn, so its intro email cannot be sent',
  },
  LEAD_DECLINED: { status: 409, message: 'This lead was declined or withdrawn; its milestones cannot be confirmed' },
  REFERRAL_ENDED: {
    status: 409,
    message: 'The vendor declined this referral: its stage can no longer change',
  },
  DEAL_VALUE_REQUIRED: { status: 400, message: 'Please enter the deal value' },
  DEAL_VALUE_NOT_EXPECTED: { status: 400, message: 'This milestone takes no deal value' },
  DEAL_VALUE_TOO_LARGE: { status: 400, message: 'Deal value is above the allowed maximum' },
  NOTHING_TO_REVERSE: { status: 409, message: 'This referral has no commission to reverse' },
  PAYOUT_CONFLICT: {
    status: 409,
    message: 'Some of these commissions are already paid, reversed or unknown. Reload the list and try again.',
  },
  /** A payout dated before one of its commissions was earned: the money cannot have been for it. */
  PAYOUT_BEFORE_EARNED: { status: 400, message: 'The date it was paid cannot be before the commissions were earned' },
  PAYOUT_REFERENCE_TAKEN: { status: 409, message: 'A payout with this reference has already been recorded' },
  PAYOUT_NOT_FOUND: { status: 404, message: 'Payout not found' },

  // Webhooks
  WEBHOOK_URL_PRIVATE: {
    status: 400,
    message: 'This URL points to a private or internal address. Webhooks must go to a public HTTPS endpoint.',
  },
  WEBHOOK_URL_UNRESOLVABLE: { status: 400, message: 'This URL does not resolve to any address' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'Webhook endpoint not found' },
  WEBHOOK_LIMIT: { status: 409, message: 'A workspace can have at most 10 webhook endpoints' },

  // Vendor profiles
  LEAD_CRITERIA_NOT_FOUND: { status: 404, message: 'No lead criteria saved yet' },
  BOUNTIES_NOT_FOUND: { status: 404, message: 'No bounties saved yet' },
  EMPTY_CRITERIA: { status: 400, message: 'Please fill in at least one field' },

  // Programs and documents
  PROGRAM_NOT_FOUND: { status: 404, message: 'Program not found' },
  NOTHING_TO_UPDATE: { status: 400, message: 'Nothing to update' },
  PROGRAM_WEBSITE_OFF_DOMAIN: {
    status: 400,
    message: "A vendor's program must be on the vendor's own website domain. Ask an administrator to link others.",
  },
  FILE_REQUIRED: { status: 400, message: 'Please choose a document to analyze' },
  EMPTY_FILE: { status: 400, message: 'The document is empty' },
  DOCUMENT_TOO_LARGE: { status: 413, message: 'The document is larger than 10 MB' },
  UNSUPPORTED_FILE_TYPE: {
    status: 415,
    message: 'Unsupported file type. Please upload a PDF, DOC, DOCX, TXT, PNG or JPG file.',
  },
  IMAGE_NEEDS_VISION: {
    status: 422,
    message:
      'Images can only be analyzed when a vision-capable AI model is configured. Please upload a PDF, DOCX or TXT file, or use Manual Entry.',
  },
  DOCUMENT_UNREADABLE: {
    status: 422,
    message:
      'The document could not be read. It may be damaged or protected; please try another file or use Manual Entry.',
  },
  DOCUMENT_HAS_NO_TEXT: {
    status: 422,
    message: 'No text was found in the document. Please upload a document with text, or use Manual Entry.',
  },
  ANALYSIS_UNAVAILABLE: {
    status: 503,
    message: 'The image could not be analyzed right now. Please try again later or use Manual Entry.',
  },

  // Vendor workspaces and leads
  VENDOR_NOT_FOUND: { status: 404, message: 'Vendor workspace not found' },
  NO_WORKSPACE: { status: 404, message: 'You have no vendor workspace yet. Create one to set your lead criteria.' },
  CHOOSE_WORKSPACE: { status: 400, message: 'You belong to several vendor workspaces: choose one.' },
  NOT_A_MEMBER: { status: 403, message: 'Only members of this vendor workspace can do this' },
  NOT_AN_OWNER: { status: 403, message: 'Only owners of this vendor workspace can do this' },
  VENDOR_NOT_VERIFIED: {
    status: 409,
    message:
      "This referral's vendor workspace is no longer verified (its verification was revoked): no milestone can be confirmed for it until an administrator approves it again.",
  },
  WORKSPACE_NOT_VERIFIED: {
    status: 403,
    message:
      'This vendor workspace is not verified yet. Verify it with an email address on its website domain, or ask an administrator to approve it.',
  },
  WEBMAIL_DOMAIN: {
    status: 400,
    message: 'A webmail domain cannot identify a company. Please enter your company website.',
  },
  DOMAIN_TAKEN: { status: 409, message: 'A verified vendor workspace already exists for this website' },
  WEBSITE_LOCKED: {
    status: 400,
    message: 'The website of a verified workspace cannot be changed. Ask an administrator.',
  },
  ALREADY_A_MEMBER: { status: 409, message: 'This person is already a member of the workspace' },
  LAST_OWNER: { status: 400, message: 'A workspace needs at least one owner' },
  MEMBER_NOT_FOUND: { status: 404, message: 'Member not found' },
  INVITATION_NOT_FOUND: { status: 404, message: 'Invitation not found' },
  INVITATION_NOT_YOURS: {
    status: 403,
    message: 'This invitation was sent to another email address. Sign in with that address to accept it.',
  },
  INVITATION_ALREADY_ACCEPTED: { status: 409, message: 'This invitation has already been accepted' },
  ICP_MISMATCH: {
    status: 422,
    message: "This client does not match the vendor's ideal customer profile, so the referral cannot be routed.",
  },
  LEAD_NOT_FOUND: { status: 404, message: 'Lead not found' },
  LEAD_ALREADY_DECIDED: { status: 409, message: 'This lead has already been accepted or declined' },

  // Enrichment
  ENRICHMENT_NOT_CONFIGURED: { status: 404, message: 'Enrichment is not configured' },
  INVALID_SIGNATURE: { status: 401, message: 'Invalid signature' },
  ENRICHMENT_NOT_EXPECTED: { status: 404, message: 'Referral not found' },

  // Sending intro emails and the program check (issue 11)
  SEND_QUOTA_EXCEEDED: {
    status: 429,
    message: 'You have reached the limit of intro email recipients for now. Please try again later.',
  },
  PROGRAM_CHECK_UNAVAILABLE: {
    status: 503,
    message: "We couldn't check this vendor's referral program right now. Please try again.",
  },

  // Accounts hardening (issue 11)
  /** Too many consecutive failed logins for one email: locked for a growing delay (the message names it). */
  LOGIN_BACKOFF: { status: 429, message: 'Too many failed attempts. Please wait a few minutes and try again.' },

  // Hardening: documents and enrichment
  DOCUMENT_TOO_COMPLEX: {
    status: 422,
    message:
      'The document is too long or too complex to analyze (at most 1,000,000 characters of text). Please upload a shorter document or use Manual Entry.',
  },
  UPLOAD_INCOMPLETE: { status: 400, message: 'The upload did not complete. Please try again.' },
  CALLBACK_EXPIRED: {
    status: 401,
    message: 'The callback timestamp is missing, older than 5 minutes or in the future',
  },
  CALLBACK_REPLAYED: { status: 409, message: 'This callback was already received' },

  // Gateway: bodies, addresses and headers refused before any service sees them
  BODY_TIMEOUT: { status: 408, message: 'The request took too long to arrive. Please try again.' },
  URI_TOO_LONG: { status: 414, message: 'The address is too long' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/**
 * Every error answer of every service and of the gateway has this one shape. `field` names the input
 * that was refused (dotted path), so a form can show the message next to it.
 */
export const ErrorResponse = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
  field: z.string().optional(),
  /** Reasons behind a refusal, each a sentence (e.g. the ICP criteria a referral fails). */
  details: z.array(z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** Whether a value is an error answer (any object with a known code and a message). */
export const isErrorResponse = (value: unknown): value is ErrorResponse => ErrorResponse.safeParse(value).success;
