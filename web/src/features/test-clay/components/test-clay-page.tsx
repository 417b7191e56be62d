import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function TestClayPage() {
  return <PlaceholderPage title="Webhook Test" description="Internal page to test the enrichment webhook." />;
}
