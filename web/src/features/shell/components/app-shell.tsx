import type { ReactNode } from 'react';
import type { ShellUser } from './account-menu';
import { TopBar } from './top-bar';

/** Every signed-in page: the fixed top bar, an optional banner, then the page. */
export function AppShell({
  user,
  onLogout,
  banner,
  children,
}: {
  user: ShellUser;
  onLogout: () => void;
  banner?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col bg-muted/40">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <TopBar user={user} onLogout={onLogout} />
      <div className="h-16 shrink-0" aria-hidden="true" />
      {banner}
      <main id="main" className="flex flex-1 flex-col wrap-anywhere">
        {children}
      </main>
    </div>
  );
}
