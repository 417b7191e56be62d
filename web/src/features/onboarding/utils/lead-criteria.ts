import type { LeadCriteria, LeadCriteriaInput } from '@app/contracts';

/** The form's values: every field a list of strings, but minRevenue (digits). */
export type CriteriaValues = { [K in keyof LeadCriteriaInput]-?: Exclude<LeadCriteriaInput[K], undefined> };

export const EMPTY_CRITERIA: CriteriaValues = {
  employeeCount: [],
  industries: [],
  countries: [],
  minRevenue: '',
  fundingStage: [],
  techStack: [],
  companyNotes: [],
  jobTitles: [],
  seniority: [],
  departments: [],
  contactNotes: [],
};

/** Digits only (spec 5), at most 15. */
export const revenueDigits = (text: string) => text.replace(/\D/g, '').slice(0, 15);
/** The digits with thousands separators, e.g. '1000000' → '1,000,000'. */
export const formatRevenue = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The saved profile as form values (only the eleven fields). */
export function criteriaValues(data: LeadCriteria): CriteriaValues {
  const out = { ...EMPTY_CRITERIA };
  for (const key of Object.keys(EMPTY_CRITERIA) as (keyof CriteriaValues)[]) {
    const value = (data as Partial<Record<keyof CriteriaValues, unknown>>)[key];
    if (key === 'minRevenue') out.minRevenue = typeof value === 'string' ? revenueDigits(value) : '';
    else if (Array.isArray(value))
      (out as Record<string, unknown>)[key] = value.filter((v): v is string => typeof v === 'string');
  }
  return out;
}
