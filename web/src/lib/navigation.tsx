import { createContext, useContext, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** Shows another path of the app (an absolute path, e.g. `/signup`). */
export type NavigateTo = (to: string) => void;

/**
 * How the landing page moves to another screen without React Router, so that `/` signed out does not load the
 * router (landing page budget, scripts/bundle-budget.ts). Inside the app's route table it is the router's
 * navigate (`app/routes/router-navigation.tsx`); on `/` signed out, before the app is loaded, `app/start.tsx`'s
 * (history, then the app). Without a provider the browser follows the link itself.
 */
export const NavigateContext = createContext<NavigateTo | null>(null);

const browserNavigate: NavigateTo = (to) => window.location.assign(to);

export function useNavigateTo(): NavigateTo {
  return useContext(NavigateContext) ?? browserNavigate;
}

type AppLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/**
 * A link to a path of the app, followed as React Router's `Link` does: a plain left click navigates in the page;
 * with a modifier key, another button or another target the browser handles it (new tab, download...).
 */
export function AppLink({ to, onClick, ...props }: AppLinkProps) {
  const navigate = useContext(NavigateContext);
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const modified = event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
    const otherTarget = props.target !== undefined && props.target !== '_self';
    if (!navigate || event.defaultPrevented || event.button !== 0 || modified || otherTarget) return;
    event.preventDefault();
    navigate(to);
  };
  return <a {...props} href={to} onClick={follow} />;
}
