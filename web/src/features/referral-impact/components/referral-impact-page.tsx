import { IMPACT_MESSAGES, type ImpactSummary } from '@app/contracts';
import { ArrowDownToLine, Filter, RefreshCw, X } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { fetchCommissions, NO_FILTERS, useImpactSummary, type ImpactFilters } from '../api/get-impact';
import { FunnelChart, TrendsChart } from './charts';
import { commissionsCsv, csvFileName, downloadCsv, summaryCsv } from './csv';
import { formatLongDate, formatMoney, formatPercent, formatThousands, timeAgo } from './format';

const ACTIVITY_TEXT: Record<
  ImpactSummary['recentActivity'][number]['type'],
  (a: { partner: string; contact: string }) => string
> = {
  sent: (a) => `Referral sent to ${a.partner}`,
  received: (a) => `Referral received from ${a.partner}`,
  accepted: (a) => `${a.contact} accepted the intro with ${a.partner}`,
  // Declined is the vendor's decline or the referrer's withdrawal, never the client's (docs/product-decisions.md).
  declined: (a) => `${a.partner} declined the intro of ${a.contact}`,
  withdrawn: (a) => `You withdrew the referral of ${a.contact} to ${a.partner}`,
  demo: (a) => `Demo scheduled: ${a.contact} with ${a.partner}`,
  closed: (a) => `Closed-Won: ${a.contact} with ${a.partner}`,
};

const isFiltered = (f: ImpactFilters) => Boolean(f.from || f.to || f.partner);

