import {
  bounties,
  demoRequest,
  home,
  login,
  onboarding,
  referralDraft,
  resendVerification,
  signup,
} from './public-paths';

/**
 * Every route of the app (spec 2), in one place: screens link with `paths`, the route tables declare them
 * (`routePatterns` for the ones with parameters). No zod and no contracts here.
 */
export const paths = {
  home,
  login,
  signup,
  demoRequest,
  resendVerification,
  onboarding,
  bounties,
  dashboard: '/dashboard',
  referralImpact: '/referral-impact',
  discover: '/discover',
  submitReferral: '/submit-referral',
  account: '/account',
  accountEmail: '/account/email',
  accountPassword: '/account/password',
  testClay: '/test-clay',
  admin: '/admin',
  /** The vendor workspace (issue 9): verification, members, invitations, lead inbox address. */
  vendor: '/vendor',
  /** The vendor's lead inbox: the referrals routed to the selected verified workspace. */
  vendorLeads: '/vendor/leads',
  /** The submitted screen of a referral (its id: digits, spec 5). */
  referral: (id: string | number) => `/referral/${id}`,
  /** The intro email draft of a referral. */
  referralDraft,
} as const;

/** The patterns of the routes with parameters, as React Router reads them. */
export const routePatterns = {
  referral: paths.referral(':id'),
  referralDraft: paths.referralDraft(':id'),
};

export { isVerificationPath, loginReturningTo, NEXT_PARAM } from './public-paths';

/**
 * Where to go after signing in: `value` when it is a path of this origin (never another site: no scheme,
 * no `//host`, no backslash tricks), and not the sign-in screens themselves; else home.
 */
export function nextPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return home;
  try {
    const base = window.location.origin;
    const url = new URL(value, base);
    if (url.origin !== base || url.pathname === login || url.pathname === signup) return home;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return home;
  }
}
