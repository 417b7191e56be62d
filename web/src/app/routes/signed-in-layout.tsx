import type { User } from '@app/contracts';
import { Suspense } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { AppShell } from '@/features/shell/components/app-shell';
import { VerificationBanner } from '@/features/verification/components/verification-banner';
import { afterCacheUpdates } from '@/lib/query-client';
import { ReduxBoundary } from './redux-boundary';

/** The shell around every signed-in route, composed from the auth, shell and verification features. */
export function SignedInLayout({ user }: { user: User }) {
  const navigate = useNavigate();
  // Navigate once the signed-out route table is on screen, or /login would bounce back to /.
  const logout = useLogout({ onLoggedOut: () => afterCacheUpdates(() => navigate(paths.login)) });
  const showBanner = !user.emailVerified && !user.isAdmin;

  return (
    <ReduxBoundary>
      <AppShell
        user={user}
        onLogout={() => logout.mutate()}
        banner={showBanner ? <VerificationBanner email={user.email} /> : null}
      >
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </AppShell>
    </ReduxBoundary>
  );
}
