import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { indexNeeds, type Category, type NeedIndex } from '../search/need-match.ts';
import type { Product, ProductSource } from '../search/product.ts';

const CatalogueEntry = z.strictObject({
  product: z.string().min(1).max(200),
  company: z.string().min(1).max(200),
  website: z.url({ protocol: /^https$/ }),
  description: z.string().min(1).max(300),
  aliases: z.array(z.string().min(1).max(100)).optional(),
});

/**
 * Well-known business software bundled with the service, so search answers usefully and the same way
 * every time without any external service. Checked when loaded: a bad entry stops the start, not a search.
 */
export function loadCatalogue(): readonly Product[] {
  const raw: unknown = JSON.parse(readFileSync(new URL('./products.json', import.meta.url), 'utf8'));
  return Object.freeze(z.array(CatalogueEntry).parse(raw));
}

export function catalogueSource(products: readonly Product[] = loadCatalogue()): ProductSource {
  return { origin: 'catalogue', products: async () => products };
}

const CategoryEntry = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string().min(1).max(100),
  phrases: z.array(z.string().min(1).max(100)).min(1),
  products: z.array(z.string().min(1).max(200)).min(1),
});

/** Kinds of software with the words people use for them and their catalogue products, best first. */
export function loadCategories(): readonly Category[] {
  const raw: unknown = JSON.parse(readFileSync(new URL('./categories.json', import.meta.url), 'utf8'));
  return Object.freeze(z.array(CategoryEntry).parse(raw));
}

/** The index a need ("CRM for a 10-person sales team") is matched against; a category naming an unknown product stops the start. */
export function catalogueNeeds(products: readonly Product[] = loadCatalogue()): NeedIndex {
  return indexNeeds(loadCategories(), products);
}
