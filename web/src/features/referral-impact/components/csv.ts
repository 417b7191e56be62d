import type { Commission, ImpactSummary } from '@app/contracts';
import { BOUNTY_LABELS } from '@app/domain';
import type { ImpactFilters } from '../api/get-impact';

export type CsvCell = string | number | null | undefined;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break or edge spaces, with quotes
 * doubled. Text starting with = + - @ or a tab is prefixed with an apostrophe so a spreadsheet does not run
 * it as a formula (CSV injection); numbers are written as they are.
 */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows to CSV text, CRLF line ends (RFC 4180). */
export function toCsv(rows: CsvCell[][]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Integer cents as a decimal string, from the digits (no floating point): 123456 → '1234.56', -5 → '-0.05'. */
export function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const digits = String(Math.abs(Math.trunc(cents))).padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

export const PAYOUT_STATE_LABELS: Record<Commission['state'], string> = {
  in_escrow: 'In escrow',
  paid: 'Paid out',
  reversed: 'Reversed',
};

export const COMMISSION_COLUMNS = [
  'Date',
  'Referral',
  'Partner',
  'Contact',
  'Milestone',
  'Gross',
  'Your share',
  'Fee',
  'Currency',
  'State',
  'Paid on',
  'Payout reference',
  'Reversed on',
  'Reversal reason',
];

/** The Payout Summary's Download CSV: one row per commission, amounts as decimal strings from cents. */
export function commissionsCsv(commissions: Commission[]): string {
  return toCsv([
    COMMISSION_COLUMNS,
    ...commissions.map((c) => [
      c.earnedAt.slice(0, 10),
      c.referralId,
      c.partner,
      c.contact,
      BOUNTY_LABELS[c.milestone] ?? c.milestone,
      centsText(c.grossCents),
      centsText(c.referrerCents),
      centsText(c.feeCents),
      c.currency,
      PAYOUT_STATE_LABELS[c.state] ?? c.state,
      c.paidAt?.slice(0, 10) ?? '',
      c.payoutReference ?? '',
      c.reversedAt?.slice(0, 10) ?? '',
      c.reversalReason ?? '',
    ]),
  ]);
}

/** The Export button: the filters used, the summary figures, then the partner leaderboard. */
export function summaryCsv(summary: ImpactSummary, filters: ImpactFilters): string {
  const give = summary.giveGetScore ?? { sent: summary.totalReferrals, received: 0 };
  return toCsv([
    ['Metric', 'Value'],
    ['From', filters.from || 'All time'],
    ['To', filters.to || 'All time'],
    ['Partner', filters.partner || 'All partners'],
    ['Total referrals sent', summary.totalReferrals],
    ['Acceptance rate (%)', summary.acceptanceRate],
    ['Pending rate (%)', summary.pendingRate],
    ['Decline rate (%)', summary.declineRate],
    ['Currency', summary.currency],
    ['Pipeline value', centsText(summary.pipelineValueCents)],
    ['Closed-Won', summary.closedWonCount],
    ['Give-get (sent:received)', `${give.sent}:${give.received}`],
    ['Commission earned', centsText(summary.payoutSummary.earnedCents)],
    ['Pending', centsText(summary.payoutSummary.pendingCents)],
    ['In escrow', centsText(summary.payoutSummary.inEscrowCents)],
    ['Paid out', centsText(summary.payoutSummary.paidCents)],
    ['Reversed', centsText(summary.payoutSummary.reversedCents)],
    [],
    ['Partner', 'Leads sent', 'Leads received', 'Revenue won', 'Reciprocity ratio'],
    ...summary.partnerLeaderboard.map((p) => [
      p.partner,
      p.leadsSent,
      p.leadsReceived,
      centsText(p.revenueWonCents),
      p.reciprocityRatio,
    ]),
  ]);
}

/** A file name like 'referral-impact-2026-01-01-to-2026-03-31.csv' (or '...-all-time.csv'). */
export function csvFileName(base: string, filters: ImpactFilters): string {
  const range = filters.from || filters.to ? `${filters.from || 'start'}-to-${filters.to || 'today'}` : 'all-time';
  const partner = filters.partner
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${base}-${range}${partner ? `-${partner}` : ''}.csv`;
}

/** Saves text as a file through a Blob URL and a temporary link. */
export function downloadCsv(text: string, fileName: string): void {
  const blob = new Blob([text], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers start the download after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
