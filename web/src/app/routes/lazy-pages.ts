import { lazy, type ComponentType } from 'react';

/**
 * Route-level code splitting: each screen is its own chunk, loaded when its route is first shown.
 *
 * Every screen but the landing page may build zod schemas, so its chunk is imported only after
 * `lib/zod-config` (zod jitless, for the CSP) has run; this keeps zod out of the entry chunk and the landing
 * page's JavaScript (README: landing page bundle).
 */
export const zodFirst = () => import('@/lib/zod-config');

/** A screen loaded after zod's config: the chunk `load` brings, and the screen's name in it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each screen has its own props
export function afterZod<M extends Record<K, ComponentType<any>>, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(() =>
    zodFirst()
      .then(load)
      .then((m) => ({ default: m[name] })),
  );
}

const loadLanding = () => import('@/features/landing/components/landing-page');
export const LandingPage = lazy(() => loadLanding().then((m) => ({ default: m.LandingPage })));
/** Starts fetching the landing chunk while the session is still being read (main.tsx, on `/` only). */
export const preloadLandingPage = () => void loadLanding();
export const AuthPage = afterZod(() => import('@/features/auth/components/auth-page'), 'AuthPage');
export const VerifyEmailPage = afterZod(
  () => import('@/features/verification/components/verify-email-page'),
  'VerifyEmailPage',
);
export const ResendVerificationPage = afterZod(
  () => import('@/features/verification/components/resend-verification-page'),
  'ResendVerificationPage',
);
export const DemoRequestPage = afterZod(
  () => import('@/features/demo-request/components/demo-request-page'),
  'DemoRequestPage',
);
/**
 * The lead criteria and bounty pages are signed-out routes too (spec 2), but carry the vendor workspace pieces:
 * the entry names one small chunk (`profile-pages.ts`) that loads them, rather than every chunk they need.
 */
export const OnboardingPage = afterZod(() => import('./profile-pages'), 'OnboardingPage');
export const BountiesPage = afterZod(() => import('./profile-pages'), 'BountiesPage');

/** The signed-in route table and its screens (`signed-in-pages.ts`): a chunk of its own, not in the entry. */
export const SignedInRoutes = afterZod(() => import('./signed-in-routes'), 'SignedInRoutes');
