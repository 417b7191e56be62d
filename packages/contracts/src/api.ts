import type { z } from 'zod';
import { ErrorResponse, MessageResponse } from './common.ts';
import {
  AuthResponse,
  LoginRequest,
  RegisterRequest,
  ResendVerificationRequest,
  User,
  VerifyEmailQuery,
  VerifyEmailResponse,
} from './auth.ts';
import {
  AutomateRequest,
  AutomateResponse,
  CreateReferralRequest,
  EmailDraftCheckResponse,
  EmailDraftResponse,
  ListReferralsQuery,
  Referral,
  ReferralList,
  ReferralProgramResponse,
  SendEmailRequest,
  SendEmailResponse,
  UpdateStatusRequest,
} from './referrals.ts';
import { SearchRequest, SearchResponse } from './search.ts';
import { EnrichmentCallback, TestWebhookResponse } from './enrichment.ts';
import { MatchRequest, MatchResponse } from './match.ts';
import { ChangeEmailRequest, ChangePasswordRequest } from './account.ts';
import { DemoRequest } from './demo.ts';
import { Commission, ImpactQuery, ImpactSummary } from './impact.ts';
import { Bounties, LeadCriteria, SavedBounties, SavedLeadCriteria } from './profiles.ts';
import { CreateProgramRequest, Program, ProgramAnalysis, UpdateProgramRequest } from './programs.ts';

export type ServiceName = 'auth' | 'referrals' | 'programs' | 'profiles' | 'ai' | 'mail';

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path as the browser calls it, with `{param}` placeholders (OpenAPI style). */
  path: string;
  service: ServiceName;
  summary: string;
  /** Whether the gateway requires a signed-in user before forwarding. */
  auth: 'required' | 'optional' | 'none';
  body?: z.ZodType;
  query?: z.ZodType;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
}

const badRequest = { description: 'Invalid input', schema: ErrorResponse };
const unauthenticated = { description: 'Not signed in', schema: ErrorResponse };
const tooMany = { description: 'Too many attempts', schema: ErrorResponse };
const forbidden = { description: 'Not your referral', schema: ErrorResponse };
const missing = { description: 'No such referral', schema: ErrorResponse };

/**
 * The public `/api` surface: the gateway routes from it and documents it (OpenAPI), services validate
 * against the same schemas. Routes of services still to be built are added with them.
 */
