import { paths } from '@/config/paths';

export type Tab = 'profile' | 'email' | 'password';

export const TAB_PATHS: Record<Tab, string> = {
  profile: paths.account,
  email: paths.accountEmail,
  password: paths.accountPassword,
};

export function tabForPath(pathname: string): Tab {
  if (pathname.startsWith(paths.accountEmail)) return 'email';
  if (pathname.startsWith(paths.accountPassword)) return 'password';
  return 'profile';
}

export function memberSince(createdAt: string | null | undefined): string {
  if (!createdAt) return 'N/A';
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString('en-US', { dateStyle: 'long' });
}
