import type { Referral, ReferralList } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { User } from '@app/contracts';
import { paths } from '@/config/paths';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { buildTimeline } from '@/features/dashboard/utils/timeline';
import { greetingName } from '@/features/dashboard/utils/filters';
import { SearchPage } from '@/features/search/components/search-page';
import { makeList, makeMilestone, makeMoney, makeReferral, queryOf } from './fixtures';
import {
  currentPath,
  installServer,
  json,
  makeUser,
  problem,
  renderRoute,
  type Handler,
  type RecordedRequest,
} from './utils';

const renderDashboard = (user: User = makeUser()) =>
  renderRoute(<DashboardPage user={user} />, { at: paths.dashboard, user, routes: { [paths.home]: <SearchPage /> } });

const grace = makeReferral();
const linus = makeReferral({
  id: 8,
  projectId: 'p-tux',
  status: 'intro_made',
  referredFirstName: 'Linus',
  referredLastName: 'Torvalds',
  referredName: 'Linus Torvalds',
  referredEmail: 'linus@kernel.example',
  notes: 'Intro call booked for Tuesday',
  lastActivity: { at: '2026-03-04T15:30:00.000Z', text: 'Moved to Warm Intro' },
  company: 'Tux Ltd',
  project: { ...grace.project, id: 'p-tux', productName: 'Tux Cloud', companyName: 'Tux Ltd', website: null },
  history: [
    { from: null, to: 'pending', at: '2026-03-01T09:00:00.000Z' },
    { from: 'pending', to: 'intro_made', at: '2026-03-04T15:30:00.000Z' },
  ],
});

const listCalls = (server: { requests: RecordedRequest[] }) =>
  server.requests.filter((r) => r.method === 'GET' && r.path === '/api/referrals').map(queryOf);

function dashboardServer(
  list: ReferralList | ((req: RecordedRequest) => Response) = makeList([grace, linus]),
  extra?: Handler,
) {
  return installServer({
    user: makeUser(),
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/referrals')
        return typeof list === 'function' ? list(req) : json(200, list);
      return undefined;
    },
  });
}

const rowFor = (name: string) => screen.getByRole('row', { name: new RegExp(name) });

