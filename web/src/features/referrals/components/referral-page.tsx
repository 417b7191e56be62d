import { useParams } from 'react-router-dom';
import { PlaceholderPage } from '@/components/layout/placeholder-page';

export const isReferralId = (id: string | undefined): id is string => id !== undefined && /^\d+$/.test(id);

export function ReferralPage() {
  const { id } = useParams();
  if (!isReferralId(id)) return <PlaceholderPage title="Invalid Referral" description="This referral link is not valid." />;
  return <PlaceholderPage title={`Referral #${id}`} description="The details of this referral." />;
}
