import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { FullPageSpinner } from './routes/session-spinner';
import { useUser } from '@/features/auth/api/get-user';
import {
  AuthPage,
  BountiesPage,
  DemoRequestPage,
  LandingPage,
  OnboardingPage,
  ResendVerificationPage,
  SignedInRoutes,
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
  return (
    <Suspense fallback={<FullPageSpinner />}>{user ? <SignedInRoutes user={user} /> : <SignedOutRoutes />}</Suspense>
  );
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
