import { DEFAULT_FILTERS, type ReferralFilters } from '../api/list-referrals';

/** Spec 2: 'Welcome, {first name, else the part of the email before the at-sign, else User}'. */
export function greetingName(user: { firstName?: string | null; email?: string | null }): string {
  const first = user.firstName?.trim();
  if (first) return first;
  const local = user.email?.split('@')[0]?.trim();
  return local || 'User';
}

/** Spec 9: Clear shows once any filter differs from the default. */
export const isDefaultFilters = (filters: ReferralFilters) =>
  filters.search === DEFAULT_FILTERS.search &&
  filters.status === DEFAULT_FILTERS.status &&
  filters.company === DEFAULT_FILTERS.company &&
  filters.days === DEFAULT_FILTERS.days;