export const apiRoutes: ApiRoute[] = [
  {
    method: 'POST',
    path: '/api/register',
    service: 'auth',
    auth: 'none',
    summary: 'Create an account, start a session and send the verification email',
    body: RegisterRequest,
    responses: {
      201: { description: 'Account created', schema: AuthResponse },
      400: badRequest,
      409: { description: 'Email already registered', schema: ErrorResponse },
      429: tooMany,
    },
  },
  {
    method: 'POST',
    path: '/api/login',
    service: 'auth',
    auth: 'none',
    summary: 'Sign in with email and password',
    body: LoginRequest,
    responses: {
      200: { description: 'Signed in; sets the session cookie', schema: AuthResponse },
      400: badRequest,
      401: { description: 'Wrong email or password', schema: ErrorResponse },
      403: { description: "Email not verified (message contains 'Email not verified')", schema: AuthResponse },
      429: tooMany,
    },
  },
  {
    method: 'POST',
    path: '/api/logout',
    service: 'auth',
    auth: 'optional',
    summary: 'End the current session',
    responses: { 200: { description: 'Signed out', schema: MessageResponse } },
  },
  {
    method: 'GET',
    path: '/api/user',
    service: 'auth',
    auth: 'required',
    summary: 'The signed-in user',
    responses: { 200: { description: 'Current user', schema: User }, 401: unauthenticated },
  },
  {
    method: 'GET',
    path: '/api/verify-email',
    service: 'auth',
    auth: 'none',
    summary: 'Verify an email address from the emailed link',
    query: VerifyEmailQuery,
    responses: {
      200: { description: 'Verified', schema: VerifyEmailResponse },
      400: { description: 'Invalid, used or expired link', schema: ErrorResponse },
    },
  },
  {
    method: 'POST',
    path: '/api/resend-verification',
    service: 'auth',
    auth: 'none',
    summary: 'Send a new verification link (answers the same whether or not the email is registered)',
    body: ResendVerificationRequest,
    responses: { 200: { description: 'Accepted', schema: MessageResponse }, 400: badRequest, 429: tooMany },
  },
  {
    method: 'POST',
    path: '/api/search',
    service: 'ai',
    auth: 'required',
    summary: 'Find the product, company and description for what the user typed (chat-completion shape)',
    body: SearchRequest,
    responses: {
      200: { description: 'Best match, as labelled lines', schema: SearchResponse },
      400: badRequest,
      401: unauthenticated,
      429: tooMany,
    },
  },
  {
    method: 'POST',
    path: '/api/referrals',
    service: 'referrals',
    auth: 'required',
    summary: 'Submit a referral of a person to a product',
    body: CreateReferralRequest,
    responses: { 201: { description: 'Created', schema: Referral }, 400: badRequest, 401: unauthenticated },
  },
  {
    method: 'GET',
    path: '/api/referrals',
    service: 'referrals',
    auth: 'required',
    summary: "The user's referrals, filtered and paged, with summary figures",
    query: ListReferralsQuery,
    responses: {
      200: { description: 'A page of referrals', schema: ReferralList },
      400: badRequest,
      401: unauthenticated,
    },
  },
  {
    method: 'GET',
    path: '/api/referrals/{id}',
    service: 'referrals',
    auth: 'required',
    summary: 'One referral with its project, draft and status history',
    responses: {
      200: { description: 'The referral', schema: Referral },
      400: badRequest,
      401: unauthenticated,
      403: forbidden,
      404: missing,
    },
  },
  {
    method: 'GET',
    path: '/api/referrals/{id}/email-draft',
    service: 'referrals',
    auth: 'required',
    summary: 'The intro email draft (with ?checkOnly=true: only whether it is ready and where it came from)',
    responses: {
      200: {
        description: 'The draft, or with checkOnly the readiness',
        schema: EmailDraftResponse.or(EmailDraftCheckResponse),
      },
      400: badRequest,
      401: unauthenticated,
      403: forbidden,
      404: { description: 'No such referral, or no draft yet', schema: ErrorResponse },
    },
  },
  {
    method: 'POST',
    path: '/api/referrals/{id}/send-email',
    service: 'referrals',
    auth: 'required',
    summary: 'Send the (edited) intro email; From the product, Reply-To the referrer',
    body: SendEmailRequest,
    responses: {
      200: { description: 'Queued for sending', schema: SendEmailResponse },
      400: badRequest,
      401: unauthenticated,
      403: forbidden,
      404: missing,
      409: { description: 'Already sent', schema: ErrorResponse },
    },
  },
  {
    method: 'PUT',
    path: '/api/referrals/{id}/status',
    service: 'referrals',
    auth: 'required',
    summary: 'Move a referral to another stage',
    body: UpdateStatusRequest,
    responses: {
      200: { description: 'Updated referral', schema: Referral },
      400: badRequest,
      401: unauthenticated,
      403: forbidden,
      404: missing,
    },
  },
  {
    method: 'GET',
    path: '/api/products/{projectId}/referral-program',
    service: 'referrals',
    auth: 'required',
    summary: "Whether the product's vendor has a referral program",
    responses: {
      200: { description: "The program's text, or one starting with 'NO'", schema: ReferralProgramResponse },
      400: badRequest,
      401: unauthenticated,
      404: { description: 'No such product', schema: ErrorResponse },
    },
  },
  {
    method: 'POST',
    path: '/api/referrals/{id}/automate',
    service: 'referrals',
    auth: 'required',
    summary: "Dry run of filling the vendor's referral form (never submits anything)",
    body: AutomateRequest,
    responses: {
      200: { description: 'Outcome of the dry run', schema: AutomateResponse },
      400: badRequest,
      401: unauthenticated,
      403: forbidden,
      404: missing,
    },
  },
  {
    method: 'GET',
    path: '/api/test-clay-webhook',
    service: 'ai',
    auth: 'required',
    summary: 'Check that the enrichment webhook (ENRICHMENT_WEBHOOK_URL) answers',
    responses: {
      200: { description: 'Outcome, or that no webhook is configured', schema: TestWebhookResponse },
      401: unauthenticated,
    },
  },
  {
    method: 'POST',
    path: '/api/enrichment/callback',
    service: 'ai',
    auth: 'none',
    summary:
      'The enrichment service delivers a draft (x-signature: sha256=HMAC of the raw body with ENRICHMENT_WEBHOOK_SECRET)',
    body: EnrichmentCallback,
    responses: {
      200: { description: 'Draft accepted', schema: MessageResponse },
      400: badRequest,
      401: { description: 'Missing or wrong signature', schema: ErrorResponse },
      404: { description: 'No enrichment was requested for this referral', schema: ErrorResponse },
    },
  },
  {
    method: 'GET',
    path: '/api/lead-criteria',
    service: 'profiles',
    auth: 'required',
    summary: "The user's saved Ideal Customer Profile",
    responses: {
      200: { description: 'Saved profile', schema: SavedLeadCriteria },
      401: unauthenticated,
      404: { description: 'None saved yet', schema: ErrorResponse },
    },
  },
  {
    method: 'POST',
    path: '/api/lead-criteria',
    service: 'profiles',
    auth: 'required',
    summary: 'Save the Ideal Customer Profile (the eleven fields); requires a verified email',
    body: LeadCriteria,
    responses: {
      200: { description: 'Saved', schema: SavedLeadCriteria },
      400: badRequest,
      401: unauthenticated,
      403: { description: 'Email not verified', schema: ErrorResponse },
    },
  },
  {
    method: 'GET',
    path: '/api/bounties',
    service: 'profiles',
    auth: 'required',
    summary: "The user's saved bounties",
    responses: {
      200: { description: 'Saved bounties', schema: SavedBounties },
      401: unauthenticated,
      404: { description: 'None saved yet', schema: ErrorResponse },
    },
  },
  {
    method: 'POST',
    path: '/api/bounties',
    service: 'profiles',
    auth: 'required',
    summary: 'Save the bounties per milestone; requires a verified email',
    body: Bounties,
    responses: {
      200: { description: 'Saved', schema: SavedBounties },
      400: badRequest,
      401: unauthenticated,
      403: { description: 'Email not verified', schema: ErrorResponse },
    },
  },
  {
    method: 'GET',
    path: '/api/programs/all',
    service: 'programs',
    auth: 'required',
    summary: 'Every referral program (administrators see inactive ones too)',
    responses: { 200: { description: 'Programs', schema: Program.array() }, 401: unauthenticated },
  },
  {
    method: 'POST',
    path: '/api/programs',
    service: 'programs',
    auth: 'required',
    summary: 'Create a referral program (administrators only)',
    body: CreateProgramRequest,
    responses: {
      201: { description: 'Created', schema: Program },
      400: badRequest,
      401: unauthenticated,
      403: { description: 'Not an administrator', schema: ErrorResponse },
    },
  },
  {
    method: 'PATCH',
    path: '/api/programs/{id}',
    service: 'programs',
    auth: 'required',
    summary: 'Change a referral program, e.g. its active switch (administrators only)',
    body: UpdateProgramRequest,
    responses: {
      200: { description: 'Updated', schema: Program },
      400: badRequest,
      401: unauthenticated,
      403: { description: 'Not an administrator', schema: ErrorResponse },
      404: { description: 'No such program', schema: ErrorResponse },
    },
  },
  {
    method: 'POST',
    path: '/api/analyze-referral-program',
    service: 'programs',
    auth: 'required',
    summary:
      'Upload a program document (multipart field `file`: PDF, DOC, DOCX, TXT, PNG, JPG; at most 10 MB) and extract the program (administrators only)',
    responses: {
      200: { description: 'Fields found in the document', schema: ProgramAnalysis },
      400: badRequest,
      401: unauthenticated,
      403: { description: 'Not an administrator', schema: ErrorResponse },
      413: { description: 'Larger than 10 MB', schema: ErrorResponse },
      415: { description: 'Not a supported document type', schema: ErrorResponse },
    },
  },
  {
    method: 'POST',
    path: '/api/match',
    service: 'ai',
    auth: 'required',
    summary: "Smart Match: rank active programs by fit to the client's need and each vendor's ICP, with the reward",
    body: MatchRequest,
    responses: {
      200: { description: 'Ranked programs and the ones left out', schema: MatchResponse },
      400: badRequest,
      401: unauthenticated,
    },
  },
  {
    method: 'GET',
    path: '/api/referral-impact',
    service: 'referrals',
    auth: 'required',
    summary: "The referrer's impact: rates, pipeline, commissions and payouts, activity, funnel, leaderboard, trends",
    query: ImpactQuery,
    responses: { 200: { description: 'Impact summary', schema: ImpactSummary }, 400: badRequest, 401: unauthenticated },
  },
  {
    method: 'GET',
    path: '/api/commissions',
    service: 'referrals',
    auth: 'required',
    summary: "The referrer's commissions (the Payout Summary's lines, for CSV export)",
    query: ImpactQuery,
    responses: {
      200: { description: 'Commissions', schema: Commission.array() },
      400: badRequest,
      401: unauthenticated,
    },
  },
  {
    method: 'POST',
    path: '/api/commissions/{id}/payout',
    service: 'referrals',
    auth: 'required',
    summary: 'Record that a commission was paid out (administrators only)',
    responses: {
      200: { description: 'Paid out', schema: Commission },
      401: unauthenticated,
      403: { description: 'Not an administrator', schema: ErrorResponse },
      404: { description: 'No such commission', schema: ErrorResponse },
    },
  },
  {
    method: 'POST',
    path: '/api/demo-request',
    service: 'profiles',
    auth: 'none',
    summary: 'Ask for a demo; the sales team is told by email',
    body: DemoRequest,
    responses: { 201: { description: 'Stored', schema: MessageResponse }, 400: badRequest, 429: tooMany },
  },
  {
    method: 'POST',
    path: '/api/account/password',
    service: 'auth',
    auth: 'required',
    summary: 'Change the password (current one checked; other sessions end)',
    body: ChangePasswordRequest,
    responses: {
      200: { description: 'Changed', schema: MessageResponse },
      400: badRequest,
      401: unauthenticated,
      403: { description: 'Wrong current password', schema: ErrorResponse },
      429: tooMany,
    },
  },
  {
    method: 'POST',
    path: '/api/account/email',
    service: 'auth',
    auth: 'required',
    summary: 'Change the email (password checked); takes effect when the link sent to the new address is opened',
    body: ChangeEmailRequest,
    responses: {
      200: { description: 'Link sent', schema: MessageResponse },
      400: badRequest,
      401: unauthenticated,
      403: { description: 'Wrong password', schema: ErrorResponse },
      409: { description: 'Email in use', schema: ErrorResponse },
      429: tooMany,
    },
  },
];

