import type { Referral } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { makeCommission, makeList, makeMilestone, makeMoney, makeReferral } from './fixtures';
import { installServer, json, makeUser, problem, renderRoute, type Handler } from './utils';

const routedLead: Referral['lead'] = {
  vendorId: 'v-acme',
  vendorName: 'Acme',
  status: 'accepted',
  declineReason: null,
  decidedAt: '2026-03-03T10:00:00.000Z',
};

function server(referrals: Referral[], extra?: Handler) {
  return installServer({
    user: makeUser(),
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/referrals') return json(200, makeList(referrals));
      return undefined;
    },
  });
}

const renderDashboard = () => renderRoute(<DashboardPage user={makeUser()} />, { at: paths.dashboard });
const rowFor = (name: string) => screen.getByRole('row', { name: new RegExp(name) });

describe('Tee ups money (issue 10)', () => {
  it('shows the commission earned, else the expected one, else TBD; and drafts awaiting approval', async () => {
    const earned = makeReferral({ money: makeMoney({ earnedCents: 80_000, expectedCents: 5_000 }) });
    const expected = makeReferral({
      id: 8,
      referredFirstName: 'Linus',
      referredLastName: 'Torvalds',
      money: makeMoney({ expectedCents: 123_456 }),
      awaitingApproval: true,
    });
    const none = makeReferral({ id: 9, referredFirstName: 'Alan', referredLastName: 'Turing' });
    server([earned, expected, none]);
    renderDashboard();
    await screen.findByRole('row', { name: /Grace Hopper/ });
    expect(within(rowFor('Grace Hopper')).getAllByRole('cell')[3]).toHaveTextContent('$800.00 earned');
    expect(within(rowFor('Linus Torvalds')).getAllByRole('cell')[3]).toHaveTextContent('$1,234.56 expected');
    expect(within(rowFor('Alan Turing')).getAllByRole('cell')[3]).toHaveTextContent('TBD');
    expect(rowFor('Linus Torvalds')).toHaveAccessibleName(expect.stringContaining('Draft awaiting your approval'));
    expect(
      within(rowFor('Linus Torvalds')).getByRole('link', { name: 'Draft awaiting your approval' }),
    ).toHaveAttribute('href', '/referral/8/email-draft');
    expect(within(rowFor('Grace Hopper')).queryByText('Draft awaiting your approval')).not.toBeInTheDocument();
  });

  it('shows the milestones panel and the commissions in the detail sheet', async () => {
    const referral = makeReferral({
      lead: routedLead,
      money: makeMoney({
        milestones: [
          makeMilestone('qualifiedLead', {
            state: 'confirmed',
            confirmedAt: '2026-03-04T10:00:00.000Z',
            confirmedBy: 'admin',
          }),
          makeMilestone('closedWon', {
            state: 'confirmed',
            confirmedAt: '2026-03-06T10:00:00.000Z',
            confirmedBy: 'vendor',
          }),
          makeMilestone('retentionBonus', {
            bounty: '$300 flat',
            bountyEnabled: true,
            dueAt: '2026-09-06T10:00:00.000Z',
          }),
        ],
        commissions: [
          makeCommission({ referrerCents: 8_000 }),
          makeCommission({
            id: 'c2',
            milestone: 'closedWon',
            referrerCents: 160_000,
            state: 'paid',
            paidAt: '2026-03-20T10:00:00.000Z',
            payoutReference: 'PAY-7',
          }),
        ],
        earnedCents: 168_000,
      }),
    });
    server([referral]);
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    const list = within(sheet).getByRole('list', { name: 'Milestones' });
    expect(within(list).getByRole('listitem', { name: 'Qualified Lead (Warm Intro)' })).toHaveTextContent(
      'Confirmed by an administrator for the vendor on Mar 4, 2026',
    );
    const retention = within(list).getByRole('listitem', { name: 'Retention Bonus' });
    expect(retention).toHaveTextContent('Bounty: $300 flat');
    expect(retention).toHaveTextContent('Can be confirmed from Sep 6, 2026');
    expect(within(retention).getByRole('button', { name: 'Ask the vendor to confirm Retention Bonus' })).toBeEnabled();
    const commissions = within(sheet).getByRole('list', { name: 'Commissions' });
    expect(commissions).toHaveTextContent('$80.00');
    expect(commissions).toHaveTextContent('$1,600.00');
    expect(commissions).toHaveTextContent('Paid Mar 20, 2026 (PAY-7)');
    expect(within(sheet).getByText('$1,680.00')).toBeInTheDocument();
  });

  it('asks the vendor to confirm with an optional message; refusals are told by code', async () => {
    const referral = makeReferral({ lead: routedLead });
    let answer: 'ok' | 'recent' | 'unrouted' = 'recent';
    const api = server([referral], (req) => {
      if (req.method !== 'POST' || req.path !== '/api/referrals/7/confirmation-requests') return undefined;
      if (answer === 'recent') return problem('CONFIRMATION_RECENTLY_REQUESTED');
      if (answer === 'unrouted') return problem('REFERRAL_NOT_ROUTED');
      return json(200, referral);
    });
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    await user.click(within(sheet).getByRole('button', { name: 'Ask the vendor to confirm Closed-Won' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ask Acme to confirm Closed-Won' });
    await user.type(within(dialog).getByLabelText('Message to the vendor (optional)'), 'I heard they signed');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'You already asked the vendor to confirm this milestone today.',
    );
    expect(api.callsTo('POST', '/api/referrals/7/confirmation-requests')[0]!.body).toEqual({
      milestone: 'closedWon',
      message: 'I heard they signed',
    });
    answer = 'unrouted';
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('did not reach a vendor on the platform'),
    );
    answer = 'ok';
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Request sent')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Ask Acme to confirm Closed-Won' })).not.toBeInTheDocument(),
    );
  });

  it('offers no request when the referral was not routed', async () => {
    server([makeReferral()]);
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    expect(within(sheet).getByText(/no one can confirm milestones yet/)).toBeInTheDocument();
    expect(within(sheet).queryByRole('button', { name: /Ask the vendor/ })).not.toBeInTheDocument();
  });
});

