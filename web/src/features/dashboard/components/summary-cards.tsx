import type { ReferralList } from '@app/contracts';
import { CheckCircle2, Send, Timer, XCircle } from 'lucide-react';
import { Card } from '@/components/ui/card';

const cards = [
  { key: 'total', label: 'Total Referrals', icon: Send, className: 'text-primary' },
  { key: 'inFlight', label: 'In Flight', icon: Timer, className: 'text-sky-600' },
  { key: 'closedWon', label: 'Closed-Won', icon: CheckCircle2, className: 'text-emerald-600' },
  { key: 'declined', label: 'Declined', icon: XCircle, className: 'text-red-600' },
] as const;

/**
 * The four summary cards, over all the user's referrals (not only the filtered page). When the list failed
 * to load they show a dash, not a loading placeholder that never ends (the table says what went wrong).
 */
export function SummaryCards({
  summary,
  failed = false,
}: {
  summary: ReferralList['summary'] | undefined;
  failed?: boolean;
}) {
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Summary">
      {cards.map(({ key, label, icon: Icon, className }) => (
        <Card key={key} className="p-4 sm:p-5" data-testid={`summary-${key}`}>
          <dt className="flex items-start justify-between gap-2 text-sm font-medium text-muted-foreground">
            {label}
            <Icon className={`size-5 shrink-0 ${className}`} aria-hidden="true" />
          </dt>
          <dd className="mt-1 text-2xl font-bold tabular-nums sm:text-3xl">
            {summary ? (
              summary[key]
            ) : failed ? (
              <>
                <span aria-hidden="true">–</span>
                <span className="sr-only">Not available</span>
              </>
            ) : (
              <span className="inline-block h-8 w-10 animate-pulse rounded bg-muted" aria-label="Loading" />
            )}
          </dd>
        </Card>
      ))}
    </dl>
  );
}
