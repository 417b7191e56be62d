import { afterZod } from './lazy-pages';

/** The screens only signed-in users see; loaded with the signed-in route table (see lazy-pages.ts). */
export const SignedInLayout = afterZod(() => import('./signed-in-layout'), 'SignedInLayout');
export const NotFoundPage = afterZod(() => import('@/features/shell/components/not-found-page'), 'NotFoundPage');
export const SearchPage = afterZod(() => import('@/features/search/components/search-page'), 'SearchPage');
export const DashboardPage = afterZod(() => import('@/features/dashboard/components/dashboard-page'), 'DashboardPage');
export const ReferralImpactPage = afterZod(
  () => import('@/features/referral-impact/components/referral-impact-page'),
  'ReferralImpactPage',
);
export const DiscoverPage = afterZod(() => import('@/features/discover/components/discover-page'), 'DiscoverPage');
export const SubmitReferralPage = afterZod(
  () => import('@/features/referrals/components/submit-referral-page'),
  'SubmitReferralPage',
);
export const ReferralPage = afterZod(() => import('@/features/referrals/components/referral-page'), 'ReferralPage');
export const EmailDraftPage = afterZod(
  () => import('@/features/referrals/components/email-draft-page'),
  'EmailDraftPage',
);
export const AccountPage = afterZod(() => import('@/features/account/components/account-page'), 'AccountPage');
export const TestClayPage = afterZod(() => import('@/features/test-clay/components/test-clay-page'), 'TestClayPage');
export const AdminPage = afterZod(() => import('@/features/admin/components/admin-page'), 'AdminPage');
export const VendorPage = afterZod(() => import('@/features/vendor-workspace/components/vendor-page'), 'VendorPage');
export const LeadsPage = afterZod(() => import('@/features/lead-inbox/components/leads-page'), 'LeadsPage');