/**
 * Which service owns each `/api` path of the product (spec section 7), by path prefix. The gateway
 * forwards by this table; `apiRoutes` above documents the routes that are built.
 */
export const apiOwners: Array<{ prefix: string; service: ServiceName }> = [
  { prefix: '/api/register', service: 'auth' },
  { prefix: '/api/login', service: 'auth' },
  { prefix: '/api/logout', service: 'auth' },
  { prefix: '/api/user', service: 'auth' },
  { prefix: '/api/verify-email', service: 'auth' },
  { prefix: '/api/resend-verification', service: 'auth' },
  { prefix: '/api/referrals', service: 'referrals' },
  { prefix: '/api/products', service: 'referrals' },
  { prefix: '/api/referral-impact', service: 'referrals' },
  { prefix: '/api/programs', service: 'programs' },
  { prefix: '/api/analyze-referral-program', service: 'programs' },
  { prefix: '/api/lead-criteria', service: 'profiles' },
  { prefix: '/api/bounties', service: 'profiles' },
  { prefix: '/api/demo-request', service: 'profiles' },
  { prefix: '/api/search', service: 'ai' },
  { prefix: '/api/test-clay-webhook', service: 'ai' },
  { prefix: '/api/enrichment', service: 'ai' },
  { prefix: '/api/match', service: 'ai' },
  { prefix: '/api/commissions', service: 'referrals' },
  { prefix: '/api/account', service: 'auth' },
];
