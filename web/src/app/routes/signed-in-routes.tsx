import type { User } from '@app/contracts';
import { Navigate, Route, Routes } from 'react-router-dom';
import { paths, routePatterns } from '@/config/paths';
import { BountiesPage, DemoRequestPage, OnboardingPage, ResendVerificationPage } from './lazy-pages';
import {
  AccountPage,
  AdminPage,
  DashboardPage,
  DiscoverPage,
  EmailDraftPage,
  NotFoundPage,
  ReferralImpactPage,
  ReferralPage,
  SearchPage,
  SignedInLayout,
  SubmitReferralPage,
  TestClayPage,
  VendorPage,
  LeadsPage,
} from './signed-in-pages';

/** The signed-in route table (spec 2), its own chunk: the landing page never loads it. */
export function SignedInRoutes({ user }: { user: User }) {
  return (
    <Routes>
      <Route path={paths.login} element={<Navigate to={paths.home} replace />} />
      <Route path={paths.signup} element={<Navigate to={paths.home} replace />} />
      {/* Not in the spec's signed-in table, but linked from screens a signed-in user sees
          (the verification error screen, the landing call to action): keep them working. */}
      <Route path={paths.resendVerification} element={<ResendVerificationPage />} />
      <Route path={paths.demoRequest} element={<DemoRequestPage />} />
      <Route element={<SignedInLayout user={user} />}>
        <Route path={paths.home} element={<SearchPage />} />
        <Route path={paths.dashboard} element={<DashboardPage user={user} />} />
        <Route path={paths.referralImpact} element={<ReferralImpactPage />} />
        <Route path={paths.discover} element={<DiscoverPage />} />
        <Route path={paths.submitReferral} element={<SubmitReferralPage />} />
        <Route path={routePatterns.referralDraft} element={<EmailDraftPage user={user} />} />
        <Route path={routePatterns.referral} element={<ReferralPage />} />
        <Route path={paths.account} element={<AccountPage user={user} />} />
        <Route path={paths.accountEmail} element={<AccountPage user={user} />} />
        <Route path={paths.accountPassword} element={<AccountPage user={user} />} />
        <Route path={paths.testClay} element={user.isAdmin ? <TestClayPage /> : <NotFoundPage />} />
        <Route path={paths.admin} element={user.isAdmin ? <AdminPage /> : <NotFoundPage />} />
        <Route path={paths.vendor} element={<VendorPage user={user} />} />
        <Route path={paths.vendorLeads} element={<LeadsPage user={user} />} />
        <Route path={paths.onboarding} element={<OnboardingPage user={user} />} />
        <Route path={paths.bounties} element={<BountiesPage user={user} />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
