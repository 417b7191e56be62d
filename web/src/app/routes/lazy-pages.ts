import { lazy } from 'react';

/**
 * Route-level code splitting: each screen is its own chunk, loaded when its route is first shown.
 *
 * Every screen but the landing page may build zod schemas, so its chunk is imported only after
 * `lib/zod-config` (zod jitless, for the CSP) has run; this keeps zod out of the entry chunk and the landing
 * page's JavaScript (README: landing page bundle).
 */
export const zodFirst = () => import('@/lib/zod-config');

const loadLanding = () => import('@/features/landing/components/landing-page');
export const LandingPage = lazy(() => loadLanding().then((m) => ({ default: m.LandingPage })));
/** Starts fetching the landing chunk while the session is still being read (main.tsx, on `/` only). */
export const preloadLandingPage = () => void loadLanding();
export const AuthPage = lazy(() =>
  zodFirst().then(() => import('@/features/auth/components/auth-page').then((m) => ({ default: m.AuthPage }))),
);
export const VerifyEmailPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/verification/components/verify-email-page').then((m) => ({ default: m.VerifyEmailPage })),
  ),
);
export const ResendVerificationPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/verification/components/resend-verification-page').then((m) => ({
      default: m.ResendVerificationPage,
    })),
  ),
);
export const DemoRequestPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/demo-request/components/demo-request-page').then((m) => ({ default: m.DemoRequestPage })),
  ),
);
export const OnboardingPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/onboarding/components/onboarding-page').then((m) => ({ default: m.OnboardingPage })),
  ),
);
export const BountiesPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/onboarding/components/bounties-page').then((m) => ({ default: m.BountiesPage })),
  ),
);

/** The signed-in route table and its screens (`signed-in-pages.ts`): a chunk of its own, not in the entry. */
export const SignedInRoutes = lazy(() =>
  zodFirst().then(() => import('./signed-in-routes').then((m) => ({ default: m.SignedInRoutes }))),
);
