import type { Commission, ImpactSummary } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { csvField, toCsv } from '@/features/referral-impact/components/csv';
import { funnelPercent, timeAgo } from '@/features/referral-impact/components/format';
import { paths } from '@/config/paths';
import { ReferralImpactPage } from '@/features/referral-impact/components/referral-impact-page';
import { makeCommission } from './fixtures';
import { installServer, json, makeUser, renderRoute, type RecordedRequest } from './utils';

const renderImpact = () => renderRoute(<ReferralImpactPage />, { at: paths.referralImpact });

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

const summary: ImpactSummary = {
  totalReferrals: 24,
  acceptanceRate: 62.5,
  pendingRate: 25,
  declineRate: 12.5,
  currency: 'USD',
  pipelineValueCents: 4_800_000,
  closedWonCount: 3,
  giveGetScore: { sent: 24, received: 7 },
  payoutSummary: {
    currency: 'USD',
    pendingCents: 25_000,
    earnedCents: 1_234_550,
    paidCents: 200_000,
    inEscrowCents: 1_034_550,
    reversedCents: 0,
  },
  recentActivity: [
    {
      id: 'a1',
      type: 'closed',
      partner: 'Acme Inc',
      contact: 'Grace Hopper',
      amountCents: 175_000,
      timestamp: daysAgo(3),
    },
    {
      id: 'a2',
      type: 'sent',
      partner: 'Tux Ltd',
      contact: 'Linus Torvalds',
      amountCents: null,
      timestamp: daysAgo(0.1),
    },
    { id: 'a3', type: 'declined', partner: 'Tux Ltd', contact: 'Ada Byron', amountCents: null, timestamp: daysAgo(4) },
    { id: 'a4', type: 'withdrawn', partner: 'Acme Inc', contact: 'Alan Kay', amountCents: null, timestamp: daysAgo(5) },
  ],
  conversionFunnel: { teeUps: 20, warmIntros: 10, demos: 5, closedWon: 3 },
  partnerLeaderboard: [
    { partner: 'Acme Inc', leadsSent: 10, leadsReceived: 4, revenueWonCents: 1_250_000, reciprocityRatio: 0.4 },
    { partner: 'Tux, "the" Ltd', leadsSent: 6, leadsReceived: 3, revenueWonCents: 15_000_000, reciprocityRatio: 0.5 },
  ],
  trends: [
    { month: '2026-01', sent: 4, closedWon: 1, earnedCents: 100_000 },
    { month: '2026-02', sent: 8, closedWon: 2, earnedCents: 1_134_550 },
  ],
};

const commissions: Commission[] = [
  makeCommission({
    id: 'c1',
    referralId: 7,
    milestone: 'closedWon',
    partner: 'Acme, Inc',
    contact: 'Grace "Amazing" Hopper',
    grossCents: 250_000,
    referrerCents: 175_000,
    feeCents: 75_000,
    state: 'in_escrow',
    earnedAt: '2026-02-10T12:00:00.000Z',
  }),
  makeCommission({
    id: 'c2',
    referralId: 8,
    milestone: 'qualifiedLead',
    partner: '=HYPERLINK("x")',
    contact: 'Linus\nTorvalds',
    grossCents: 10_005,
    referrerCents: 7_004,
    feeCents: 3_001,
    state: 'paid',
    earnedAt: '2026-01-05T09:00:00.000Z',
    paidAt: '2026-01-20T09:00:00.000Z',
    payoutReference: 'PAY-7',
  }),
];

function impactServer(answer: (req: RecordedRequest) => Response | Promise<Response> = () => json(200, summary)) {
  return installServer({
    user: makeUser(),
    handler: (req) => {
      if (req.method === 'GET' && req.path === '/api/referral-impact') return answer(req);
      if (req.method === 'GET' && req.path === '/api/commissions') return json(200, commissions);
      return undefined;
    },
  });
}

