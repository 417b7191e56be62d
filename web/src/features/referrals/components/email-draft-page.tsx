import { useParams } from 'react-router-dom';
import { PlaceholderPage } from '@/components/layout/placeholder-page';
import { isReferralId } from './referral-page';

export function EmailDraftPage() {
  const { id } = useParams();
  if (!isReferralId(id)) return <PlaceholderPage title="Invalid Referral" description="This referral link is not valid." />;
  return <PlaceholderPage title="Email Draft" description={`Review and send the introduction email for referral #${id}.`} />;
}
