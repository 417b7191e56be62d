import { lazy } from 'react';

/** Route-level code splitting: each screen is its own chunk, loaded when its route is first shown. */
export const LandingPage = lazy(() => import('@/features/landing/components/landing-page').then((m) => ({ default: m.LandingPage })));
export const AuthPage = lazy(() => import('@/features/auth/components/auth-page').then((m) => ({ default: m.AuthPage })));
export const VerifyEmailPage = lazy(() =>
  import('@/features/verification/components/verify-email-page').then((m) => ({ default: m.VerifyEmailPage })),
);
export const ResendVerificationPage = lazy(() =>
  import('@/features/verification/components/resend-verification-page').then((m) => ({ default: m.ResendVerificationPage })),
);
export const DemoRequestPage = lazy(() =>
  import('@/features/demo-request/components/demo-request-page').then((m) => ({ default: m.DemoRequestPage })),
);
export const SignedInLayout = lazy(() => import('./signed-in-layout').then((m) => ({ default: m.SignedInLayout })));
export const NotFoundPage = lazy(() => import('@/features/shell/components/not-found-page').then((m) => ({ default: m.NotFoundPage })));
export const SearchPage = lazy(() => import('@/features/search/components/search-page').then((m) => ({ default: m.SearchPage })));
export const DashboardPage = lazy(() => import('@/features/dashboard/components/dashboard-page').then((m) => ({ default: m.DashboardPage })));
export const ReferralImpactPage = lazy(() =>
  import('@/features/referral-impact/components/referral-impact-page').then((m) => ({ default: m.ReferralImpactPage })),
);
export const DiscoverPage = lazy(() => import('@/features/discover/components/discover-page').then((m) => ({ default: m.DiscoverPage })));
export const SubmitReferralPage = lazy(() =>
  import('@/features/referrals/components/submit-referral-page').then((m) => ({ default: m.SubmitReferralPage })),
);
export const ReferralPage = lazy(() => import('@/features/referrals/components/referral-page').then((m) => ({ default: m.ReferralPage })));
export const EmailDraftPage = lazy(() =>
  import('@/features/referrals/components/email-draft-page').then((m) => ({ default: m.EmailDraftPage })),
);
export const AccountPage = lazy(() => import('@/features/account/components/account-page').then((m) => ({ default: m.AccountPage })));
export const TestClayPage = lazy(() => import('@/features/test-clay/components/test-clay-page').then((m) => ({ default: m.TestClayPage })));
export const AdminPage = lazy(() => import('@/features/admin/components/admin-page').then((m) => ({ default: m.AdminPage })));
export const OnboardingPage = lazy(() =>
  import('@/features/onboarding/components/onboarding-page').then((m) => ({ default: m.OnboardingPage })),
);
export const BountiesPage = lazy(() => import('@/features/onboarding/components/bounties-page').then((m) => ({ default: m.BountiesPage })));
