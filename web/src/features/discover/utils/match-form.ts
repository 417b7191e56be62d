import { MatchRequest, type ProgramMatch } from '@app/contracts';
import { z } from 'zod';
import type { DiscoverPrefill, SubmitReferralState } from '@/lib/referral-flow';

/** The Smart Match form as typed: text fields, '' for "not given"; the selects undefined until chosen. */
export interface MatchFormValues {
  need: string;
  company: string;
  website: string;
  industry: string;
  country: string;
  companySize?: string;
  role: string;
  integrations: string[];
  urgency?: string;
}

export const EMPTY_MATCH_FORM: MatchFormValues = {
  need: '',
  company: '',
  website: '',
  industry: '',
  country: '',
  role: '',
  integrations: [],
};

/** The form started from what the referral form knew of the client (its need, organization). */
export const prefilledMatchForm = (prefill: DiscoverPrefill | null): MatchFormValues =>
  prefill ? { ...EMPTY_MATCH_FORM, ...prefill } : EMPTY_MATCH_FORM;

/** The request: blank optional fields are left out. */
export function toMatchRequest(form: MatchFormValues): MatchRequest {
  const text = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());
  return {
    need: form.need,
    company: text(form.company),
    website: text(form.website),
    industry: text(form.industry),
    country: text(form.country),
    companySize: text(form.companySize) as MatchRequest['companySize'],
    role: text(form.role),
    integrations: form.integrations,
    urgency: text(form.urgency) as MatchRequest['urgency'],
  };
}

/** The form's schema: the request it makes, checked with the contract's MatchRequest (sent as built). */
export const MatchForm = z
  .custom<MatchFormValues>()
  .transform(toMatchRequest)
  .superRefine((request, ctx) => {
    const checked = MatchRequest.safeParse(request);
    if (checked.success) return;
    for (const issue of checked.error.issues)
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });

/** What the referral form receives: the same shape the search screen's Yes carries (spec 2). */
export function referralStateFor(match: ProgramMatch, need: string): SubmitReferralState {
  const company = match.companyName ?? match.programName;
  const description = match.description.replace(/\s+/g, ' ').trim();
  return {
    searchResult: `Product: ${match.programName}\nCompany: ${company}\nDescription: ${description}`,
    originalQuery: need.trim(),
    productInfo: { product: match.programName, company, description, website: match.website },
  };
}
