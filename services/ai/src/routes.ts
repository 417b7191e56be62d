import { fail, type HandlersOf } from '@app/kit';
import type { LanguageModel } from '@app/llm';
import type { EnrichmentCallbacks } from './enrichment/callback.ts';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './enrichment/signature.ts';
import { testWebhook } from './enrichment/webhook-test.ts';
import type { EnrichmentWebhook } from './enrichment/webhook.ts';
import type { SmartMatch } from './match/smart-match.ts';
import { askReferralProgram } from './programs/referral-program.ts';
import type { ProductSearch } from './search/search.ts';

export const DRAFT_RECEIVED = 'Draft received';

/** Whether a request says its body is JSON (the callback's signature is checked on JSON only). */
const isJson = (contentType: string | undefined) =>
  contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';

/** The ai service's operations (contracts: `aiOperations`): input is parsed, call and reply. */
export function aiRoutes(deps: {
  search: ProductSearch;
  match: SmartMatch;
  callbacks: EnrichmentCallbacks;
  webhook: EnrichmentWebhook | null;
  model: LanguageModel | null;
}): HandlersOf<'ai'> {
  const { search, match, callbacks, webhook, model } = deps;
  return {
    searchProducts: ({ body, request }) => search.answer(body.query, request.log),
    smartMatch: ({ body, request }) => match(body, request.log),
    testEnrichmentWebhook: () => testWebhook(webhook),
    enrichmentCallback: async ({ rawBody, request }) => {
      if (rawBody.length && !isJson(request.headers['content-type'])) fail('UNSUPPORTED_MEDIA_TYPE');
      await callbacks.receiveDraft(rawBody, {
        signature: request.headers[SIGNATURE_HEADER],
        timestamp: request.headers[TIMESTAMP_HEADER],
      });
      return { message: DRAFT_RECEIVED };
    },
    askReferralProgram: ({ body, request }) => askReferralProgram(model, body, request.log),
  };
}
