import type { Lead, MyVendors } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { LeadsPage } from '@/features/lead-inbox/components/leads-page';
import { makeCommission, makeLead, makeMilestone, makeMoney, makeVendor } from './fixtures';
import { installServer, json, makeUser, problem, renderRoute, type Handler } from './utils';

const ada = makeUser({ id: 'u1', email: 'ada@acme.example' });
const mine: MyVendors = { vendors: [makeVendor()], invitations: [] };
const accepted = makeLead({ status: 'accepted', stage: 'intro_made' });
const base = '/api/vendors/v-acme/leads/7';

function server(lead: Lead, extra?: Handler) {
  const state = { lead };
  const api = installServer({
    user: ada,
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/vendors/mine') return json(200, mine);
      if (req.method === 'GET' && req.path === '/api/vendors/v-acme/leads') return json(200, [state.lead]);
      return undefined;
    },
  });
  return { ...api, state };
}

const renderInbox = () => renderRoute(<LeadsPage />, { path: paths.vendorLeads, at: paths.vendorLeads, user: ada });

async function openLead() {
  renderInbox();
  const card = await screen.findByRole('article', { name: 'Globex' });
  return within(card);
}

describe('Lead inbox money (issue 10)', () => {
  it('lists the milestones with their bounties and states, and the commissions at their gross amount', async () => {
    const confirmed = makeMilestone('qualifiedLead', {
      state: 'confirmed',
      confirmedAt: '2026-03-04T10:00:00.000Z',
      confirmedBy: 'vendor',
    });
    const requested = makeMilestone('opportunityCreated', {
      state: 'requested',
      requestedAt: '2026-03-05T10:00:00.000Z',
    });
    server(
      makeLead({
        status: 'accepted',
        money: makeMoney({
          milestones: [confirmed, makeMilestone('meetingHeld'), requested, makeMilestone('closedWon')],
          commissions: [makeCommission({ grossCents: 12_345, referrerCents: 9_876 })],
          expectedValueCents: 2_400_000,
        }),
      }),
    );
    const card = await openLead();
    const list = card.getByRole('list', { name: 'Milestones of Globex' });
    const qualified = within(list).getByRole('listitem', { name: 'Qualified Lead (Warm Intro)' });
    expect(qualified).toHaveTextContent('Confirmed');
    expect(qualified).toHaveTextContent('Bounty: $100 flat');
    expect(qualified).toHaveTextContent('Confirmed by the vendor on Mar 4, 2026');
    expect(within(qualified).queryByRole('button')).not.toBeInTheDocument();
    const opportunity = within(list).getByRole('listitem', { name: 'Opportunity Created (Demo)' });
    expect(opportunity).toHaveTextContent('Confirmation requested');
    expect(opportunity).toHaveTextContent('Asked on Mar 5, 2026');
    expect(within(opportunity).getByRole('button', { name: 'Confirm Opportunity Created (Demo)' })).toBeEnabled();
    expect(within(list).getByRole('listitem', { name: 'Meeting Held (Intro Occurred)' })).toHaveTextContent(
      'No bounty',
    );
    expect(card.getByText('$24,000.00')).toBeInTheDocument();
    const commissions = card.getByRole('list', { name: 'Commissions of Globex' });
    expect(commissions).toHaveTextContent('$123.45');
    expect(commissions).not.toHaveTextContent('$98.76');
    expect(commissions).toHaveTextContent('In escrow');
  });

  it.each([
    ['before Closed-Won', 'open', null, 'After Closed-Won', false],
    ['before its date', 'confirmed', '2099-01-01T00:00:00.000Z', 'Can be confirmed from Jan 1, 2099', false],
    ['from its date', 'confirmed', '2026-01-01T00:00:00.000Z', 'Can be confirmed from Jan 1, 2026', true],
  ] as const)(
    'offers Confirm of the retention bonus only once it can be: %s',
    async (_case, closedWon, dueAt, text, offered) => {
      const milestones = [
        makeMilestone('closedWon', { state: closedWon }),
        makeMilestone('retentionBonus', { bountyEnabled: true, bounty: '$500 flat', dueAt }),
      ];
      server(makeLead({ status: 'accepted', money: makeMoney({ milestones }) }));
      const list = (await openLead()).getByRole('list', { name: 'Milestones of Globex' });
      const item = within(list).getByRole('listitem', { name: /Retention Bonus/ });
      expect(item).toHaveTextContent(text);
      const button = within(item).queryByRole('button', { name: /Confirm Retention Bonus/ });
      if (offered) expect(button).toBeEnabled();
      else expect(button).not.toBeInTheDocument();
    },
  );

  it('confirms a milestone without a deal value', async () => {
    const api = server(accepted, (req) =>
      req.method === 'POST' && req.path === `${base}/milestones` ? json(200, accepted) : undefined,
    );
    const user = userEvent.setup();
    const card = await openLead();
    await user.click(card.getByRole('button', { name: 'Confirm Qualified Lead (Warm Intro)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Qualified Lead (Warm Intro)' });
    expect(within(dialog).queryByLabelText(/Deal value/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(api.callsTo('POST', `${base}/milestones`)).toHaveLength(1));
    expect(api.callsTo('POST', `${base}/milestones`)[0]!.body).toEqual({ milestone: 'qualifiedLead' });
    expect(await screen.findByText('Milestone confirmed')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks the actual deal value at Closed-Won, sends it in cents and refreshes the lead', async () => {
    let reads = 0;
    const api = server(accepted, (req) => {
      if (req.method === 'GET' && req.path === '/api/vendors/v-acme/leads') reads += 1;
      return req.method === 'POST' && req.path === `${base}/milestones` ? json(200, accepted) : undefined;
    });
    const user = userEvent.setup();
    const card = await openLead();
    const before = reads;
    await user.click(card.getByRole('button', { name: 'Confirm Closed-Won' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Closed-Won' });
    const input = within(dialog).getByLabelText('Deal value (first-year ARR, USD)');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Please enter the deal value')).toBeInTheDocument();
    await user.type(input, '12.345');
    expect(await within(dialog).findByText(/Please enter an amount in dollars/)).toBeInTheDocument();
    await user.clear(input);
    expect(dialog).toHaveTextContent('Bounty: 10% of first-year ARR. Enter the deal value to see what you will owe.');
    await user.type(input, '$24,000.50');
    // What confirming records, at the value typed.
    expect(dialog).toHaveTextContent('Bounty: 10% of first-year ARR. You will owe $2,400.05.');
    await user.type(within(dialog).getByLabelText('Note (optional)'), 'Signed on Monday');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(api.callsTo('POST', `${base}/milestones`)).toHaveLength(1));
    expect(api.callsTo('POST', `${base}/milestones`)[0]!.body).toEqual({
      milestone: 'closedWon',
      dealValueCents: 2_400_050,
      note: 'Signed on Monday',
    });
    await waitFor(() => expect(reads).toBeGreaterThan(before));
  });

  it("shows the better of the referral's terms and today's at the deal value typed", async () => {
    const closedWon = makeMilestone('closedWon', {
      bounty: '$5,000.00 flat',
      termsAtReferral: { enabled: true, type: 'flat', amount: 5000 },
      termsNow: { enabled: true, type: 'percentage_arr', amount: 10 },
    });
    server(makeLead({ status: 'accepted', stage: 'intro_made', money: makeMoney({ milestones: [closedWon] }) }));
    const user = userEvent.setup();
    const card = await openLead();
    await user.click(card.getByRole('button', { name: 'Confirm Closed-Won' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Closed-Won' });
    const input = within(dialog).getByLabelText('Deal value (first-year ARR, USD)');
    await user.type(input, '24,000');
    expect(dialog).toHaveTextContent('Bounty: $5,000.00 flat. You will owe $5,000.00.');
    await user.clear(input);
    await user.type(input, '60,000');
    expect(dialog).toHaveTextContent('Bounty: 10% of first-year ARR. You will owe $6,000.00.');
  });

  it('asks the expected value at Opportunity Created and shows the server field error next to it', async () => {
    server(accepted, (req) =>
      req.method === 'POST' && req.path === `${base}/milestones`
        ? problem('DEAL_VALUE_TOO_LARGE', undefined, { field: 'dealValueCents' })
        : undefined,
    );
    const user = userEvent.setup();
    const card = await openLead();
    await user.click(card.getByRole('button', { name: 'Confirm Opportunity Created (Demo)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Opportunity Created (Demo)' });
    const input = within(dialog).getByLabelText('Expected deal value (first-year ARR, USD)');
    await user.type(input, '99999999999');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Deal value is above the allowed maximum')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a refusal by its code (already confirmed)', async () => {
    server(accepted, (req) =>
      req.method === 'POST' && req.path === `${base}/milestones` ? problem('MILESTONE_ALREADY_CONFIRMED') : undefined,
    );
    const user = userEvent.setup();
    const card = await openLead();
    await user.click(card.getByRole('button', { name: 'Confirm Meeting Held (Intro Occurred)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Meeting Held (Intro Occurred)' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This milestone has already been confirmed');
  });

  it('sets the expected value in cents', async () => {
    const api = server(accepted, (req) =>
      req.method === 'PUT' && req.path === `${base}/expected-value` ? json(200, accepted) : undefined,
    );
    const user = userEvent.setup();
    const card = await openLead();
    await user.click(card.getByRole('button', { name: 'Set expected value' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set expected value' });
    await user.type(within(dialog).getByLabelText('Expected deal value (first-year ARR, USD)'), '1,250.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.callsTo('PUT', `${base}/expected-value`)[0]?.body).toEqual({ expectedValueCents: 125_050 }),
    );
  });

  it('reverses the deal with a reason; NOTHING_TO_REVERSE is told', async () => {
    const withCommission = makeLead({ status: 'accepted', money: makeMoney({ commissions: [makeCommission()] }) });
    const api = server(withCommission, (req) =>
      req.method === 'POST' && req.path === `${base}/reverse` ? problem('NOTHING_TO_REVERSE') : undefined,
    );
    const user = userEvent.setup();
    const card = await openLead();
    await user.click(card.getByRole('button', { name: 'Reverse deal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse deal' });
    await user.click(within(dialog).getByRole('button', { name: 'Reverse deal' }));
    expect(await within(dialog).findByText('Please say why the deal is reversed')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Why is the deal reversed?'), 'Client churned in trial');
    await user.click(within(dialog).getByRole('button', { name: 'Reverse deal' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This referral has no commission to reverse');
    expect(api.callsTo('POST', `${base}/reverse`)[0]!.body).toEqual({ reason: 'Client churned in trial' });
  });

  it('gives the focus back to the button that opened a dialog when it closes (Escape, Cancel)', async () => {
    server(accepted);
    const user = userEvent.setup();
    const card = await openLead();
    const open = card.getByRole('button', { name: 'Confirm Qualified Lead (Warm Intro)' });
    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Qualified Lead (Warm Intro)' });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(open).toHaveFocus();
    const expected = card.getByRole('button', { name: 'Set expected value' });
    await user.click(expected);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(expected).toHaveFocus();
  });

  it('offers no Confirm on a declined lead', async () => {
    server(makeLead({ status: 'declined', declineReason: 'Out of scope', stage: 'declined' }));
    const card = await openLead();
    expect(card.queryByRole('button', { name: /^Confirm/ })).not.toBeInTheDocument();
    expect(card.getByText(/its milestones cannot be confirmed/)).toBeInTheDocument();
  });
});
