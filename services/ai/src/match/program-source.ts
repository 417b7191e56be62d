import type { Product, ProductSource } from '../search/product.ts';
import type { Matcher, MatchProgramRecord } from './engine.ts';

/** Active referral programs as search products: the search's first source, so they win equal matches. */
export function programProducts(matcher: Matcher): ProductSource {
  let from: readonly MatchProgramRecord[] | null = null;
  let products: readonly Product[] = [];
  return {
    origin: 'program',
    async products() {
      const active = matcher.activePrograms();
      if (active !== from) {
        from = active;
        products = active.map((program) => ({
          product: program.name,
          // A program always names a company one can refer to (issue 12): its vendor's, its own, else its name.
          company: matcher.companyOf(program)?.trim() || program.name,
          description: program.description.slice(0, 1000),
          website: program.website || null,
        }));
      }
      return products;
    },
  };
}
