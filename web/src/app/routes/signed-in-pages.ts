import { lazy } from 'react';
import { zodFirst } from './lazy-pages';

/** The screens only signed-in users see; loaded with the signed-in route table (see lazy-pages.ts). */
export const SignedInLayout = lazy(() =>
  zodFirst().then(() => import('./signed-in-layout').then((m) => ({ default: m.SignedInLayout }))),
);
export const NotFoundPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/shell/components/not-found-page').then((m) => ({ default: m.NotFoundPage })),
  ),
);
export const SearchPage = lazy(() =>
  zodFirst().then(() => import('@/features/search/components/search-page').then((m) => ({ default: m.SearchPage }))),
);
export const DashboardPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/dashboard/components/dashboard-page').then((m) => ({ default: m.DashboardPage })),
  ),
);
export const ReferralImpactPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/referral-impact/components/referral-impact-page').then((m) => ({
      default: m.ReferralImpactPage,
    })),
  ),
);
export const DiscoverPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/discover/components/discover-page').then((m) => ({ default: m.DiscoverPage })),
  ),
);
export const SubmitReferralPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/referrals/components/submit-referral-page').then((m) => ({ default: m.SubmitReferralPage })),
  ),
);
export const ReferralPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/referrals/components/referral-page').then((m) => ({ default: m.ReferralPage })),
  ),
);
export const EmailDraftPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/referrals/components/email-draft-page').then((m) => ({ default: m.EmailDraftPage })),
  ),
);
export const AccountPage = lazy(() =>
  zodFirst().then(() => import('@/features/account/components/account-page').then((m) => ({ default: m.AccountPage }))),
);
export const TestClayPage = lazy(() =>
  zodFirst().then(() =>
    import('@/features/test-clay/components/test-clay-page').then((m) => ({ default: m.TestClayPage })),
  ),
);
export const AdminPage = lazy(() =>
  zodFirst().then(() => import('@/features/admin/components/admin-page').then((m) => ({ default: m.AdminPage }))),
);
