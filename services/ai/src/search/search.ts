import { NOT_FOUND, type SearchResponse } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { metrics } from '@app/kit';
import type { LanguageModel } from '@app/llm';
import { completion, LOCAL_MODEL, notFound, type Answer, type FoundBy } from './answer.ts';
import { askModelForProduct } from './llm-search.ts';
import { indexProducts, matchProduct, type ProductIndex, type ProductMatch } from './matcher.ts';
import { isGenericWord, matchNeed, type NeedIndex, type NeedMatch } from './need-match.ts';
import { compact } from './normalize.ts';
import type { Product, ProductSource } from './product.ts';

/** How many products the referrer is offered instead of the main answer. */
export const ALTERNATIVES = 3;

const fromProduct = (product: Product): Answer => ({
  product: product.product,
  company: product.company,
  description: product.description,
  website: product.website,
});

const sameProduct = (a: { product: string }, b: { product: string }) => compact(a.product) === compact(b.product);

const others = (main: { product: string }, list: readonly Product[]) =>
  list.filter((product) => !sameProduct(product, main)).slice(0, ALTERNATIVES);

interface Decision {
  answer: Answer;
  matchedBy: FoundBy;
  alternatives: Product[];
}

/**
 * What local knowledge answers: the product the text names, or the products that fit the need it
 * describes. A name found in part ("zendsek support") wins over the need unless it was found on words
 * that describe software ("team" is not Microsoft Teams, "remote" not Remote, "data" not Drata); a named
 * product of the need's own kind stays the answer, with the others as alternatives.
 */
function decide(local: ProductMatch | null, need: NeedMatch | null, needs: NeedIndex | null): Decision | null {
  const fromLocal = (alternatives: Product[] = []): Decision => ({
    answer: fromProduct(local!.product),
    matchedBy: local!.matchedBy,
    alternatives,
  });
  const fromNeed = (): Decision => ({
    answer: fromProduct(need!.products[0]!),
    matchedBy: 'need',
    alternatives: others(need!.products[0]!, need!.products),
  });
  if (local?.exact) return fromLocal();
  // "Zoom alternative", "like Slack": another product of that kind; "connect Stripe, HubSpot and Slack":
  // the kind of software that joins them, not one of them.
  if (need && (need.alike || need.named >= 2)) {
    const rest = need.alike && local ? need.products.filter((product) => !sameProduct(product, local.product)) : [];
    const list = rest.length ? rest : need.products;
    return { answer: fromProduct(list[0]!), matchedBy: 'need', alternatives: others(list[0]!, list) };
  }
  // Found in part on words that describe software only ("software for a team" is not Microsoft Teams).
  const generic = !!local && !!needs && local.words.every((word) => isGenericWord(word, needs));
  if (local && need) {
    if (need.products.some((product) => sameProduct(product, local.product)))
      return fromLocal(others(local.product, need.products));
    return generic ? fromNeed() : fromLocal();
  }
  if (need) return fromNeed();
  if (local && !generic) return fromLocal();
  return null;
}

/**
 * POST /api/search. Local knowledge first: an exact match (the whole text is a product's name, alias,
 * company or web address) is answered locally, deterministic and free. Otherwise the language model is
 * asked when configured; its refused or 'Not found' answer falls back to local knowledge: the need the
 * text describes ("CRM for a 10-person sales team") or the typo-tolerant name match, then to the spec's
 * not-found defaults. An answer to a need carries up to three alternatives the referrer can pick instead.
 */
export function productSearch(options: { sources: ProductSource[]; model: LanguageModel | null; needs?: NeedIndex }) {
  const { sources, model } = options;
  const needs = options.needs ?? null;
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

  const needMatch = (query: string) => (needs ? matchNeed(query, needs) : null);

  /** Products the model named as alternatives, kept only when known exactly (so each can be shown in full). */
  async function known(names: readonly string[], main: Answer): Promise<Product[]> {
    const found: Product[] = [];
    for (const name of names) {
      const match = await localMatch(name);
      if (match?.exact && !sameProduct(match.product, main) && !found.some((p) => sameProduct(p, match.product)))
        found.push(match.product);
    }
    return found.slice(0, ALTERNATIVES);
  }

  return {
    localMatch,
    needMatch,

    async answer(query: string, log: FastifyBaseLogger): Promise<SearchResponse> {
      const local = await localMatch(query);
      const need = local?.exact ? null : needMatch(query);
      const offline = decide(local, need, needs);
      if (!local?.exact && !model) metrics.modelFallbacks.inc({ purpose: 'search', reason: 'not_configured' });
      if (local?.exact || !model) {
        return offline
          ? completion(offline.answer, LOCAL_MODEL, offline.matchedBy, offline.alternatives)
          : completion(notFound, LOCAL_MODEL, 'none');
      }
      const asked = await askModelForProduct(model, query, log);
      if (asked && asked.product !== NOT_FOUND) {
        let alternatives = await known(asked.alternatives, asked);
        if (!alternatives.length && need) alternatives = others(asked, need.products);
        return completion(asked, model.model, 'llm', alternatives);
      }
      if (offline) return completion(offline.answer, LOCAL_MODEL, offline.matchedBy, offline.alternatives);
      return completion(notFound, asked ? model.model : LOCAL_MODEL, 'none');
    },
  };
}

export type ProductSearch = ReturnType<typeof productSearch>;
