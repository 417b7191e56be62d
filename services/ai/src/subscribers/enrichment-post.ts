import { defineSubscriber } from '../db.ts';
import type { EnrichmentRequests } from '../enrichment/requests.ts';

/**
 * With enrichment on, a new referral is posted to the webhook once its local draft is written. Outside any
 * transaction (an HTTP call with retries); idempotent through the request's status.
 */
export const enrichmentPost = (requests: EnrichmentRequests) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'ai-enrichment-post',
    event: 'referral.created',
    handle: ({ event, log }) => requests.post(event, log),
  });
