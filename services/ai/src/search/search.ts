import { NOT_FOUND, type SearchResponse } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { metrics } from '@app/kit';
import type { LanguageModel } from '@app/llm';
import { completion, LOCAL_MODEL, notFound, type Answer } from './answer.ts';
import { askModelForProduct } from './llm-search.ts';
import { indexProducts, matchProduct, type ProductIndex, type ProductMatch } from './matcher.ts';
import type { Product, ProductSource } from './product.ts';

const fromMatch = (match: ProductMatch): Answer => ({
  product: match.product.product,
  company: match.product.company,
  description: match.product.description,
  website: match.product.website,
});

/**
 * POST /api/search. Local knowledge first: an exact match (the whole text is a product's name, alias,
 * company or web address) is answered locally, deterministic and free. Otherwise the language model is
 * asked when configured; its refused or 'Not found' answer falls back to the local typo-tolerant match,
 * then to the spec's not-found defaults.
 */
export function productSearch(options: { sources: ProductSource[]; model: LanguageModel | null }) {
  const { sources, model } = options;
  // Indexing is redone only when a source hands out a new list.
  const indexes = new WeakMap<readonly Product[], ProductIndex>();

  async function localMatch(query: string): Promise<ProductMatch | null> {
    const current: ProductIndex[] = [];
    for (const source of sources) {
      const products = await source.products();
      let index = indexes.get(products);
      if (!index) indexes.set(products, (index = indexProducts(products, source.origin)));
      current.push(index);
    }
    return matchProduct(query, current);
  }

  return {
    localMatch,

    async answer(query: string, log: FastifyBaseLogger): Promise<SearchResponse> {
      const local = await localMatch(query);
      if (!local?.exact && !model) metrics.modelFallbacks.inc({ purpose: 'search', reason: 'not_configured' });
      if (local?.exact || !model)
        return local
          ? completion(fromMatch(local), LOCAL_MODEL, local.matchedBy)
          : completion(notFound, LOCAL_MODEL, 'none');
      const asked = await askModelForProduct(model, query, log);
      if (asked && asked.product !== NOT_FOUND) return completion(asked, model.model, 'llm');
      if (local) return completion(fromMatch(local), LOCAL_MODEL, local.matchedBy);
      return completion(notFound, asked ? model.model : LOCAL_MODEL, 'none');
    },
  };
}

export type ProductSearch = ReturnType<typeof productSearch>;
