import type { MatchResponse, ProgramMatch } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { DiscoverPage } from '@/features/discover/components/discover-page';
import { referralStateFor } from '@/features/discover/utils/match-form';
import { SubmitReferralPage } from '@/features/referrals/components/submit-referral-page';
import { currentPath, installServer, json, makeUser, problem, renderRoute } from './utils';

const renderDiscover = () =>
  renderRoute(<DiscoverPage />, {
    at: paths.discover,
    routes: { [paths.submitReferral]: <SubmitReferralPage /> },
  });

const match = (overrides: Partial<ProgramMatch> = {}): ProgramMatch => ({
  programId: 'prog-1',
  programName: 'Acme CRM Partners',
  companyName: 'Acme Inc',
  website: 'https://acme.example',
  description: 'A CRM for small sales teams.',
  fit: 62,
  reasons: ['Mentions CRM for a sales team', 'Company size 11-50 is in the ICP'],
  reward: {
    rewardDetails: '20% of first-year revenue, paid quarterly.',
    bounties: [
      {
        milestone: 'closedWon',
        label: 'Closed-Won',
        type: 'flat',
        amount: 500,
        months: null,
        text: '$500 at Closed-Won',
      },
    ],
    referrerShare: 0.7,
  },
  ...overrides,
});

const answer: MatchResponse = {
  matches: [
    match(),
    match({
      programId: 'prog-2',
      programName: 'Pipeline Pro',
      companyName: null,
      fit: 91,
      description: 'Pipeline\nanalytics.',
      reasons: ['Strong need fit'],
    }),
  ],
  excluded: [
    { programId: 'prog-3', programName: 'Enterprise Suite', reasons: ['Company size 11-50 is below the ICP (1,001+)'] },
  ],
  rankedBy: 'local',
};

function matchServer(response: MatchResponse | (() => Response) = answer) {
  return installServer({
    user: makeUser(),
    handler: (req) => {
      if (req.method === 'POST' && req.path === '/api/match')
        return typeof response === 'function' ? response() : json(200, response);
      return undefined;
    },
  });
}

describe('Discover: Smart Match (issue 4)', () => {
  it('requires the need, sends the form and ranks the results with fit, reasons and reward', async () => {
    const server = matchServer();
    const user = userEvent.setup();
    renderDiscover();
    expect(await screen.findByRole('heading', { name: 'Discover' })).toBeInTheDocument();
    expect(screen.queryByText('Coming Soon')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Find Matches/ }));
    expect(await screen.findByText("Please describe your client's need")).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/match')).toHaveLength(0);

    await user.type(screen.getByLabelText('What does your client need?'), 'A CRM for our sales team');
    await user.type(screen.getByLabelText('Company'), 'Globex');
    await user.type(screen.getByLabelText('Industry'), 'Computer Software');
    await user.type(screen.getByLabelText('Country'), 'United States');
    await user.selectOptions(screen.getByLabelText('Company size'), '11-50');
    await user.type(screen.getByRole('combobox', { name: 'Integrations' }), 'Gmail{Enter}');
    await user.selectOptions(screen.getByLabelText('Urgency'), 'high');
    expect(server.callsTo('POST', '/api/match')).toHaveLength(0); // Enter did not submit
    await user.click(screen.getByRole('button', { name: /Find Matches/ }));

    const list = await screen.findByRole('list', { name: 'Matching programs' });
    // The answer takes the focus (and comes into view: on a phone it lands below the form).
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Best matches' })).toHaveFocus());
    expect(server.callsTo('POST', '/api/match')[0]!.body).toEqual({
      need: 'A CRM for our sales team',
      company: 'Globex',
      industry: 'Computer Software',
      country: 'United States',
      companySize: '11-50',
      integrations: ['Gmail'],
      urgency: 'high',
    });
    const cards = within(list).getAllByRole('article');
    expect(cards.map((c) => within(c).getByRole('heading', { level: 2 }).textContent)).toEqual([
      '#1 Pipeline Pro',
      '#2 Acme CRM Partners',
    ]);
    const acme = cards[1]!;
    expect(within(acme).getByRole('meter', { name: 'Fit' })).toHaveAttribute('aria-valuenow', '62');
    expect(within(acme).getByText('62% fit')).toBeInTheDocument();
    expect(within(acme).getByText('by Acme Inc')).toBeInTheDocument();
    expect(within(acme).getByText('Company size 11-50 is in the ICP')).toBeInTheDocument();
    expect(within(acme).getByText('$500 at Closed-Won')).toBeInTheDocument();
    expect(within(acme).getByText('20% of first-year revenue, paid quarterly.')).toBeInTheDocument();
    expect(within(acme).getByText('You keep 70%')).toBeInTheDocument();

    // Excluded programs are listed, collapsed, with their reasons.
    const excluded = screen.getByText('Excluded (1)').closest('details')!;
    expect(excluded).not.toHaveAttribute('open');
    expect(within(excluded).getByText('Company size 11-50 is below the ICP (1,001+)')).toBeInTheDocument();
  });

  it('asks for approval, then starts the referral journey with the product info', async () => {
    matchServer();
    const user = userEvent.setup();
    renderDiscover();
    await user.type(await screen.findByLabelText('What does your client need?'), 'Pipeline analytics');
    await user.click(screen.getByRole('button', { name: /Find Matches/ }));
    await user.click(await screen.findByRole('button', { name: 'Refer to Acme CRM Partners' }));

    const dialog = await screen.findByRole('dialog', { name: 'Refer to Acme CRM Partners?' });
    expect(within(dialog).getByText(/Nothing is sent without your approval/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(currentPath()).toBe('/discover');

    await user.click(screen.getByRole('button', { name: 'Refer to Acme CRM Partners' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve & Continue' }));
    await waitFor(() => expect(currentPath()).toBe('/submit-referral'));
    expect(await screen.findByText('Acme CRM Partners')).toBeInTheDocument();
    expect(screen.getByText('A CRM for small sales teams.')).toBeInTheDocument();
  });

  it('carries the same navigation state as the search screen (company falls back to the program name)', () => {
    expect(referralStateFor(answer.matches[1]!, ' Pipeline analytics ')).toEqual({
      searchResult: 'Product: Pipeline Pro\nCompany: Pipeline Pro\nDescription: Pipeline analytics.',
      originalQuery: 'Pipeline analytics',
      productInfo: {
        product: 'Pipeline Pro',
        company: 'Pipeline Pro',
        description: 'Pipeline analytics.',
        website: answer.matches[1]!.website,
      },
    });
  });

  it('shows the empty state when nothing matches, and a toast when the call fails', async () => {
    let fail = false;
    matchServer(() =>
      fail
        ? problem('VALIDATION_FAILED', 'At most 20 integrations')
        : json(200, { matches: [], excluded: [], rankedBy: 'llm' }),
    );
    const user = userEvent.setup();
    renderDiscover();
    await user.type(await screen.findByLabelText('What does your client need?'), 'Something rare');
    await user.click(screen.getByRole('button', { name: /Find Matches/ }));
    expect(await screen.findByText('No matching programs')).toBeInTheDocument();
    expect(screen.queryByText(/Excluded/)).not.toBeInTheDocument();
    fail = true;
    await user.click(screen.getByRole('button', { name: /Find Matches/ }));
    expect(await screen.findByText('At most 20 integrations')).toBeInTheDocument();
  });
});
