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
  const { product, company, description } = productInfo as Partial<Record<keyof ProductInfo, unknown>>;
  if (!isText(product) || !isText(company) || !isText(description)) return null;
  return {
    searchResult: isText(searchResult) ? searchResult : '',
    originalQuery: isText(originalQuery) ? originalQuery : '',
    productInfo: { product, company, description },
  };
}

export const isJustSubmitted = (state: unknown): boolean =>
  !!state && typeof state === 'object' && (state as Partial<SubmittedReferralState>).justSubmitted === true;
