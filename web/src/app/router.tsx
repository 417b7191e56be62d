import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import * as paths from '@/config/public-paths';
import { useUser } from '@/features/auth/api/use-user';
import { RouterNavigation } from './routes/router-navigation';
import { FullPageSpinner } from './routes/session-spinner';
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

export function AppRoutes() {
  const { pathname } = useLocation();
  const userQuery = useUser();

  if (paths.isVerificationPath(pathname)) {
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <VerifyEmailPage user={userQuery.data} />
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
    // The landing page's links and form follow the router here (lib/navigation.tsx).
    <RouterNavigation>
      <Routes>
        <Route path={paths.home} element={<LandingPage />} />
        <Route path={paths.login} element={<AuthPage />} />
        <Route path={paths.signup} element={<AuthPage />} />
        <Route path={paths.demoRequest} element={<DemoRequestPage />} />
        <Route path={paths.resendVerification} element={<ResendVerificationPage />} />
        <Route path={paths.onboarding} element={<OnboardingPage />} />
        <Route path={paths.bounties} element={<BountiesPage />} />
        {/* Spec 2/6 and issue 12: a signed-in route (the referral draft page among them) goes to /login, which
            returns there after signing in; any other path shows the landing page. */}
        <Route path="*" element={<LandingOrLogin />} />
      </Routes>
    </RouterNavigation>
  );
}

function LandingOrLogin() {
  const { pathname, search, hash } = useLocation();
  if (!paths.isSignedInOnly(pathname)) return <LandingPage />;
  return <Navigate to={paths.loginReturningTo(`${pathname}${search}${hash}`)} replace />;
}
