import { operations, parseSearchContent, type ParsedProduct } from '@app/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

export interface SearchAnswer {
  /** `choices[0].message.content` as the server sent it. */
  text: string;
  product: ParsedProduct & { website?: string };
  /** Other products that fit the same need, best first (empty when the text named one product). */
  alternatives: Array<ParsedProduct & { website?: string }>;
}

/** POST /api/search {query}: a chat completion whose first choice's text holds the labelled lines (spec 3). */
export async function searchProducts(query: string): Promise<SearchAnswer> {
  const answer = await call(operations.searchProducts, { body: { query } });
  const text = answer.choices[0]!.message.content;
  const website = answer.website?.trim();
  const alternatives = (answer.alternatives ?? []).map((other) => ({
    product: other.product,
    company: other.company,
    description: other.description,
    website: other.website ?? '',
  }));
  return { text, product: { ...parseSearchContent(text), ...(website ? { website } : {}) }, alternatives };
}

export function useSearchProducts() {
  return useMutation({ mutationFn: searchProducts });
}
