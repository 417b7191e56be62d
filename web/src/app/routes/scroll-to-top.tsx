import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/**
 * A page the app navigates to opens at its top, as a page the browser loads does (saving the bounties at the
 * bottom of their page opened the workspace in the middle of its cards). Back and forward (POP) are left to
 * the browser's own restoration, and a link to a fragment (`#...`) to the page that shows it.
 */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== 'POP' && !hash) window.scrollTo(0, 0);
    // Only a new page: a search or fragment change on the same page keeps its place.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
  return null;
}
