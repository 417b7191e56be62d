import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function OnboardingPage() {
  return (
    <PlaceholderPage
      title="Ideal Customer Profile"
      description="Describe the customers you want so that only matching prospects are routed to you."
    />
  );
}