/** /referral-impact (spec 2, 3, 9; issue 5): filters, export, cards, charts, leaderboard and payouts. */
export function ReferralImpactPage() {
  const [filters, setFilters] = useState<ImpactFilters>(NO_FILTERS);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [partners, setPartners] = useState<string[]>([]);
  const panelId = useId();
  const impact = useImpactSummary(filters);
  const data = impact.data;

  // The partner options: every partner a leaderboard has shown this visit (a partner filter narrows the
  // leaderboard to one, the others must stay choosable).
  const seen = data?.partnerLeaderboard.map((p) => p.partner) ?? [];
  if (seen.some((p) => !partners.includes(p)))
    setPartners([...new Set([...partners, ...seen])].sort((a, b) => a.localeCompare(b)));

  const setFilter = (next: Partial<ImpactFilters>) => setFilters((current) => ({ ...current, ...next }));
  const rangeInvalid = Boolean(filters.from && filters.to && filters.from > filters.to);

  const onExport = () => {
    if (!data) return;
    downloadCsv(summaryCsv(data, filters), csvFileName('referral-impact', filters));
  };

  const onDownloadCommissions = async () => {
    setDownloading(true);
    try {
      const commissions = await fetchCommissions(filters);
      downloadCsv(commissionsCsv(commissions), csvFileName('commissions', filters));
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorText(error, 'Failed to download commissions'),
      });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Referral Impact Dashboard</h1>
        <div className="flex gap-2">
          <Button
            variant="outline"
            aria-expanded={filtersOpen}
            aria-controls={panelId}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            <Filter aria-hidden="true" />
            Filters{isFiltered(filters) ? ' (on)' : ''}
          </Button>
          <Button variant="outline" onClick={onExport} disabled={!data}>
            <ArrowDownToLine aria-hidden="true" />
            Export
          </Button>
        </div>
      </div>

      {filtersOpen ? (
        <Card id={panelId} role="region" aria-label="Filters" className="mt-4">
          <CardContent className="grid gap-4 pt-6 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
            <div className="grid gap-2">
              <Label htmlFor="impact-from">From</Label>
              <Input
                id="impact-from"
                type="date"
                value={filters.from}
                max={filters.to || undefined}
                onChange={(e) => setFilter({ from: e.target.value })}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="impact-to">To</Label>
              <Input
                id="impact-to"
                type="date"
                value={filters.to}
                min={filters.from || undefined}
                onChange={(e) => setFilter({ to: e.target.value })}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="impact-partner">Partner</Label>
              <NativeSelect
                id="impact-partner"
                value={filters.partner}
                onChange={(e) => setFilter({ partner: e.target.value })}
              >
                <option value="">All partners</option>
                {partners.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <Button variant="ghost" onClick={() => setFilters(NO_FILTERS)} disabled={!isFiltered(filters)}>
              <X aria-hidden="true" />
              Clear
            </Button>
            {rangeInvalid ? (
              <p role="alert" className="text-sm font-medium text-destructive sm:col-span-4">
                {IMPACT_MESSAGES.fromAfterTo}
              </p>
            ) : null}
          </CardContent>
        </Card>
      ) : null}

      {impact.isPending ? (
        <div
          aria-busy="true"
          aria-label="Loading impact data"
          className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4"
        >
          {[0, 1, 2, 3].map((i) => (
            <div key={i} data-testid="impact-skeleton" className="h-32 animate-pulse rounded-xl bg-muted" />
          ))}
        </div>
      ) : impact.isError || !data ? (
        <Card role="alert" className="mt-6">
          <CardHeader>
            <CardTitle>Failed to fetch impact data</CardTitle>
            <CardDescription>{errorText(impact.error, 'Please try again.')}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button variant="outline" onClick={() => void impact.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try again
            </Button>
          </CardContent>
        </Card>
      ) : (
        <ImpactBody
          data={data}
          filters={filters}
          fetching={impact.isFetching}
          downloading={downloading}
          onDownload={() => void onDownloadCommissions()}
        />
      )}
    </section>
  );
}

function StatCard({ id, title, value, children }: { id: string; title: string; value: string; children?: ReactNode }) {
  return (
    <Card data-testid={`impact-${id}`}>
      <CardHeader className="pb-2">
        <CardDescription>{title}</CardDescription>
        <p className="text-3xl font-bold tabular-nums">{value}</p>
      </CardHeader>
      <CardContent className="text-sm text-muted-foreground">{children}</CardContent>
    </Card>
  );
}

function ImpactBody({
  data,
  filters,
  fetching,
  downloading,
  onDownload,
}: {
  data: ImpactSummary;
  filters: ImpactFilters;
  fetching: boolean;
  downloading: boolean;
  onDownload: () => void;
}) {
  const give = data.giveGetScore ?? { sent: data.totalReferrals, received: 0 };
  const payouts = data.payoutSummary;
  const money = (cents: number) => formatMoney(cents, payouts.currency);
  return (
    <div className="mt-6 grid grid-cols-1 gap-6" aria-busy={fetching}>
      {isFiltered(filters) ? (
        <p className="text-sm text-muted-foreground">
          {[
            filters.from ? `From ${formatLongDate(filters.from)}` : null,
            filters.to ? `to ${formatLongDate(filters.to)}` : null,
            filters.partner ? `partner ${filters.partner}` : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard id="total" title="Total Referrals Sent" value={String(data.totalReferrals)}>
          Pipeline value {formatMoney(data.pipelineValueCents, data.currency)}
        </StatCard>
        <StatCard id="acceptance" title="Acceptance Rate" value={formatPercent(data.acceptanceRate)}>
          {`${formatPercent(data.pendingRate)} pending · ${formatPercent(data.declineRate)} declined`}
        </StatCard>
        <StatCard
          id="commission"
          title="Commission Earned"
          value={formatMoney(data.payoutSummary.earnedCents, data.payoutSummary.currency)}
        >
          {`${data.closedWonCount} Closed-Won`}
        </StatCard>
        <StatCard id="giveget" title="Give-Get Score" value={`${give.sent}:${give.received}`}>
          Referrals sent : received
        </StatCard>
      </div>

      <section aria-labelledby="payouts-heading" className="grid grid-cols-1 gap-3">
        <h2 id="payouts-heading" className="text-lg font-semibold">
          {`Your payouts (${payouts.currency})`}
        </h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <StatCard id="pending" title="Pending" value={money(payouts.pendingCents)}>
            Milestones you marked that the vendor has not confirmed yet
          </StatCard>
          <StatCard id="escrow" title="In escrow" value={money(payouts.inEscrowCents)}>
            Confirmed by the vendor, waiting for the next payout
          </StatCard>
          <StatCard id="paid" title="Paid out" value={money(payouts.paidCents)}>
            {payouts.reversedCents > 0 ? `${money(payouts.reversedCents)} reversed` : 'Sent to you'}
          </StatCard>
        </div>
      </section>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Recent Activity</CardTitle>
          </CardHeader>
          <CardContent>
            {data.recentActivity.length === 0 ? (
              <p className="text-sm text-muted-foreground">No recent activity</p>
            ) : (
              <ul className="grid gap-3" aria-label="Recent activity">
                {data.recentActivity.map((a) => (
                  <li key={a.id} className="flex items-start justify-between gap-3 text-sm">
                    <div>
                      <p className="font-medium">{ACTIVITY_TEXT[a.type]?.(a) ?? a.type}</p>
                      <p className="text-muted-foreground">
                        <time dateTime={a.timestamp}>{timeAgo(a.timestamp)}</time>
                      </p>
                    </div>
                    {a.amountCents !== null ? (
                      <span className="font-semibold tabular-nums">{formatMoney(a.amountCents, data.currency)}</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Quality &amp; Conversion Funnel</CardTitle>
            <CardDescription>Each stage as a share of tee-ups</CardDescription>
          </CardHeader>
          <CardContent>
            <FunnelChart funnel={data.conversionFunnel} />
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Trends</CardTitle>
          <CardDescription>Last 12 months: referrals sent, Closed-Won and commission earned</CardDescription>
        </CardHeader>
        <CardContent>
          <TrendsChart trends={data.trends} />
        </CardContent>
      </Card>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Partner Leaderboard</CardTitle>
          </CardHeader>
          <CardContent>
            {data.partnerLeaderboard.length === 0 ? (
              <p className="text-sm text-muted-foreground">No partners yet</p>
            ) : (
              <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Partner leaderboard">
                <table className="stack-table w-full text-left text-sm">
                  <thead>
                    <tr className="border-b border-border text-muted-foreground">
                      <th scope="col" className="py-2 pr-3 font-medium">
                        Partner
                      </th>
                      <th scope="col" className="py-2 pr-3 text-right font-medium">
                        Sent
                      </th>
                      <th scope="col" className="py-2 pr-3 text-right font-medium">
                        Received
                      </th>
                      <th scope="col" className="py-2 pr-3 text-right font-medium">
                        Revenue
                      </th>
                      <th scope="col" className="py-2 text-right font-medium">
                        Reciprocity
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.partnerLeaderboard.map((p) => (
                      <tr key={p.partner} className="border-b border-border/50">
                        <th scope="row" className="py-2 pr-3 font-medium">
                          {p.partner}
                        </th>
                        <td className="py-2 pr-3 text-right tabular-nums" data-label="Sent">
                          {p.leadsSent}
                        </td>
                        <td className="py-2 pr-3 text-right tabular-nums" data-label="Received">
                          {p.leadsReceived}
                        </td>
                        <td className="py-2 pr-3 text-right tabular-nums" data-label="Revenue">
                          {formatThousands(p.revenueWonCents)}
                        </td>
                        <td className="py-2 text-right tabular-nums" data-label="Reciprocity">
                          {Math.round(p.reciprocityRatio * 100) / 100}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </CardContent>
        </Card>
        <div className="grid gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Payout Summary</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3">
              <dl className="grid gap-2 text-sm" data-testid="payout-summary">
                <div className="flex justify-between">
                  <dt className="text-muted-foreground">Earned</dt>
                  <dd className="font-semibold tabular-nums">{money(data.payoutSummary.earnedCents)}</dd>
                </div>
                <div className="flex justify-between">
                  <dt className="text-muted-foreground">In Escrow</dt>
                  <dd className="font-semibold tabular-nums">{money(data.payoutSummary.inEscrowCents)}</dd>
                </div>
                <div className="flex justify-between">
                  <dt className="text-muted-foreground">Paid Out</dt>
                  <dd className="font-semibold tabular-nums">{money(data.payoutSummary.paidCents)}</dd>
                </div>
                {data.payoutSummary.reversedCents > 0 ? (
                  <div className="flex justify-between">
                    <dt className="text-muted-foreground">Reversed</dt>
                    <dd className="font-semibold tabular-nums">{money(data.payoutSummary.reversedCents)}</dd>
                  </div>
                ) : null}
              </dl>
              <Button variant="outline" onClick={onDownload} disabled={downloading}>
                {downloading ? (
                  <Spinner className="size-4 text-current" label="Preparing CSV" />
                ) : (
                  <ArrowDownToLine aria-hidden="true" />
                )}
                Download CSV
              </Button>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
