import type { User } from '@app/contracts';
import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useUser } from '@/features/auth/api/get-user';
import {
  AccountPage,
  AdminPage,
  AuthPage,
  BountiesPage,
  DashboardPage,
  DemoRequestPage,
  DiscoverPage,
  EmailDraftPage,
  LandingPage,
  NotFoundPage,
  OnboardingPage,
  ReferralImpactPage,
  ReferralPage,
  ResendVerificationPage,
  SearchPage,
  SignedInLayout,
  SubmitReferralPage,
  TestClayPage,
  VerifyEmailPage,
} from './routes/lazy-pages';

/** /email-verified, /verify-email and any path containing verify-email: shown signed in or not. */
export function isVerificationPath(pathname: string): boolean {
  return pathname === '/email-verified' || pathname.includes('verify-email');
}

export function AppRoutes() {
  const { pathname } = useLocation();
  const userQuery = useUser();

  if (isVerificationPath(pathname)) {
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <VerifyEmailPage />
      </Suspense>
    );
  }
  if (userQuery.isPending) return <FullPageSpinner label="Loading your session" />;

  // A failed session read (other than 401, which is null) is treated as signed out.
  const user = userQuery.data ?? null;
  return <Suspense fallback={<FullPageSpinner />}>{user ? <SignedInRoutes user={user} /> : <SignedOutRoutes />}</Suspense>;
}

function SignedOutRoutes() {
  return (
    <Routes>
      <Route path="/" element={<LandingPage />} />
      <Route path="/login" element={<AuthPage />} />
      <Route path="/signup" element={<AuthPage />} />
      <Route path="/demo-request" element={<DemoRequestPage />} />
      <Route path="/resend-verification" element={<ResendVerificationPage />} />
      <Route path="/onboarding" element={<OnboardingPage />} />
      <Route path="/onboarding/bounties" element={<BountiesPage />} />
      {/* Spec 2/6: the referral draft page needs a user; without one it redirects to /login. */}
      <Route path="/referral/:id/email-draft" element={<Navigate to="/login" replace />} />
      <Route path="*" element={<LandingPage />} />
    </Routes>
  );
}

function SignedInRoutes({ user }: { user: User }) {
  return (
    <Routes>
      <Route path="/login" element={<Navigate to="/" replace />} />
      <Route path="/signup" element={<Navigate to="/" replace />} />
      {/* Not in the spec's signed-in table, but linked from screens a signed-in user sees
          (the verification error screen, the landing call to action): keep them working. */}
      <Route path="/resend-verification" element={<ResendVerificationPage />} />
      <Route path="/demo-request" element={<DemoRequestPage />} />
      <Route element={<SignedInLayout user={user} />}>
        <Route path="/" element={<SearchPage />} />
        <Route path="/dashboard" element={<DashboardPage user={user} />} />
        <Route path="/referral-impact" element={<ReferralImpactPage />} />
        <Route path="/discover" element={<DiscoverPage />} />
        <Route path="/submit-referral" element={<SubmitReferralPage />} />
        <Route path="/referral/:id/email-draft" element={<EmailDraftPage />} />
        <Route path="/referral/:id" element={<ReferralPage />} />
        <Route path="/account" element={<AccountPage user={user} />} />
        <Route path="/account/email" element={<AccountPage user={user} />} />
        <Route path="/account/password" element={<AccountPage user={user} />} />
        <Route path="/test-clay" element={<TestClayPage />} />
        <Route path="/admin" element={user.isAdmin ? <AdminPage /> : <NotFoundPage />} />
        <Route path="/onboarding" element={<OnboardingPage user={user} />} />
        <Route path="/onboarding/bounties" element={<BountiesPage user={user} />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
