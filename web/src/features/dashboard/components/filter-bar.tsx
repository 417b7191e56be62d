import { REFERRAL_STATUSES, STATUS_LABELS, type ReferralStatus } from '@app/contracts';
import { Search, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import type { DateRange, ReferralFilters } from '../api/list-referrals';

/** Spec 4: the stage filter offers every stage but 'Intro Occurred'. */
export const STAGE_FILTER_OPTIONS = REFERRAL_STATUSES.filter((status) => status !== 'intro_occurred');

export const DATE_RANGE_OPTIONS: Array<{ value: DateRange; label: string }> = [
  { value: '90', label: 'Last 90 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '7', label: 'Last 7 days' },
  { value: 'all', label: 'All time' },
];

export function FilterBar({
  filters,
  companies,
  onChange,
  onClear,
  showClear,
}: {
  filters: ReferralFilters;
  companies: readonly string[];
  onChange: (next: Partial<ReferralFilters>) => void;
  onClear: () => void;
  showClear: boolean;
}) {
  return (
    <div
      role="group"
      aria-label="Filters"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto] lg:items-end"
    >
      <div className="grid gap-1.5 sm:col-span-2 lg:col-span-1">
        <Label htmlFor="referral-search">Search</Label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id="referral-search"
            type="search"
            placeholder="Name, email, company or reason"
            value={filters.search}
            onChange={(event) => onChange({ search: event.target.value })}
            className="pl-9"
            maxLength={200}
          />
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="referral-stage">Stage</Label>
        <NativeSelect
          id="referral-stage"
          value={filters.status}
          onChange={(event) => onChange({ status: event.target.value as ReferralStatus | '' })}
        >
          <option value="">All stages</option>
          {STAGE_FILTER_OPTIONS.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="referral-company">Company</Label>
        <NativeSelect
          id="referral-company"
          value={filters.company}
          onChange={(event) => onChange({ company: event.target.value })}
        >
          <option value="">All companies</option>
          {companies.map((company) => (
            <option key={company} value={company}>
              {company}
            </option>
          ))}
          {filters.company && !companies.includes(filters.company) ? (
            <option value={filters.company}>{filters.company}</option>
          ) : null}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="referral-range">Date range</Label>
        <NativeSelect
          id="referral-range"
          value={filters.days}
          onChange={(event) => onChange({ days: event.target.value as DateRange })}
        >
          {DATE_RANGE_OPTIONS.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </NativeSelect>
      </div>
      {showClear ? (
        <Button variant="ghost" onClick={onClear} className="justify-self-start lg:justify-self-auto">
          <X aria-hidden="true" />
          Clear
        </Button>
      ) : null}
    </div>
  );
}
