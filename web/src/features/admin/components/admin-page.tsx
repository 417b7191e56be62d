import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function AdminPage() {
  return (
    <PlaceholderPage title="Referral Program Management" description="Add, analyze, activate and deactivate referral programs." />
  );
}
