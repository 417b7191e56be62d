import { BarChart3, Compass, ListChecks, LogOut, Menu, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { resetSearch } from '@/stores/search-slice';
import { useAppDispatch } from '@/stores/store';
import { accountEntries, roleLabel, type ShellUser } from './account-menu';

const itemClass =
  'flex w-full items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium text-foreground transition-colors hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground';
const linkClass = ({ isActive }: { isActive: boolean }) => cn(itemClass, isActive && 'bg-muted');

/**
 * Below medium width the top bar keeps the logo, Tee ups and New Referral; this disclosure holds the rest
 * (Discover, Impact and the account menu's entries, issue 12). It opens under the bar, moves focus to its
 * first entry, and closes on Escape (focus back on the button), an outside click or a choice.
 */
export function PhoneMenu({ user, onLogout }: { user: ShellUser; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const dispatch = useAppDispatch();

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const close = () => setOpen(false);
  const link = (to: string, icon: ReactNode, label: string, onClick?: () => void) => (
    <li key={to}>
      <NavLink
        to={to}
        end
        className={linkClass}
        onClick={() => {
          onClick?.();
          close();
        }}
      >
        {icon}
        {label}
      </NavLink>
    </li>
  );

  return (
    <div className="md:hidden">
      <button
        ref={button}
        type="button"
        aria-label="Menu"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className="flex size-9 items-center justify-center rounded-md border border-border bg-background text-foreground shadow-sm transition hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none [&_svg]:size-5"
      >
        {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
      </button>
      <div
        ref={panel}
        id={panelId}
        hidden={!open}
        className="fixed inset-x-0 top-16 z-40 max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-border bg-background px-4 pt-2 pb-4 shadow-lg"
      >
        <nav aria-label="Menu">
          <ul className="flex flex-col gap-0.5">
            {link(paths.dashboard, <ListChecks aria-hidden="true" />, 'Tee ups')}
            {link(paths.discover, <Compass aria-hidden="true" />, 'Discover', () => dispatch(resetSearch()))}
            {link(paths.referralImpact, <BarChart3 aria-hidden="true" />, 'Impact')}
          </ul>
          <div className="my-2 h-px bg-border" />
          <p className="flex min-w-0 flex-col px-3 py-1.5 text-sm">
            <span className="truncate font-medium">{user.email}</span>
            <span className="text-xs text-muted-foreground">{roleLabel(user)}</span>
          </p>
          <ul className="flex flex-col gap-0.5">
            {accountEntries(user).map((entry) => link(entry.to, entry.icon, entry.label))}
            <li>
              <button
                type="button"
                className={itemClass}
                onClick={() => {
                  close();
                  onLogout();
                }}
              >
                <LogOut aria-hidden="true" />
                Log out
              </button>
            </li>
          </ul>
        </nav>
      </div>
    </div>
  );
}