describe('Withdrawing a referral (issue 10)', () => {
  it('asks once more, then moves it to Declined with PUT', async () => {
    const referral = makeReferral({ lead: routedLead });
    const srv = server([referral], (req) =>
      req.method === 'PUT' && req.path === '/api/referrals/7/status'
        ? json(200, { ...referral, status: 'declined' })
        : undefined,
    );
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
    const group = await screen.findByRole('group', { name: 'Withdraw this referral' });
    await user.click(within(group).getByRole('button', { name: 'Withdraw referral' }));
    expect(group).toHaveTextContent('and tells the vendor. Commissions not paid yet are reversed.');
    expect(srv.callsTo('PUT', '/api/referrals/7/status')).toHaveLength(0);
    await user.click(within(group).getByRole('button', { name: 'Yes, withdraw' }));
    await waitFor(() => expect(srv.callsTo('PUT', '/api/referrals/7/status')[0]?.body).toEqual({ status: 'declined' }));
  });

  it('tells the vendor only when the referral reached one', async () => {
    server([makeReferral({ lead: null })]);
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
    const group = await screen.findByRole('group', { name: 'Withdraw this referral' });
    await user.click(within(group).getByRole('button', { name: 'Withdraw referral' }));
    expect(group).toHaveTextContent('Withdrawing moves the referral to Declined.');
    expect(group).not.toHaveTextContent('tells the vendor');
  });

  it("keeps the keyboard in place: the question focuses Cancel, Cancel the button again, Escape the row's View", async () => {
    server([makeReferral({ lead: routedLead })]);
    const user = userEvent.setup();
    renderDashboard();
    const view = await screen.findByRole('button', { name: 'View details for Grace Hopper' });
    view.focus();
    await user.keyboard('{Enter}');
    const group = await screen.findByRole('group', { name: 'Withdraw this referral' });
    const withdraw = within(group).getByRole('button', { name: 'Withdraw referral' });
    withdraw.focus();
    await user.keyboard('{Enter}');
    expect(within(group).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(within(group).getByRole('button', { name: 'Withdraw referral' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'View details for Grace Hopper' })).toHaveFocus();
  });

  it('shows a withdrawn referral as withdrawn, with no intro email left to review', async () => {
    server([makeReferral({ lead: { ...routedLead, status: 'withdrawn', decidedAt: null }, status: 'declined' })]);
    const user = userEvent.setup();
    renderDashboard();
    expect(await screen.findByRole('row', { name: /Grace Hopper/ })).toHaveTextContent('Withdrawn by you');
    await user.click(screen.getByRole('row', { name: /Grace Hopper/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    expect(sheet).toHaveTextContent('You withdrew this referral: Acme sees it as withdrawn');
    expect(within(sheet).queryByRole('link', { name: /intro email/ })).not.toBeInTheDocument();
  });

  it('offers no withdrawal once the referral is Declined', async () => {
    server([makeReferral({ lead: routedLead, status: 'declined' })]);
    const user = userEvent.setup();
    renderDashboard();
    await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
    await screen.findByRole('dialog', { name: 'Grace Hopper' });
    expect(screen.queryByRole('button', { name: 'Withdraw referral' })).not.toBeInTheDocument();
  });
});
