/**
 * The routes a signed-out visitor opens (spec 2), apart from the rest of `paths` (paths.ts) because the entry
 * chunk and the landing page import them, and the landing page's JavaScript has a budget
 * (scripts/bundle-budget.ts). Single exports, read as a namespace (`import * as paths`), so a bundle holds
 * the strings only, not an object of them.
 */
export const home = '/';
export const login = '/login';
export const signup = '/signup';
export const demoRequest = '/demo-request';
export const resendVerification = '/resend-verification';
export const onboarding = '/onboarding';
export const bounties = '/onboarding/bounties';

/** A referral's intro email draft; the signed-out route table sends it to /login (spec 2/6). */
export const referralDraft = (id: string | number) => `/referral/${id}/email-draft`;

/**
 * The verification screen's routes (spec 2): /email-verified, /verify-email and any path containing
 * verify-email, signed in or not.
 */
export const isVerificationPath = (pathname: string) => /^\/email-verified$|verify-email/.test(pathname);

/**
 * The signed-in routes a signed-out visitor is sent to /login from (issue 12). The onboarding routes stay in
 * the signed-out table (spec 2).
 */
export const isSignedInOnly = (pathname: string) =>
  /^\/(dashboard|referral-impact|discover|submit-referral|referral|account|test-clay|admin|vendor)(\/|$)/.test(
    pathname,
  );

/** The query parameter of /login naming where to return after signing in. */
export const NEXT_PARAM = 'next';

/** /login, returning to `target` (a path of this app) after signing in. */
export const loginReturningTo = (target: string) => `${login}?${NEXT_PARAM}=${encodeURIComponent(target)}`;
