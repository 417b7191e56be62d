import type { ProductInfo } from '@/stores/search-slice';

/** What the search screen's Yes carries to /submit-referral in the navigation state (spec 2). */
export interface SubmitReferralState {
  searchResult: string;
  originalQuery: string;
  productInfo: ProductInfo;
}

/** What /submit-referral carries to the submitted screen (/referral/{id}) after a successful create. */
export interface SubmittedReferralState {
  justSubmitted: true;
}

const isText = (value: unknown): value is string => typeof value === 'string';

export function readSubmitReferralState(state: unknown): SubmitReferralState | null {
  if (!state || typeof state !== 'object') return null;
  const { searchResult, originalQuery, productInfo } = state as Partial<Record<keyof SubmitReferralState, unknown>>;
  if (!productInfo || typeof productInfo !== 'object') return null;
  const { product, company, description, website } = productInfo as Partial<Record<keyof ProductInfo, unknown>>;
  if (!isText(product) || !isText(company) || !isText(description)) return null;
  return {
    searchResult: isText(searchResult) ? searchResult : '',
    originalQuery: isText(originalQuery) ? originalQuery : '',
    productInfo: { product, company, description, ...(isText(website) && website ? { website } : {}) },
  };
}

/**
 * What the referral form carries to Smart Match (/discover) when the vendor does not want this client: the
 * need and what is known of the client, to start from.
 */
export interface DiscoverPrefill {
  need: string;
  company: string;
  website: string;
  industry: string;
  country: string;
  companySize?: string;
}

export interface DiscoverState {
  prefill: DiscoverPrefill;
}

export function readDiscoverState(state: unknown): DiscoverPrefill | null {
  if (!state || typeof state !== 'object') return null;
  const prefill = (state as Partial<DiscoverState>).prefill;
  if (!prefill || typeof prefill !== 'object') return null;
  const text = (value: unknown) => (isText(value) ? value : '');
  const size = (prefill as Partial<DiscoverPrefill>).companySize;
  return {
    need: text(prefill.need),
    company: text(prefill.company),
    website: text(prefill.website),
    industry: text(prefill.industry),
    country: text(prefill.country),
    ...(isText(size) && size ? { companySize: size } : {}),
  };
}

export const isJustSubmitted = (state: unknown): boolean =>
  !!state && typeof state === 'object' && (state as Partial<SubmittedReferralState>).justSubmitted === true;
