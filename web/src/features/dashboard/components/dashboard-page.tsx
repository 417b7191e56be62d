import { PlaceholderPage } from '@/components/layout/placeholder-page';

/** Spec 2: 'Welcome, {first name, else the part of the email before the at-sign, else User}'. */
export function greetingName(user: { firstName?: string | null; email?: string | null }): string {
  const first = user.firstName?.trim();
  if (first) return first;
  const local = user.email?.split('@')[0]?.trim();
  return local || 'User';
}

export function DashboardPage({ user }: { user: { firstName?: string | null; email?: string | null } }) {
  return (
    <PlaceholderPage
      title="Tee ups"
      description={`Welcome, ${greetingName(user)}. Follow your referrals through every sales stage.`}
    />
  );
}
