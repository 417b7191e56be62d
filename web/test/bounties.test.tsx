import { DEFAULT_BOUNTIES, type Bounties } from '@app/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { bountySummary } from '@app/domain';
import { paths } from '@/config/paths';
import { BountiesPage } from '@/features/onboarding/components/bounties-page';
import { bountyProblem } from '@/features/onboarding/utils/bounties';
import { currentPath, installServer, json, makeUser, problem, renderRoute, type Handler } from './utils';
import { makeVendor } from './fixtures';

const renderBounties = (user = makeUser()) => renderRoute(<BountiesPage user={user} />, { at: paths.bounties, user });

const none: Bounties = {
  qualifiedLead: { enabled: false },
  meetingHeld: { enabled: false },
  opportunityCreated: { enabled: false },
  closedWon: { enabled: false },
  retentionBonus: { enabled: false },
};

function bountiesServer(saved: Bounties | null, extra?: Handler, user = makeUser()) {
  return installServer({
    user,
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/vendors/mine')
        return json(200, { vendors: [makeVendor()], invitations: [] });
      if (req.method === 'GET' && req.path === '/api/bounties')
        return saved
          ? json(200, { bounties: saved, updatedAt: '2026-01-01T00:00:00.000Z' })
          : problem('BOUNTIES_NOT_FOUND');
      if (req.method === 'POST' && req.path === '/api/bounties')
        return json(200, { bounties: req.body, updatedAt: '2026-01-01T00:00:00.000Z' });
      return undefined;
    },
  });
}

const saveButton = () => screen.getByRole('button', { name: /Save Bounties/ });

