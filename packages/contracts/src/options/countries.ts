export interface Country {
  name: string;
  code: string;
  flag: string;
}

/** About 200 countries with two-letter code and flag (spec 3). Filled in by the vendor-side work. */
export const COUNTRIES: readonly Country[] = [{ name: 'United States', code: 'US', flag: '🇺🇸' }];
