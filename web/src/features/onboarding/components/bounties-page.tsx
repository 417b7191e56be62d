import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function BountiesPage() {
  return (
    <PlaceholderPage title="Set Your Bounties" description="Choose the rewards you pay referrers at each sales milestone." />
  );
}
