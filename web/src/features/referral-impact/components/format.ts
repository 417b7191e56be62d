const currencyFormats = new Map<string, Intl.NumberFormat>();
const moneyFormat = (currency: string) => {
  let format = currencyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    });
    currencyFormats.set(currency, format);
  }
  return format;
};
const thousands = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
// 'Mar 2026': 'Mar 26' read as a day of March.
const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** Spec 9: integer cents with a dollar sign and locale separators: $12,500 / $1,234.5 (display only). */
export const formatMoney = (cents: number, currency = 'USD') => moneyFormat(currency).format(cents / 100);

/** The leaderboard's revenue (cents) in thousands followed by 'k': $12.5k; nothing won yet is $0, not $0k. */
export const formatThousands = (cents: number) => (cents === 0 ? '$0' : `$${thousands.format(cents / 100_000)}k`);

/** Rates are percentages 0-100, shown with at most one decimal. */
export const formatPercent = (n: number) => `${Math.round(n * 10) / 10}%`;

/** 'January 5, 2026' (a YYYY-MM-DD or an ISO timestamp). */
export const formatLongDate = (value: string) => {
  const d = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(d.getTime()) ? '' : longDate.format(d);
};

/** 'Jan 26' for '2026-01'. */
export const formatMonth = (month: string) => {
  const d = new Date(`${month}-01T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? month : monthFormat.format(d);
};

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** Spec 9: recent activity as relative time with 'ago' ('3 days ago'; under a minute: 'less than a minute ago'). */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '';
  for (const [unit, size] of UNITS) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
  }
  return 'less than a minute ago';
}

/** Spec 9's funnel rule: each bar is count / teeUps as a percentage; the Tee-ups bar is always 100. */
export function funnelPercent(count: number, teeUps: number, isTeeUps = false): number {
  if (isTeeUps) return 100;
  if (teeUps <= 0) return 0;
  return Math.round((count / teeUps) * 100);
}
