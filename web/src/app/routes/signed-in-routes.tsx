import type { User } from '@app/contracts';
import { Navigate, Route, Routes } from 'react-router-dom';
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
} from './signed-in-pages';

/** The signed-in route table (spec 2), its own chunk: the landing page never loads it. */
export function SignedInRoutes({ user }: { user: User }) {
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