describe('Set Your Bounties (spec 2, 5, 8)', () => {
  it('builds the summary line and the validation toasts', () => {
    expect(bountySummary(none)).toBeNull();
    expect(
      bountySummary({
        ...none,
        qualifiedLead: { enabled: true, type: 'flat', amount: 1500 },
        closedWon: { enabled: true, type: 'percentage_arr', amount: 20 },
        retentionBonus: { enabled: true, type: 'percentage_mrr', amount: 5, months: 6 },
      }),
    ).toBe(
      "You'll pay $1,500 at Qualified Lead, 20% of first-year ARR at Closed-Won and 5% of MRR for 6 months at Retention Bonus.",
    );
    expect(bountyProblem(none)).toEqual({
      title: 'No bounties set',
      description: 'Please enable at least one milestone to continue.',
    });
    expect(bountyProblem(DEFAULT_BOUNTIES)).toEqual({
      title: 'Incomplete bounties',
      description: 'Please enter a payout amount for every active milestone.',
    });
    expect(bountyProblem({ ...none, closedWon: { enabled: true, type: 'flat', amount: 10 } })).toBeNull();
    // A negative amount is not a missing one: its own message, under the field, not the 'Incomplete' toast.
    expect(bountyProblem({ ...none, closedWon: { enabled: true, type: 'flat', amount: -5 } })).toEqual({
      title: 'Check your bounties',
      description: 'Payout amount must be positive',
    });
  });

  it('starts from the defaults, shows details only when enabled and sends one entry per milestone', async () => {
    const server = bountiesServer(null);
    const user = userEvent.setup();
    renderBounties();
    const closedWon = await screen.findByRole('switch', { name: 'Enable Closed-Won' });
    expect(closedWon).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('switch', { name: 'Enable Qualified Lead' })).toHaveAttribute('aria-checked', 'false');
    expect(screen.getAllByLabelText('Payout type')).toHaveLength(1);

    // Incomplete: Closed-Won has no amount yet.
    await user.click(saveButton());
    expect(await screen.findByText('Incomplete bounties')).toBeInTheDocument();
    // The spec's toast, and the message next to the field (issue 12).
    expect(screen.getAllByText('Please enter a payout amount for every active milestone.')).toHaveLength(2);
    expect(screen.getByLabelText('Amount (USD)')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Amount (USD)')).toHaveAccessibleDescription(
      'Please enter a payout amount for every active milestone.',
    );
    expect(server.callsTo('POST', '/api/bounties')).toHaveLength(0);

    await user.type(screen.getByLabelText('Amount (USD)'), '2000');
    await user.click(screen.getByRole('switch', { name: 'Enable Meeting Held' }));
    expect(screen.getAllByLabelText('Payout type')).toHaveLength(2);
    const [meetingType] = screen.getAllByLabelText('Payout type');
    await user.selectOptions(meetingType!, 'percentage_mrr');
    const months = screen.getByLabelText('Months');
    expect(months).toHaveAttribute('placeholder', '12');
    expect(screen.getByText('How many months to receive the monthly MRR percentage')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Percentage (%)'), '10');
    // Bad months: said next to the field only, no toast over Save (issue 12).
    await user.clear(months);
    await user.type(months, '99');
    await user.click(saveButton());
    await waitFor(() => expect(months).toHaveAttribute('aria-invalid', 'true'));
    expect(months).toHaveAccessibleDescription(
      'How many months to receive the monthly MRR percentage Months must be between 1 and 60',
    );
    expect(screen.queryByText('Check your bounties')).not.toBeInTheDocument();
    expect(server.callsTo('POST', '/api/bounties')).toHaveLength(0);
    await user.clear(months);
    await user.type(months, '6');
    expect(
      screen.getByText("You'll pay 10% of MRR for 6 months at Meeting Held and $2,000 at Closed-Won."),
    ).toBeInTheDocument();

    await user.click(saveButton());
    await waitFor(() => expect(currentPath()).toBe('/'));
    expect(await screen.findByText('Bounties Saved')).toBeInTheDocument();
    expect(screen.getByText('Your reward bounties have been saved successfully.')).toBeInTheDocument();
    expect(screen.getByText('Bounties saved! Your partners can see them immediately.')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/bounties')[0]!.body).toEqual({
      qualifiedLead: { enabled: false },
      meetingHeld: { enabled: true, type: 'percentage_mrr', amount: 10, months: 6 },
      opportunityCreated: { enabled: false },
      closedWon: { enabled: true, type: 'flat', amount: 2000 },
      retentionBonus: { enabled: false },
    });
  });

  it("ends a vendor's onboarding on its workspace, a referrer's on the search (issue 12)", async () => {
    const vendor = makeUser({ intent: 'vendor' });
    bountiesServer({ ...none, closedWon: { enabled: true, type: 'flat', amount: 500 } }, undefined, vendor);
    const user = userEvent.setup();
    renderBounties(vendor);
    await user.click(await screen.findByRole('button', { name: /Save Bounties/ }));
    await waitFor(() => expect(currentPath()).toBe('/vendor?vendorId=v-acme'));
  });

  it('shows the empty state when none is enabled; its button enables Closed-Won', async () => {
    // Saved bounties always have one enabled (the contract's rule): none is enabled once Closed-Won is off.
    bountiesServer(null);
    const user = userEvent.setup();
    renderBounties();
    await user.click(await screen.findByRole('switch', { name: 'Enable Closed-Won' }));
    const add = await screen.findByRole('button', { name: 'Add your first bounty' });
    expect(saveButton()).toBeDisabled();
    expect(screen.queryByText(/You'll pay/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Payout type')).not.toBeInTheDocument();
    await user.click(add);
    expect(screen.getByRole('switch', { name: 'Enable Closed-Won' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.queryByRole('button', { name: 'Add your first bounty' })).not.toBeInTheDocument();
    expect(saveButton()).toBeEnabled();
    // The button went with its card: the keyboard goes to the amount it revealed.
    await waitFor(() => expect(screen.getByLabelText('Amount (USD)')).toHaveFocus());
  });

  it('loads saved bounties, toasts a failed save and tells unverified users to verify', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const unverified = makeUser({ emailVerified: false });
    bountiesServer(
      { ...none, opportunityCreated: { enabled: true, type: 'flat', amount: 300 } },
      (req) => (req.method === 'POST' && req.path === '/api/bounties' ? problem('EMAIL_NOT_VERIFIED') : undefined),
      unverified,
    );
    const user = userEvent.setup();
    renderBounties(unverified);
    expect(await screen.findByText('Email Verification Required')).toBeInTheDocument();
    expect(await screen.findByLabelText('Amount (USD)')).toHaveValue(300);
    await user.click(saveButton());
    expect(await screen.findByText('Failed to save your bounties. Please try again.')).toBeInTheDocument();
    expect(currentPath()).toBe('/onboarding/bounties');
    await user.click(screen.getAllByRole('button', { name: /Back/ })[0]!);
    expect(currentPath()).toBe('/');
    consoleError.mockRestore();
  });

  it('never opens an empty form over bounties it could not read: it says so, and opens once a read works', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    let reads = 0;
    const server = bountiesServer({ ...none, closedWon: { enabled: true, type: 'flat', amount: 700 } }, (req) => {
      if (req.method !== 'GET' || req.path !== '/api/bounties') return undefined;
      reads += 1;
      return reads === 1
        ? json(503, { message: 'down', code: 'SERVICE_UNAVAILABLE' }, 'Service Unavailable')
        : undefined;
    });
    const user = userEvent.setup();
    renderBounties();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your saved bounties could not be loaded');
    expect(screen.queryByRole('button', { name: /Save Bounties/ })).not.toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith('Failed to load the bounties', expect.anything());

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Amount (USD)')).toHaveValue(700);
    expect(screen.queryByText('Your saved bounties could not be loaded')).not.toBeInTheDocument();
    expect(reads).toBe(2);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    consoleError.mockRestore();
  });
});
