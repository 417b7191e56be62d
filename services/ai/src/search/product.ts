/** A product the search can answer with, as the Selected Product card shows it. */
export interface Product {
  product: string;
  company: string;
  description: string;
  /** https URL of the product's site, when known. */
  website: string | null;
  /** Other names people type for it ("sfdc", "office 365"). */
  aliases?: string[];
}

/**
 * Where a product is known from, in order of trust when two match equally: programs the vendors manage
 * (the programs service's read model), the bundled catalogue, then products users typed into referrals.
 */
export const ORIGINS = ['program', 'catalogue', 'referral'] as const;
export type Origin = (typeof ORIGINS)[number];

/** A supplier of products to search; the programs service's programs plug in here when they exist. */
export interface ProductSource {
  origin: Origin;
  products(): Promise<readonly Product[]>;
}
