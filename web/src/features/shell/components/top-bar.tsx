import { BarChart3, Compass, ListChecks, Plus } from 'lucide-react';
import { NavLink, useNavigate } from 'react-router-dom';
import { LogoMark, PRODUCT_NAME } from '@/components/layout/logo';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { resetSearch } from '@/stores/search-slice';
import { useAppDispatch } from '@/stores/store';
import { AccountMenu, type ShellUser } from './account-menu';
import { PhoneMenu } from './phone-menu';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&_svg]:size-4',
    isActive ? 'bg-muted text-foreground' : 'text-muted-foreground',
  );

/**
 * The fixed top bar. Home, Discover and New Referral start the referral flow over (reset the search).
 * Tee ups shows at every width (spec: "from extra-small width"), Discover and Impact from medium width; below
 * medium width the phone menu holds them and the account menu's entries (issue 12).
 */
export function TopBar({ user, onLogout }: { user: ShellUser; onLogout: () => void }) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const startOver = (to: string) => {
    dispatch(resetSearch());
    navigate(to);
  };

  return (
    <header className="fixed inset-x-0 top-0 z-40 h-16 border-b border-border bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-full max-w-7xl items-center gap-2 px-4 sm:px-6">
        <button
          type="button"
          onClick={() => startOver(paths.home)}
          aria-label="Home"
          className="mr-2 flex items-center gap-2 rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <LogoMark />
          <span className="hidden text-base font-semibold tracking-tight lg:inline">{PRODUCT_NAME}</span>
        </button>
        <nav aria-label="Main" className="flex items-center gap-1">
          <NavLink to={paths.dashboard} className={(s) => cn(navLinkClass(s), 'inline-flex max-xs:px-2')}>
            <ListChecks aria-hidden="true" className="max-xs:hidden" />
            Tee ups
          </NavLink>
          <NavLink
            to={paths.discover}
            onClick={() => dispatch(resetSearch())}
            className={(s) => cn(navLinkClass(s), 'hidden md:inline-flex')}
          >
            <Compass aria-hidden="true" />
            Discover
          </NavLink>
          <NavLink to={paths.referralImpact} className={(s) => cn(navLinkClass(s), 'hidden md:inline-flex')}>
            <BarChart3 aria-hidden="true" />
            Impact
          </NavLink>
        </nav>
        <div className="ml-auto flex items-center gap-2 sm:gap-3">
          <Button size="sm" onClick={() => startOver(paths.home)}>
            <Plus aria-hidden="true" />
            New Referral
          </Button>
          <div className="hidden md:block">
            <AccountMenu user={user} onLogout={onLogout} />
          </div>
          <PhoneMenu user={user} onLogout={onLogout} />
        </div>
      </div>
    </header>
  );
}
