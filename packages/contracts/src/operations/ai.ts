import { z } from 'zod';
import { MessageResponse } from '../common.ts';
import { EnrichmentCallback, TestWebhookResponse } from '../enrichment.ts';
import { MatchRequest, MatchResponse } from '../match.ts';
import { defineOperation } from '../operation.ts';
import { SearchRequest, SearchResponse } from '../search.ts';

/** What the referrals service asks the ai service about a product's vendor. */
export const ReferralProgramQuestion = z.strictObject({
  productName: z.string().trim().min(1, 'productName is required').max(200),
  companyName: z.string().trim().max(200).default(''),
  website: z.string().trim().max(500).nullable().default(null),
  /** The vendor workspace's website as referrals knows it (issue 12): where to look for the program. */
  vendorWebsite: z.string().trim().max(500).nullable().default(null),
  /** The vendor's referral program page as referrals knows it. */
  programWebsite: z.string().trim().max(500).nullable().default(null),
});
/** The program's summary when the model knows one; null for none or not known (or no model). */
export const ReferralProgramAnswer = z.object({ referralProgram: z.string().nullable() });

export const aiOperations = {
  searchProducts: defineOperation({
    method: 'POST',
    path: '/api/search',
    service: 'ai',
    access: 'user',
    summary: 'Find the product, company and description for what the user typed (chat-completion shape)',
    body: SearchRequest,
    response: { status: 200, description: 'Best match, as labelled lines', schema: SearchResponse },
  }),
  smartMatch: defineOperation({
    method: 'POST',
    path: '/api/match',
    service: 'ai',
    access: 'user',
    summary: "Smart Match: rank active programs by fit to the client's need and each vendor's ICP, with the reward",
    body: MatchRequest,
    response: { status: 200, description: 'Ranked programs and the ones left out', schema: MatchResponse },
  }),
  testEnrichmentWebhook: defineOperation({
    method: 'POST',
    path: '/api/test-clay-webhook',
    service: 'ai',
    access: 'admin',
    summary:
      'Check that the enrichment webhook (ENRICHMENT_WEBHOOK_URL) answers: its status, timing and field names, never its body (administrators only)',
    response: { status: 200, description: 'Outcome, or that no webhook is configured', schema: TestWebhookResponse },
  }),
  enrichmentCallback: defineOperation({
    method: 'POST',
    path: '/api/enrichment/callback',
    service: 'ai',
    access: 'public',
    bodyKind: 'raw',
    summary:
      'The enrichment service delivers a draft (x-signature-timestamp: Unix seconds; x-signature: sha256=HMAC of "<timestamp>.<raw body>" with ENRICHMENT_WEBHOOK_SECRET); refused when older than 5 minutes or replayed',
    body: EnrichmentCallback,
    response: { status: 200, description: 'Draft accepted', schema: MessageResponse },
    errors: [
      'ENRICHMENT_NOT_CONFIGURED',
      'INVALID_SIGNATURE',
      'CALLBACK_EXPIRED',
      'CALLBACK_REPLAYED',
      'ENRICHMENT_NOT_EXPECTED',
      'EMPTY_BODY',
      'UNSUPPORTED_MEDIA_TYPE',
    ],
  }),
  askReferralProgram: defineOperation({
    method: 'POST',
    path: '/internal/referral-program',
    service: 'ai',
    access: 'internal',
    summary: 'Whether a vendor has a referral program, from the language model (the referrals service only)',
    body: ReferralProgramQuestion,
    response: { status: 200, description: 'The answer', schema: ReferralProgramAnswer },
    errors: ['PROGRAM_CHECK_UNAVAILABLE'],
  }),
} as const;
