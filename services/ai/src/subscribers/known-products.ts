import { defineSubscriber } from '../db.ts';
import type { knownProducts } from '../search/known-products.ts';

/** The product of every new referral becomes searchable; an upsert by the product's key, idempotent by itself. */
export const knownProductsSubscriber = (known: ReturnType<typeof knownProducts>) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'ai-known-products',
    event: 'referral.created',
    handle: ({ event }) => known.remember(event.payload.project),
  });