describe('Tee ups dashboard (spec 2, 4, 9)', () => {
  it('greets by first name, else the email before the at-sign, else User', async () => {
    expect(greetingName({ firstName: 'Ada', email: 'x@y.z' })).toBe('Ada');
    expect(greetingName({ firstName: '  ', email: 'grace.h@navy.example' })).toBe('grace.h');
    expect(greetingName({ firstName: null, email: '' })).toBe('User');
    expect(greetingName({})).toBe('User');

    const user = makeUser({ firstName: '' });
    installServer({ user, handler: (req) => (req.path === '/api/referrals' ? json(200, makeList([])) : undefined) });
    renderDashboard(user);
    expect(await screen.findByText('Welcome, ada')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Tee ups' })).toBeInTheDocument();
  });

  it('shows the four summary cards and the table with the spec columns', async () => {
    dashboardServer(makeList([grace, linus], { summary: { total: 12, inFlight: 7, closedWon: 3, declined: 2 } }));
    renderDashboard();
    await screen.findByRole('row', { name: /Grace Hopper/ });
    expect(screen.getByTestId('summary-total')).toHaveTextContent('Total Referrals12');
    expect(screen.getByTestId('summary-inFlight')).toHaveTextContent('In Flight7');
    expect(screen.getByTestId('summary-closedWon')).toHaveTextContent('Closed-Won3');
    expect(screen.getByTestId('summary-declined')).toHaveTextContent('Declined2');

    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Destination Company',
      'Referred Contact',
      'Stage',
      'Bounty',
      'Date Submitted',
      'Latest Activity',
      'Actions',
    ]);
    const graceCells = within(rowFor('Grace Hopper')).getAllByRole('cell');
    expect(graceCells[0]).toHaveTextContent('Acme IncAcme CRM');
    expect(graceCells[1]).toHaveTextContent('Grace Hoppergrace@navy.example');
    expect(graceCells[2]).toHaveTextContent('Tee-up');
    expect(graceCells[3]).toHaveTextContent('TBD');
    expect(graceCells[4]).toHaveTextContent('Mar 2, 2026');
    // Latest activity is the newest thing that happened (issue 10), with its date.
    expect(graceCells[5]).toHaveTextContent('Referral submittedMar 2, 2026');
    expect(within(rowFor('Linus Torvalds')).getAllByRole('cell')[5]).toHaveTextContent(
      'Moved to Warm IntroMar 4, 2026',
    );
    expect(within(rowFor('Linus Torvalds')).getAllByRole('cell')[2]).toHaveTextContent('Warm Intro');
    expect(within(graceCells[6]!).getByRole('link', { name: 'Intro email for Grace Hopper' })).toHaveAttribute(
      'href',
      '/referral/7/email-draft',
    );
  });

  it("names a routed referral's company by its vendor workspace, as the company filter does, not as first typed", async () => {
    const routed = makeReferral({
      company: 'Pipedrive',
      project: { ...grace.project, companyName: 'Pipedrive Inc.' },
    });
    dashboardServer(makeList([routed], { companies: ['Pipedrive'] }));
    renderDashboard();
    const cells = within(await screen.findByRole('row', { name: /Grace Hopper/ })).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('PipedriveAcme CRM');
    expect(cells[0]).not.toHaveTextContent('Pipedrive Inc.');
  });

  it('asks for the last 90 days of the first page by default', async () => {
    const server = dashboardServer();
    renderDashboard();
    await screen.findByRole('row', { name: /Grace Hopper/ });
    expect(listCalls(server)).toEqual([{ days: '90', page: '1', pageSize: '10' }]);
    expect(screen.getByLabelText('Date range')).toHaveDisplayValue('Last 90 days');
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
  });

  it('offers only the five filterable stages, the companies of the list and the four ranges', async () => {
    dashboardServer(makeList([grace, linus], { companies: ['Acme Inc', 'Tux Ltd', 'Zed GmbH'] }));
    renderDashboard();
    await screen.findByRole('row', { name: /Grace Hopper/ });
    const options = (label: string) =>
      within(screen.getByLabelText(label))
        .getAllByRole('option')
        .map((o) => o.textContent);
    expect(options('Stage')).toEqual(['All stages', 'Tee-up', 'Warm Intro', 'Demo', 'Closed-Won', 'Declined']);
    expect(options('Company')).toEqual(['All companies', 'Acme Inc', 'Tux Ltd', 'Zed GmbH']);
    expect(options('Date range')).toEqual(['Last 90 days', 'Last 30 days', 'Last 7 days', 'All time']);
  });

  it('sends the filters as query parameters, the search once typing pauses', async () => {
    const server = dashboardServer();
    const user = userEvent.setup();
    renderDashboard();
    await screen.findByRole('row', { name: /Grace Hopper/ });

    await user.type(screen.getByLabelText('Search'), 'grace');
    expect(listCalls(server).filter((q) => q.search !== undefined)).toEqual([]);
    await waitFor(() =>
      expect(listCalls(server).at(-1)).toEqual({ search: 'grace', days: '90', page: '1', pageSize: '10' }),
    );
    // One request for the whole word, none for each keystroke.
    expect(listCalls(server).filter((q) => q.search !== undefined)).toHaveLength(1);

    await user.selectOptions(screen.getByLabelText('Stage'), 'Demo');
    await waitFor(() => expect(listCalls(server).at(-1)).toMatchObject({ search: 'grace', status: 'intro_accepted' }));
    await user.selectOptions(screen.getByLabelText('Company'), 'Tux Ltd');
    await waitFor(() =>
      expect(listCalls(server).at(-1)).toMatchObject({ status: 'intro_accepted', company: 'Tux Ltd' }),
    );
    await user.selectOptions(screen.getByLabelText('Date range'), 'All time');
    await waitFor(() =>
      expect(listCalls(server).at(-1)).toEqual({
        search: 'grace',
        status: 'intro_accepted',
        company: 'Tux Ltd',
        days: 'all',
        page: '1',
        pageSize: '10',
      }),
    );
  });

  it('shows Clear when a filter differs from the default, and Clear resets them all to the defaults', async () => {
    // Any filter in use finds nothing; the default view finds both referrals.
    const server = dashboardServer((req) => {
      const query = queryOf(req);
      const filtered = query.search || query.status || query.company || query.days !== '90';
      const all = makeList([grace, linus]);
      return json(200, filtered ? makeList([], { summary: all.summary, companies: all.companies }) : all);
    });
    const user = userEvent.setup();
    renderDashboard();
    await screen.findByRole('row', { name: /Grace Hopper/ });

    await user.selectOptions(screen.getByLabelText('Date range'), 'Last 7 days');
    expect(screen.getByRole('button', { name: 'Clear' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Date range'), 'Last 90 days');
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Search'), 'x');
    expect(screen.getByRole('button', { name: 'Clear' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Stage'), 'Declined');
    await user.selectOptions(screen.getByLabelText('Company'), 'Acme Inc');
    await user.selectOptions(screen.getByLabelText('Date range'), 'Last 30 days');
    await waitFor(() =>
      expect(listCalls(server).at(-1)).toEqual({
        search: 'x',
        status: 'declined',
        company: 'Acme Inc',
        days: '30',
        page: '1',
        pageSize: '10',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'No referrals match your filters' })).toBeInTheDocument();
    const readsBeforeClear = listCalls(server).length;

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByLabelText('Search')).toHaveValue('');
    expect(screen.getByLabelText('Stage')).toHaveDisplayValue('All stages');
    expect(screen.getByLabelText('Company')).toHaveDisplayValue('All companies');
    expect(screen.getByLabelText('Date range')).toHaveDisplayValue('Last 90 days');
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
    // The default view is back at once (the cleared search is not debounced), from the cache.
    expect(await screen.findByRole('row', { name: /Grace Hopper/ })).toBeInTheDocument();
    expect(
      listCalls(server)
        .slice(readsBeforeClear)
        .filter((q) => q.search !== undefined),
    ).toEqual([]);
  });

  it('pages through the results', async () => {
    const server = dashboardServer((req) => {
      const page = Number(queryOf(req).page);
      return json(200, makeList(page === 1 ? [grace] : [linus], { total: 11, page, pageSize: 10 }));
    });
    const user = userEvent.setup();
    renderDashboard();
    await screen.findByRole('row', { name: /Grace Hopper/ });
    const pagination = screen.getByRole('navigation', { name: 'Pagination' });
    expect(pagination).toHaveTextContent('Showing 1–10 of 11');
    expect(pagination).toHaveTextContent('Page 1 of 2');
    expect(within(pagination).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(pagination).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('row', { name: /Linus Torvalds/ })).toBeInTheDocument();
    expect(listCalls(server).at(-1)).toMatchObject({ page: '2' });
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toHaveTextContent('Showing 11–11 of 11');
    expect(
      within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name: 'Next' }),
    ).toBeDisabled();
  });

  it("shows 'No referrals yet' to a user without referrals; its button starts a referral at /", async () => {
    dashboardServer(makeList([]));
    const user = userEvent.setup();
    renderDashboard();
    expect(await screen.findByRole('heading', { name: 'No referrals yet' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Your First Referral' }));
    expect(await screen.findByRole('heading', { name: 'What do you want to refer?' })).toBeInTheDocument();
    expect(currentPath()).toBe('/');
  });

  it('shows the filtered empty state when referrals exist but none match', async () => {
    dashboardServer(
      makeList([], { summary: { total: 4, inFlight: 4, closedWon: 0, declined: 0 }, companies: ['Acme Inc'] }),
    );
    renderDashboard();
    expect(await screen.findByRole('heading', { name: 'No referrals match your filters' })).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search criteria or date range.')).toBeInTheDocument();
    expect(screen.queryByText('No referrals yet')).not.toBeInTheDocument();
  });

  it("says 'Failed to fetch referrals' when the list cannot be read", async () => {
    dashboardServer(() => json(500, { message: 'db down' }, 'Internal Server Error'));
    renderDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch referrals');
    // The summary cards say so too, instead of loading placeholders that never end.
    expect(screen.getByTestId('summary-total')).toHaveTextContent('Not available');
    expect(screen.queryByLabelText('Loading')).not.toBeInTheDocument();
  });
});

describe('detail sheet', () => {
  it("shows the referrer's notes and the client organization, and the notes under the latest activity", async () => {
    const noted = makeReferral({
      notes: 'Met them at SaaStr;\nfollow up in May',
      client: { name: 'Navy Yard Ltd', website: 'https://navy.example', size: '51-200', country: 'USA', industry: '' },
    });
    const plain = makeReferral({
      id: 9,
      referredFirstName: 'Ada',
      referredLastName: 'Lovelace',
      referredName: 'Ada Lovelace',
      referredEmail: 'ada@engine.example',
    });
    dashboardServer(makeList([noted, plain]));
    const user = userEvent.setup();
    renderDashboard();
    const row = await screen.findByRole('row', { name: /Grace Hopper/ });
    // Spec 2: Latest Activity shows the notes; the newest thing that happened stays first (issue 10).
    expect(within(row).getAllByRole('cell')[5]).toHaveTextContent(
      'Referral submittedMar 2, 2026Notes: Met them at SaaStr; follow up in May',
    );
    expect(within(rowFor('Ada Lovelace')).getAllByRole('cell')[5]).toHaveTextContent(/^Referral submittedMar 2, 2026$/);
    await user.click(row);
    const sheet = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    const term = (name: string) => within(sheet).getByText(name, { selector: 'dt' }).nextElementSibling;
    expect(term('Client organization')).toHaveTextContent('Navy Yard Ltd · 51-200 · USA · https://navy.example');
    expect(term('Your notes')).toHaveTextContent('Met them at SaaStr; follow up in May');
  });

  it('opens on a row click and on Enter, and closes with Escape', async () => {
    dashboardServer();
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    expect(sheet).toHaveTextContent('Acme CRM · Acme Inc');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    rowFor('Linus Torvalds').focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Linus Torvalds' })).toBeInTheDocument();
  });

  it('disables the milestone of the current status and moves the referral with PUT, refetching the list', async () => {
    let current: Referral = linus;
    const server = dashboardServer(
      () => json(200, makeList([grace, current])),
      (req) => {
        if (req.method === 'PUT' && req.path === '/api/referrals/8/status') {
          const status = (req.body as { status: Referral['status'] }).status;
          current = {
            ...linus,
            status,
            updatedAt: '2026-03-05T08:00:00.000Z',
            history: [...linus.history, { from: 'intro_made', to: status, at: '2026-03-05T08:00:00.000Z' }],
          };
          return json(200, current);
        }
      },
    );
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Linus Torvalds/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Linus Torvalds' });
    const panel = within(within(sheet).getByRole('heading', { name: 'Mark Milestone' }).parentElement!);
    expect(panel.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Warm Intro',
      'Demo Scheduled',
      'Intro Occurred',
      'Closed-Won',
    ]);
    expect(panel.getByRole('button', { name: 'Warm Intro' })).toBeDisabled();
    expect(panel.getByRole('button', { name: 'Closed-Won' })).toBeEnabled();
    const listReadsBefore = listCalls(server).length;

    // Moving the stage earns nothing: the sheet says so, and Closed-Won asks no deal value any more.
    expect(panel.getByText(/Commissions count once the vendor confirms/)).toBeInTheDocument();
    await user.click(panel.getByRole('button', { name: 'Closed-Won' }));
    expect(screen.queryByRole('dialog', { name: 'Mark as Closed-Won' })).not.toBeInTheDocument();
    expect(await screen.findByText('Status Updated')).toBeInTheDocument();
    expect(screen.getByText('Referral status has been updated successfully')).toBeInTheDocument();
    expect(server.callsTo('PUT', '/api/referrals/8/status')[0]?.body).toEqual({ status: 'became_customer' });
    expect(listCalls(server).length).toBeGreaterThan(listReadsBefore);
    await waitFor(() => expect(panel.getByRole('button', { name: 'Closed-Won' })).toBeDisabled());
    expect(panel.getByRole('button', { name: 'Warm Intro' })).toBeEnabled();
    // The table behind the modal sheet is hidden from assistive technology while the sheet is open.
    const row = screen.getByRole('row', { name: /Linus Torvalds/, hidden: true });
    expect(within(row).getAllByRole('cell', { hidden: true })[2]).toHaveTextContent('Closed-Won');
    expect(within(sheet).getByRole('list', { name: 'Activity timeline' })).toHaveTextContent('Moved to Closed-Won');
  });

  it("toasts a destructive 'Error' when the status cannot be changed", async () => {
    dashboardServer(makeList([grace]), (req) => (req.method === 'PUT' ? problem('REFERRAL_FORBIDDEN') : undefined));
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
    await user.click(await screen.findByRole('button', { name: 'Demo Scheduled' }));
    expect(await screen.findByText('Not authorized to access this referral')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  it("falls back to 'Failed to update status'", async () => {
    dashboardServer(makeList([grace]), (req) =>
      req.method === 'PUT' ? json(400, { code: 'VALIDATION_FAILED' }) : undefined,
    );
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
    await user.click(await screen.findByRole('button', { name: 'Intro Occurred' }));
    expect(await screen.findByText('Failed to update status')).toBeInTheDocument();
  });

  it("shows the timeline from the referral's history and the reciprocity figures", async () => {
    dashboardServer(makeList([grace, linus], { reciprocity: { sent: 14, received: 3 } }));
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Linus Torvalds/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Linus Torvalds' });
    const items = within(within(sheet).getByRole('list', { name: 'Activity timeline' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Referral submitted');
    expect(items[0]).toHaveTextContent('Initial referral created');
    expect(items[1]).toHaveTextContent('Stage changed');
    expect(items[1]).toHaveTextContent('Moved to Warm Intro from Tee-up');
    expect(within(items[1]!).getByText(/Mar/).closest('time')).toHaveAttribute('dateTime', '2026-03-04T15:30:00.000Z');

    const reciprocity = within(within(sheet).getByRole('heading', { name: 'Reciprocity' }).parentElement!);
    expect(reciprocity.getByText('Sent').nextSibling).toHaveTextContent('14');
    expect(reciprocity.getByText('Received').nextSibling).toHaveTextContent('3');
    expect(within(sheet).getByRole('link', { name: 'Review intro email' })).toHaveAttribute(
      'href',
      '/referral/8/email-draft',
    );
  });

  it('builds the timeline oldest first, with the creation entry even without history, and the sent email', () => {
    const bare = makeReferral({ history: [], emailSentAt: '2026-03-03T12:00:00.000Z' });
    expect(buildTimeline(bare).map((e) => [e.kind, e.at])).toEqual([
      ['submitted', bare.createdAt],
      ['intro_sent', '2026-03-03T12:00:00.000Z'],
    ]);
    const moved = makeReferral({
      history: [
        { from: null, to: 'pending', at: '2026-03-02T10:00:00.000Z' },
        { from: 'intro_made', to: 'declined', at: '2026-03-09T10:00:00.000Z' },
        { from: 'pending', to: 'intro_made', at: '2026-03-05T10:00:00.000Z' },
      ],
    });
    expect(buildTimeline(moved).map((e) => e.text)).toEqual([
      'Initial referral created',
      'Moved to Warm Intro from Tee-up',
      'Moved to Declined from Warm Intro',
    ]);
  });

  it("shows the vendor's decision and the referral's own timeline (issue 9)", async () => {
    const accepted = makeReferral({
      lead: {
        vendorId: 'v-acme',
        vendorName: 'Acme',
        status: 'accepted',
        declineReason: null,
        decidedAt: '2026-03-03T10:00:00.000Z',
      },
      timeline: [
        { at: '2026-03-02T10:00:00.000Z', actor: 'referrer', kind: 'submitted', text: 'You referred Grace Hopper' },
        { at: '2026-03-02T10:00:01.000Z', actor: 'system', kind: 'routed', text: "Sent to Acme's lead inbox" },
        { at: '2026-03-03T10:00:00.000Z', actor: 'vendor', kind: 'accepted', text: 'Acme accepted the lead' },
      ],
    });
    const declined = makeReferral({
      ...linus,
      status: 'declined',
      lead: {
        vendorId: 'v-tux',
        vendorName: 'Tux',
        status: 'declined',
        declineReason: 'Not in our region',
        decidedAt: '2026-03-05T10:00:00.000Z',
      },
    });
    dashboardServer(makeList([accepted, declined]));
    const user = userEvent.setup();
    renderDashboard();
    const row = await screen.findByRole('row', { name: /Grace Hopper/ });
    expect(row).toHaveTextContent('Accepted by Acme');
    expect(screen.getByRole('row', { name: /Linus Torvalds/ })).toHaveTextContent('Declined by Tux');

    await user.click(row);
    const sheet = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    expect(within(sheet).getByText('Acme accepted this lead on Mar 3, 2026.')).toBeInTheDocument();
    const items = within(within(sheet).getByRole('list', { name: 'Activity timeline' })).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual([
      'Referral submitted',
      "Sent to the vendor's lead inbox",
      'Lead accepted',
    ]);
    expect(items[2]).toHaveTextContent('Acme accepted the lead');
    // Accepted: the stages stay the referrer's to mark.
    expect(within(sheet).getByRole('button', { name: 'Demo Scheduled' })).toBeEnabled();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('row', { name: /Linus Torvalds/ }));
    const other = await screen.findByRole('dialog', { name: 'Linus Torvalds' });
    expect(within(other).getByText('Tux declined this lead on Mar 5, 2026.')).toBeInTheDocument();
    expect(within(other).getByText('Reason: Not in our region')).toBeInTheDocument();
    expect(within(other).getByText('Declined', { selector: 'span' })).toBeInTheDocument();
    // The decline ends the lead: no stage can be marked any more (the server refuses REFERRAL_ENDED).
    expect(within(other).getByText('Tux declined this lead: its stage can no longer change.')).toBeInTheDocument();
    for (const name of ['Warm Intro', 'Demo Scheduled', 'Intro Occurred', 'Closed-Won'])
      expect(within(other).getByRole('button', { name })).toBeDisabled();
  });

  it('says when the vendor reversed the deal: the stage stays Closed-Won, its commissions do not', async () => {
    const reversed = makeReferral({
      status: 'became_customer',
      lead: {
        vendorId: 'v-acme',
        vendorName: 'Acme',
        status: 'accepted',
        declineReason: null,
        decidedAt: '2026-03-03T10:00:00.000Z',
      },
      money: makeMoney({
        milestones: [makeMilestone('closedWon', { state: 'reversed', confirmedAt: '2026-03-09T10:00:00.000Z' })],
      }),
    });
    dashboardServer(makeList([reversed]));
    renderDashboard();
    const row = await screen.findByRole('row', { name: /Grace Hopper, .*Closed-Won, Deal reversed/ });
    expect(row).toHaveTextContent('Deal reversed');
    expect(row).not.toHaveTextContent('Accepted by Acme');
  });

  it('says when the vendor is not on Referral Hub', async () => {
    dashboardServer(makeList([grace]));
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    expect(
      within(sheet).getByText('Acme Inc is not on Referral Hub yet: the intro goes to your client only.'),
    ).toBeInTheDocument();
  });
});
