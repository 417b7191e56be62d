import { Menu, X } from './icons';
import { useEffect, useRef, useState } from 'react';
import { AppLink } from '@/lib/navigation';
import * as paths from '@/config/public-paths';
import { LandingLogo as Logo } from './landing-logo';
import { ANCHORS } from './content';
import { btn } from './styles';

/** Sticky header: anchors, Login, Get Started; below md a disclosure menu (closes on a link click and Escape). */
export function SiteHeader() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const close = () => setOpen(false);

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <AppLink
          to={paths.home}
          aria-label="Referral Hub home"
          className="rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <Logo />
        </AppLink>
        <nav aria-label="Main" className="hidden items-center gap-6 md:flex">
          {ANCHORS.map((a) => (
            <a
              key={a.href}
              href={a.href}
              className="rounded text-sm font-medium text-gray-600 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring outline-none"
            >
              {a.label}
            </a>
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <AppLink to={paths.login} className={btn.ghost}>
            Login
          </AppLink>
          <AppLink to={paths.signup} className={btn.primary}>
            Get Started
          </AppLink>
        </div>
        <button
          ref={toggleRef}
          type="button"
          className={`${btn.icon} md:hidden`}
          aria-label="Menu"
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpen((o) => !o)}
        >
          {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
        </button>
      </div>
      <nav
        id="mobile-menu"
        aria-label="Mobile"
        hidden={!open}
        className="border-t border-border bg-background px-4 py-3 md:hidden"
      >
        <ul className="grid gap-1">
          {ANCHORS.map((a) => (
            <li key={a.href}>
              <a
                href={a.href}
                onClick={close}
                className="block rounded-md px-3 py-3 text-base font-medium hover:bg-muted"
              >
                {a.label}
              </a>
            </li>
          ))}
          <li>
            <AppLink
              to={paths.login}
              onClick={close}
              className="block rounded-md px-3 py-3 text-base font-medium hover:bg-muted"
            >
              Login
            </AppLink>
          </li>
          <li className="pt-1">
            <AppLink to={paths.signup} onClick={close} className={`${btn.primary} w-full`}>
              Get Started
            </AppLink>
          </li>
        </ul>
      </nav>
    </header>
  );
}
