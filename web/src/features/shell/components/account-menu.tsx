import { Building2, Gift, Inbox, KeyRound, LogOut, Mail, ShieldCheck, Target, User as UserIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { paths } from '@/config/paths';

export interface ShellUser {
  email: string;
  isAdmin: boolean;
}

/** The avatar shows the email's first letter, uppercased, or U without one. */
export function avatarLetter(email: string | null | undefined): string {
  const first = email?.trim().charAt(0);
  return first ? first.toUpperCase() : 'U';
}

export const roleLabel = (user: ShellUser) => (user.isAdmin ? 'Administrator' : 'User');

/** The account menu's entries (spec 2), shared by the avatar menu and the phone menu. */
export function accountEntries(user: ShellUser): { label: string; to: string; icon: ReactNode }[] {
  const entries: { label: string; to: string; icon: ReactNode }[] = [
    { label: 'My Account', to: paths.account, icon: <UserIcon aria-hidden="true" /> },
    { label: 'Email Settings', to: paths.accountEmail, icon: <Mail aria-hidden="true" /> },
    { label: 'Change Password', to: paths.accountPassword, icon: <KeyRound aria-hidden="true" /> },
    { label: 'Vendor Workspace', to: paths.vendor, icon: <Building2 aria-hidden="true" /> },
    { label: 'Lead Inbox', to: paths.vendorLeads, icon: <Inbox aria-hidden="true" /> },
    { label: 'Lead Criteria', to: paths.onboarding, icon: <Target aria-hidden="true" /> },
    { label: 'Manage Bounties', to: paths.bounties, icon: <Gift aria-hidden="true" /> },
  ];
  if (user.isAdmin) entries.push({ label: 'Admin', to: paths.admin, icon: <ShieldCheck aria-hidden="true" /> });
  return entries;
}

export function AccountMenu({ user, onLogout }: { user: ShellUser; onLogout: () => void }) {
  const navigate = useNavigate();
  const role = roleLabel(user);
  const entries = accountEntries(user);

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label="Account menu"
        className="flex size-9 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground shadow-sm transition hover:bg-primary/90 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none"
      >
        <span aria-hidden="true">{avatarLetter(user.email)}</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate font-medium">{user.email}</span>
          <span className="text-xs font-normal text-muted-foreground">{role}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          {entries.map((entry) => (
            <DropdownMenuItem key={entry.to} onSelect={() => navigate(entry.to)}>
              {entry.icon}
              {entry.label}
            </DropdownMenuItem>
          ))}
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onLogout}>
          <LogOut aria-hidden="true" />
          Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
