/**
 * Keys shared by features. The dashboard's list queries are keyed ['/api/referrals', filters]: invalidating
 * this prefix marks every page and filter combination out of date (e.g. after a new referral).
 */
export const referralListKey = ['/api/referrals'] as const;
