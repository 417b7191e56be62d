import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function ReferralImpactPage() {
  return (
    <PlaceholderPage
      title="Referral Impact Dashboard"
      description="Referrals sent, acceptance rate, commission earned and your give-get score."
    />
  );
}
