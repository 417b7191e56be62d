import { useCallback, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { NavigateContext } from '@/lib/navigation';

/**
 * The router's navigate for `AppLink` and `useNavigateTo` (lib/navigation.tsx), with `Link`'s rule: a link to
 * the current location replaces it instead of adding a history entry.
 */
export function RouterNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const current = `${pathname}${search}${hash}`;
  const navigateTo = useCallback((to: string) => void navigate(to, { replace: to === current }), [navigate, current]);
  return <NavigateContext.Provider value={navigateTo}>{children}</NavigateContext.Provider>;
}
