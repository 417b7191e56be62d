import type { User } from '@app/contracts';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import * as paths from '@/config/public-paths';
import { NavigateContext } from '@/lib/navigation';
import { LandingPage } from './routes/lazy-pages';
import { FullPageSpinner } from './routes/session-spinner';

const App = lazy(() => import('./index').then((m) => ({ default: m.App })));

/** What the entry shows: the session being read on `/`, the landing page alone, or the app. */
type Shown = 'session' | 'landing' | 'app';

const currentPath = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

/**
 * The entry's screen (main.tsx). On `/` it waits for the session: a signed-out visitor (or a failed read, as in
 * the route table) gets the landing page without the app's chunk (React Router, TanStack Query, the route
 * tables: landing page budget, scripts/bundle-budget.ts), until a link or the back/forward buttons leave `/`;
 * the app then starts there, with the session already read. Anywhere else, and for a signed-in user, the app
 * starts at once; its route table shows the same landing page at `/` and unknown paths.
 */
export function Start({ session }: { session: Promise<User | null> }) {
  const [shown, setShown] = useState<Shown>(() => (window.location.pathname === paths.home ? 'session' : 'app'));

  useEffect(() => {
    if (shown !== 'session') return;
    let live = true;
    const show = (next: Shown) => live && setShown(next);
    session.then(
      (user) => show(user ? 'app' : 'landing'),
      () => show('landing'),
    );
    return () => {
      live = false;
    };
  }, [shown, session]);

  useEffect(() => {
    if (shown !== 'landing') return;
    const onPop = () => window.location.pathname !== paths.home && setShown('app');
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [shown]);

  // As the router's Link: the current location is replaced, any other is a new history entry. `/` is this page.
  const navigate = useCallback((to: string) => {
    if (to === currentPath()) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    if (window.location.pathname !== paths.home) setShown('app');
  }, []);

  if (shown === 'session') return <FullPageSpinner label="Loading your session" />;
  return (
    <Suspense fallback={<FullPageSpinner />}>
      {shown === 'landing' ? (
        <NavigateContext.Provider value={navigate}>
          <LandingPage />
        </NavigateContext.Provider>
      ) : (
        <App session={session} />
      )}
    </Suspense>
  );
}
