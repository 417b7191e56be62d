import type { ReferralListItem as Referral, ReferralStatus } from '@app/contracts';
import { AlertCircle, ChevronLeft, ChevronRight, Inbox, Plus, RefreshCw, SearchX } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { toast } from '@/hooks/use-toast';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/errors';
import { resetSearch } from '@/stores/search-slice';
import { useAppDispatch } from '@/stores/store';
import { DEFAULT_FILTERS, useReferralList, type ReferralFilters } from '../api/list-referrals';
import { useUpdateReferralStatus } from '../api/update-status';
import { FilterBar } from './filter-bar';
import { ReferralSheet } from './referral-sheet';
import { ReferralsTable } from './referrals-table';
import { SummaryCards } from './summary-cards';
import { greetingName, isDefaultFilters } from '../utils/filters';

/** The search box is sent to the server once typing has paused this long. */
export const SEARCH_DEBOUNCE_MS = 300;

const newer = (a: Referral, b: Referral) => (Date.parse(a.updatedAt) >= Date.parse(b.updatedAt) ? a : b);

/** /dashboard, 'Tee ups' (spec 2, 4, 9): summary, filters, the referrals table and the detail sheet. */
export function DashboardPage({ user }: { user: { firstName?: string | null; email?: string | null } }) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [filters, setFilters] = useState<ReferralFilters>(DEFAULT_FILTERS);
  const debouncedSearch = useDebouncedValue(filters.search, SEARCH_DEBOUNCE_MS);
  // Clearing the box applies at once; typing waits for the pause.
  const appliedFilters: ReferralFilters = { ...filters, search: filters.search.trim() === '' ? '' : debouncedSearch };
  const filtersKey = JSON.stringify([
    appliedFilters.search.trim(),
    appliedFilters.status,
    appliedFilters.company,
    appliedFilters.days,
  ]);
  // The page belongs to one filter combination: any change of filters starts again at page 1.
  const [paging, setPaging] = useState({ key: filtersKey, page: 1 });
  const page = paging.key === filtersKey ? paging.page : 1;

  const list = useReferralList(appliedFilters, page);
  const updateStatus = useUpdateReferralStatus();
  const [selected, setSelected] = useState<Referral | null>(null);
  const [pendingStatus, setPendingStatus] = useState<ReferralStatus | null>(null);

  const data = list.data;
  const fromList = selected ? data?.referrals.find((referral) => referral.id === selected.id) : undefined;
  const shown = selected && fromList ? newer(fromList, selected) : selected;

  const onChange = (next: Partial<ReferralFilters>) => setFilters((current) => ({ ...current, ...next }));
  const onClear = () => setFilters(DEFAULT_FILTERS);
  const goToPage = (next: number) => setPaging({ key: filtersKey, page: next });

  // The referrer's own tracking: saved at once, earns nothing (the vendor confirms milestones).
  const onMark = async (status: ReferralStatus) => {
    if (!shown || pendingStatus) return;
    setPendingStatus(status);
    try {
      const updated = await updateStatus.mutateAsync({ id: shown.id, status });
      setSelected((current) => (current && current.id === updated.id ? updated : current));
      toast({ title: 'Status Updated', description: 'Referral status has been updated successfully' });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to update status') });
    } finally {
      setPendingStatus(null);
    }
  };

  const startFirstReferral = () => {
    dispatch(resetSearch());
    navigate(paths.home);
  };

  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      <header className="flex flex-col gap-1">
        <h1 className="text-sm font-semibold tracking-wide text-primary uppercase">Tee ups</h1>
        <p className="text-2xl font-bold tracking-tight sm:text-3xl">{`Welcome, ${greetingName(user)}`}</p>
        <p className="text-muted-foreground">Follow your referrals through every sales stage.</p>
      </header>

      <div className="mt-6">
        <SummaryCards summary={list.isError ? undefined : data?.summary} failed={list.isError} />
      </div>

      <div className="mt-6">
        <FilterBar
          filters={filters}
          companies={data?.companies ?? []}
          onChange={onChange}
          onClear={onClear}
          showClear={!isDefaultFilters(filters)}
        />
      </div>

      <div className="mt-4" aria-busy={list.isFetching}>
        {list.isError ? (
          <Card>
            <CardContent className="grid justify-items-center gap-3 py-12 text-center">
              <AlertCircle className="size-8 text-destructive" aria-hidden="true" />
              <p role="alert" className="font-semibold">
                Failed to fetch referrals
              </p>
              <p className="text-sm text-muted-foreground">{errorText(list.error, 'Please try again.')}</p>
              <Button variant="outline" onClick={() => void list.refetch()}>
                <RefreshCw aria-hidden="true" />
                Try again
              </Button>
            </CardContent>
          </Card>
        ) : !data ? (
          <div className="flex justify-center py-16">
            <Spinner className="size-8" label="Loading referrals" />
          </div>
        ) : data.summary.total === 0 ? (
          <Card>
            <CardContent className="grid justify-items-center gap-3 py-12 text-center">
              <Inbox className="size-10 text-muted-foreground" aria-hidden="true" />
              <h2 className="text-lg font-semibold">No referrals yet</h2>
              <p className="text-sm text-muted-foreground">
                Refer a product to someone who needs it, then follow it here.
              </p>
              <Button onClick={startFirstReferral}>
                <Plus aria-hidden="true" />
                Submit Your First Referral
              </Button>
            </CardContent>
          </Card>
        ) : data.referrals.length === 0 ? (
          <Card>
            <CardContent className="grid justify-items-center gap-2 py-12 text-center">
              <SearchX className="size-10 text-muted-foreground" aria-hidden="true" />
              <h2 className="text-lg font-semibold">No referrals match your filters</h2>
              <p className="text-sm text-muted-foreground">Try adjusting your search criteria or date range.</p>
            </CardContent>
          </Card>
        ) : (
          <>
            <ReferralsTable referrals={data.referrals} onOpen={setSelected} />
            <nav
              aria-label="Pagination"
              className="mt-4 flex flex-col items-center justify-between gap-3 text-sm sm:flex-row"
            >
              <p className="text-muted-foreground" aria-live="polite">
                {`Showing ${(data.page - 1) * data.pageSize + 1}–${Math.min(data.total, data.page * data.pageSize)} of ${data.total}`}
              </p>
              <div className="flex items-center gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => goToPage(page - 1)}
                  disabled={page <= 1 || list.isPlaceholderData}
                >
                  <ChevronLeft aria-hidden="true" />
                  Previous
                </Button>
                <span className="px-2 tabular-nums">{`Page ${data.page} of ${totalPages}`}</span>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => goToPage(page + 1)}
                  disabled={page >= totalPages || list.isPlaceholderData}
                >
                  Next
                  <ChevronRight aria-hidden="true" />
                </Button>
              </div>
            </nav>
          </>
        )}
      </div>

      <ReferralSheet
        referral={shown}
        reciprocity={data?.reciprocity}
        pendingStatus={pendingStatus}
        onMark={(status) => void onMark(status)}
        onOpenChange={(open) => {
          if (!open) setSelected(null);
        }}
      />
    </section>
  );
}
