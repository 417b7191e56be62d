import type { Vendor } from '@app/contracts';
import { formatCents, milestoneLabel } from '@app/domain';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { COMMISSION_STATE_LABELS, commissionDates } from '@/components/money/milestones';
import { errorText } from '@/lib/errors';
import { useVendorCommissions } from '../api/vendor-money';

/** "What you owe" (issue 10): the commissions the workspace's confirmations created, gross amounts. */
export function OwedPanel({ vendor }: { vendor: Vendor }) {
  const owed = useVendorCommissions(vendor.id);
  return (
    <Card role="region" aria-labelledby="owed-title">
      <CardHeader>
        <CardTitle id="owed-title" className="text-lg">
          What you owe
        </CardTitle>
        <CardDescription>
          Each milestone you confirm creates a commission at its terms: the better of your bounty when the referral was
          made and your bounty when you confirm it. Amounts are what you owe Referral Hub: the referrer's share and the
          platform fee. A commission stays in escrow until Referral Hub pays the referrer out.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {owed.isError ? (
          <div role="alert" className="grid justify-items-start gap-2 text-sm">
            <p>{`Failed to load what you owe. ${errorText(owed.error, 'Please try again.')}`}</p>
            <Button variant="outline" size="sm" onClick={() => void owed.refetch()}>
              Try again
            </Button>
          </div>
        ) : owed.isPending ? (
          <Spinner className="size-6" label="Loading what you owe" />
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-3" aria-label="Totals">
              <div className="rounded-lg border border-border p-3">
                <dt className="text-sm text-muted-foreground">Owed (in escrow)</dt>
                <dd className="text-2xl font-bold tabular-nums">
                  {formatCents(owed.data.owedCents, owed.data.currency)}
                </dd>
              </div>
              <div className="rounded-lg border border-border p-3">
                <dt className="text-sm text-muted-foreground">Paid out (share and fee)</dt>
                <dd className="text-2xl font-bold tabular-nums">
                  {formatCents(owed.data.paidCents, owed.data.currency)}
                </dd>
              </div>
            </dl>
            {owed.data.commissions.length === 0 ? (
              <p className="text-sm text-muted-foreground">No commission yet.</p>
            ) : (
              <ul className="grid gap-2" aria-label="Commissions you owe or paid">
                {owed.data.commissions.map((c) => (
                  <li key={c.id} className="grid gap-1 rounded-lg border border-border p-3 text-sm">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <span className="font-medium">{`${c.contact}: ${milestoneLabel(c.milestone)}`}</span>
                      <span className="font-semibold tabular-nums">{formatCents(c.grossCents, c.currency)}</span>
                    </div>
                    <div className="flex flex-wrap items-center gap-2 text-muted-foreground">
                      <Badge
                        variant={c.state === 'in_escrow' ? 'info' : c.state === 'paid' ? 'success' : 'destructive'}
                      >
                        {COMMISSION_STATE_LABELS[c.state]}
                      </Badge>
                      <span>{`Referral ${c.referralId} · referred by ${c.referrer.name} · ${commissionDates(c)}`}</span>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