const paramsOf = (req: RecordedRequest) => Object.fromEntries(new URL(req.url, 'http://localhost').searchParams);

/** Captures what the page downloads: the Blob given to createObjectURL and the link's file name. */
function captureDownloads() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return `blob:test/${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  const text = (blob: Blob) =>
    new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });
  return { blobs, names, text };
}

describe('Referral Impact Dashboard', () => {
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  beforeEach(() => {
    vi.restoreAllMocks();
  });
  afterEach(() => {
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
    vi.restoreAllMocks();
  });

  it('formats helpers: funnel rule, relative time, CSV escaping', () => {
    expect(funnelPercent(5, 20)).toBe(25);
    expect(funnelPercent(5, 0)).toBe(0);
    expect(funnelPercent(0, 0, true)).toBe(100);
    expect(timeAgo(new Date(Date.now() - 3 * 86_400_000).toISOString())).toBe('3 days ago');
    expect(timeAgo(new Date(Date.now() - 60_000).toISOString())).toBe('1 minute ago');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField(-5)).toBe('-5');
    expect(csvField(null)).toBe('');
    expect(
      toCsv([
        ['a', 1],
        ['b', 2],
      ]),
    ).toBe('a,1\r\nb,2\r\n');
  });

  it('shows four skeleton cards while loading, then the cards, funnel, leaderboard and payouts', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    impactServer(async () => {
      await gate;
      return json(200, summary);
    });
    renderImpact();
    expect(await screen.findByRole('heading', { name: 'Referral Impact Dashboard' })).toBeInTheDocument();
    expect(screen.getAllByTestId('impact-skeleton')).toHaveLength(4);
    release();

    expect(await screen.findByTestId('impact-total')).toHaveTextContent('Total Referrals Sent24');
    expect(screen.queryByTestId('impact-skeleton')).not.toBeInTheDocument();
    expect(screen.getByTestId('impact-total')).toHaveTextContent('Pipeline value $48,000');
    expect(screen.getByTestId('impact-acceptance')).toHaveTextContent(
      'Acceptance Rate62.5%25% pending · 12.5% declined',
    );
    expect(screen.getByTestId('impact-commission')).toHaveTextContent('Commission Earned$12,345.53 Closed-Won');
    expect(screen.getByTestId('impact-giveget')).toHaveTextContent('Give-Get Score24:7');

    expect(screen.getByText('Closed-Won: Grace Hopper with Acme Inc')).toBeInTheDocument();
    // Declined is the vendor's decision or the referrer's withdrawal, never put on the client.
    expect(screen.getByText('Tux Ltd declined the intro of Ada Byron')).toBeInTheDocument();
    expect(screen.getByText('You withdrew the referral of Alan Kay to Acme Inc')).toBeInTheDocument();
    expect(screen.getByText('3 days ago')).toBeInTheDocument();
    expect(screen.getByText('2 hours ago')).toBeInTheDocument();
    expect(screen.getByText('$1,750')).toBeInTheDocument();

    expect(screen.getByTestId('funnel-Tee-ups')).toHaveTextContent('20 · 100%');
    expect(screen.getByTestId('funnel-Warm Intros')).toHaveTextContent('10 · 50%');
    expect(screen.getByTestId('funnel-Demos')).toHaveTextContent('5 · 25%');
    expect(screen.getByTestId('funnel-Closed-Won')).toHaveTextContent('3 · 15%');
    expect(screen.getByRole('img', { name: 'Warm Intros: 10, 50% of tee-ups' })).toBeInTheDocument();

    const trends = screen.getByRole('img', { name: /Referral trends by month/ });
    expect(trends).toHaveAccessibleName(expect.stringContaining('12 sent, 3 Closed-Won, $12,345.5 earned'));
    // Months with their year in full ('Feb 26' read as a day of February).
    expect(within(trends).getByText('Feb 2026')).toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: 'Referral trends by month' })).getByText('Jan 2026'),
    ).toBeInTheDocument();

    const board = screen.getByRole('region', { name: 'Partner leaderboard' });
    expect(within(board).getByRole('row', { name: /Acme Inc/ })).toHaveTextContent('Acme Inc104$12.5k0.4');
    expect(within(board).getByRole('row', { name: /Tux/ })).toHaveTextContent('$150k');

    // Issue 12: no badge made of fixed figures.
    expect(screen.queryByText('Gold Referrer')).not.toBeInTheDocument();
    expect(screen.queryByText(/NPS|Top 5%/)).not.toBeInTheDocument();
    expect(screen.getByTestId('payout-summary')).toHaveTextContent('Earned$12,345.5In Escrow$10,345.5Paid Out$2,000');
    expect(screen.getByRole('heading', { name: 'Your payouts (USD)' })).toBeInTheDocument();
    expect(screen.getByTestId('impact-pending')).toHaveTextContent('Pending$250');
    expect(screen.getByTestId('impact-escrow')).toHaveTextContent('In escrow$10,345.5');
    expect(screen.getByTestId('impact-paid')).toHaveTextContent('Paid out$2,000');
  });

  it('shows empty states, not a chart of zeros, for a user with no referrals (issue 12)', async () => {
    const months = Array.from({ length: 12 }, (_, i) => ({
      month: `2026-${String(i + 1).padStart(2, '0')}`,
      sent: 0,
      closedWon: 0,
      earnedCents: 0,
    }));
    impactServer(() =>
      json(200, {
        ...summary,
        totalReferrals: 0,
        conversionFunnel: { teeUps: 0, warmIntros: 0, demos: 0, closedWon: 0 },
        partnerLeaderboard: [],
        trends: months,
      }),
    );
    renderImpact();
    expect(await screen.findByText('No tee-ups yet: the funnel fills in as you refer.')).toBeInTheDocument();
    expect(screen.queryByTestId('funnel-Tee-ups')).not.toBeInTheDocument();
    expect(screen.getByText(/No referrals in the last 12 months yet/)).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Referral trends by month/ })).not.toBeInTheDocument();
    expect(screen.queryByText('$0k')).not.toBeInTheDocument();
  });

  it('labels the trend axes once each: no 1/1/0 or $0k', async () => {
    const { axisMoney } = await import('@/features/referral-impact/components/charts');
    expect([0, 5_000, 25_000, 150_000, 1_234_550].map(axisMoney)).toEqual(['$0', '$50', '$250', '$1.5k', '$12k']);
    impactServer(() =>
      json(200, { ...summary, trends: [{ month: '2026-01', sent: 1, closedWon: 0, earnedCents: 0 }] }),
    );
    renderImpact();
    const chart = await screen.findByRole('img', { name: /Referral trends by month/ });
    const labels = [...chart.querySelectorAll('text')].map((t) => t.textContent);
    expect(labels.filter((l) => /^\d+$/.test(l ?? ''))).toEqual(['0', '1']);
    expect(labels.filter((l) => l?.startsWith('$'))).toEqual(['$0']);
  });

  it('shows the failure text', async () => {
    impactServer(() => json(500, { message: 'boom', code: 'INTERNAL_ERROR' }, 'Internal Server Error'));
    renderImpact();
    expect(await screen.findByText('Failed to fetch impact data')).toBeInTheDocument();
  });

  it('sends the filters as query parameters and Clear removes them', async () => {
    // Narrowed to a partner, the leaderboard has only that partner: the others stay in the select.
    const server = impactServer((req) =>
      json(
        200,
        paramsOf(req).partner
          ? { ...summary, totalReferrals: 2, partnerLeaderboard: [summary.partnerLeaderboard[0]] }
          : summary,
      ),
    );
    renderImpact();
    await screen.findByTestId('impact-total');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Filters/ }));
    const panel = screen.getByRole('region', { name: 'Filters' });
    fireEvent.change(within(panel).getByLabelText('From'), { target: { value: '2026-01-01' } });
    fireEvent.change(within(panel).getByLabelText('To'), { target: { value: '2026-03-31' } });
    await user.selectOptions(within(panel).getByLabelText('Partner'), 'Acme Inc');
    await waitFor(() =>
      expect(server.callsTo('GET', '/api/referral-impact').map(paramsOf).at(-1)).toEqual({
        from: '2026-01-01',
        to: '2026-03-31',
        partner: 'Acme Inc',
      }),
    );
    expect(await screen.findByText(/From January 1, 2026 · to March 31, 2026 · partner Acme Inc/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('impact-total')).toHaveTextContent('Total Referrals Sent2'));
    expect(
      within(screen.getByLabelText('Partner'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All partners', 'Acme Inc', 'Tux, "the" Ltd']);
    expect(screen.getByTestId('impact-total')).toHaveTextContent('Total Referrals Sent2');
    await user.click(within(panel).getByRole('button', { name: 'Clear' }));
    // The unfiltered figures are already cached (read on arrival): shown again without a new request.
    expect(await screen.findByTestId('impact-total')).toHaveTextContent('Total Referrals Sent24');
    expect(server.callsTo('GET', '/api/referral-impact').map(paramsOf)[0]).toEqual({});
    expect(screen.queryByText(/From January 1, 2026/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Partner')).toHaveValue('');
    expect(screen.getByLabelText('From')).toHaveValue('');
  });

  it('Export downloads the summary and leaderboard as CSV', async () => {
    impactServer();
    const downloads = captureDownloads();
    renderImpact();
    await screen.findByTestId('impact-total');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export' }));
    expect(downloads.names).toEqual(['referral-impact-all-time.csv']);
    expect(downloads.blobs[0]!.type).toBe('text/csv;charset=utf-8');
    const csv = await downloads.text(downloads.blobs[0]!);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Metric,Value');
    expect(lines).toContain('Total referrals sent,24');
    expect(lines).toContain('Acceptance rate (%),62.5');
    expect(lines).toContain('Commission earned,12345.50');
    expect(lines).toContain('Pipeline value,48000.00');
    expect(lines).toContain('Currency,USD');
    expect(lines).toContain('Give-get (sent:received),24:7');
    expect(lines).toContain('Partner,Leads sent,Leads received,Revenue won,Reciprocity ratio');
    expect(lines).toContain('Acme Inc,10,4,12500.00,0.4');
    expect(lines).toContain('"Tux, ""the"" Ltd",6,3,150000.00,0.5');
  });

  it('Download CSV reads the commissions with the filters and saves them as CSV', async () => {
    const server = impactServer();
    const downloads = captureDownloads();
    renderImpact();
    await screen.findByTestId('impact-total');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Filters/ }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    await waitFor(() =>
      expect(server.callsTo('GET', '/api/referral-impact').map(paramsOf).at(-1)).toEqual({ from: '2026-01-01' }),
    );
    await screen.findByTestId('impact-total');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(downloads.names).toEqual(['commissions-2026-01-01-to-today.csv']));
    expect(server.callsTo('GET', '/api/commissions').map(paramsOf)).toEqual([{ from: '2026-01-01' }]);
    const csv = await downloads.text(downloads.blobs[0]!);
    expect(csv).toBe(
      [
        'Date,Referral,Partner,Contact,Milestone,Gross,Your share,Fee,Currency,State,Paid on,Payout reference,Reversed on,Reversal reason',
        '2026-02-10,7,"Acme, Inc","Grace ""Amazing"" Hopper",Closed-Won,2500.00,1750.00,750.00,USD,In escrow,,,,',
        `2026-01-05,8,"'=HYPERLINK(""x"")","Linus\nTorvalds",Qualified Lead,100.05,70.04,30.01,USD,Paid out,2026-01-20,PAY-7,,`,
        '',
      ].join('\r\n'),
    );
  });
});
