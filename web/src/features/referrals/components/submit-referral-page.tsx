import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function SubmitReferralPage() {
  return <PlaceholderPage title="Submit New Referral" description="Tell the vendor who you are referring and why it is a good fit." />;
}
