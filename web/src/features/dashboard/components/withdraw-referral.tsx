import { useEffect, useRef, useState } from 'react';
import type { ReferralListItem as Referral, ReferralStatus } from '@app/contracts';
import { Button } from '@/components/ui/button';

/**
 * Withdraw (issue 10): the referrer moves the referral to Declined themselves. Unpaid commissions are
 * reversed by the server; asked once more before it happens, since it cannot be undone by the vendor.
 */
export function WithdrawReferral({
  referral,
  pendingStatus,
  onMark,
}: {
  referral: Referral;
  pendingStatus: ReferralStatus | null;
  onMark: (status: ReferralStatus) => void;
}) {
  const [asking, setAsking] = useState(false);
  // The keyboard stays where the question is: on its safe answer when asked, back on the button after Cancel.
  const cancel = useRef<HTMLButtonElement>(null);
  const withdraw = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (asking) cancel.current?.focus();
    else if (asked.current) withdraw.current?.focus();
    asked.current = asking;
  }, [asking]);
  if (referral.status === 'declined') return null;
  return (
    <div className="grid gap-2" role="group" aria-label="Withdraw this referral">
      {asking ? (
        <>
          <p className="text-sm">
            {referral.lead
              ? 'Withdrawing moves the referral to Declined and tells the vendor. Commissions not paid yet are reversed.'
              : 'Withdrawing moves the referral to Declined.'}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="destructive"
              disabled={pendingStatus !== null}
              onClick={() => {
                setAsking(false);
                onMark('declined');
              }}
            >
              Yes, withdraw
            </Button>
            <Button ref={cancel} variant="outline" onClick={() => setAsking(false)}>
              Cancel
            </Button>
          </div>
        </>
      ) : (
        <Button ref={withdraw} variant="outline" className="justify-self-start" onClick={() => setAsking(true)}>
          Withdraw referral
        </Button>
      )}
    </div>
  );
}
