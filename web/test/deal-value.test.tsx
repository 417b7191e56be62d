import type { Referral } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { parseDealValue } from '@/features/dashboard/utils/deal-value';
import { makeList, makeReferral } from './fixtures';
import { installServer, json, makeUser, renderRoute } from './utils';

function server() {
  let current: Referral = makeReferral();
  return installServer({
    user: makeUser(),
    handler: (req) => {
      if (req.method === 'GET' && req.path === '/api/referrals') return json(200, makeList([current]));
      if (req.method === 'PUT' && req.path === `/api/referrals/${current.id}/status`) {
        const { status } = req.body as { status: Referral['status'] };
        current = {
          ...current,
          status,
          updatedAt: '2026-03-05T08:00:00.000Z',
          history: [...current.history, { from: current.status, to: status, at: '2026-03-05T08:00:00.000Z' }],
        };
        return json(200, current);
      }
      return undefined;
    },
  });
}

async function openClosedWon() {
  const user = userEvent.setup();
  renderRoute(<DashboardPage user={makeUser()} />, { at: paths.dashboard });
  await user.click(await screen.findByRole('row', { name: /Grace Hopper/ }));
  const sheet = await screen.findByRole('dialog', { name: 'Grace Hopper' });
  await user.click(within(sheet).getByRole('button', { name: 'Closed-Won' }));
  const dialog = await screen.findByRole('dialog', { name: 'Mark as Closed-Won' });
  return { user, dialog, input: within(dialog).getByLabelText('Deal value (first-year ARR, USD)') };
}

describe('Closed-Won deal value', () => {
  it('parses money-like input', () => {
    expect(parseDealValue('')).toBeUndefined();
    expect(parseDealValue(' $24,000.50 ')).toBe(24000.5);
    expect(parseDealValue('abc')).toBeNaN();
  });

  it('sends the deal value with the status', async () => {
    const api = server();
    const { user, dialog, input } = await openClosedWon();
    expect(api.callsTo('PUT', `/api/referrals/${makeReferral().id}/status`)).toHaveLength(0);
    await user.type(input, '24,000');
    await user.click(within(dialog).getByRole('button', { name: 'Mark Closed-Won' }));
    await waitFor(() =>
      expect(api.callsTo('PUT', `/api/referrals/${makeReferral().id}/status`)[0]?.body).toEqual({
        status: 'became_customer',
        dealValue: 24000,
      }),
    );
    expect(await screen.findByText('Status Updated')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Mark as Closed-Won' })).not.toBeInTheDocument();
  });

  it('refuses a value that is not positive, and Cancel sends nothing', async () => {
    const api = server();
    const { user, dialog, input } = await openClosedWon();
    await user.type(input, '-5');
    await user.click(within(dialog).getByRole('button', { name: 'Mark Closed-Won' }));
    expect(await within(dialog).findByText('Deal value must be positive')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.clear(input);
    await user.type(input, 'lots');
    await user.click(within(dialog).getByRole('button', { name: 'Mark Closed-Won' }));
    expect(await within(dialog).findByText('Deal value must be a number')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Mark as Closed-Won' })).not.toBeInTheDocument());
    expect(api.callsTo('PUT', `/api/referrals/${makeReferral().id}/status`)).toHaveLength(0);
    // Other milestones are unchanged: saved at once.
    await user.click(
      within(screen.getByRole('dialog', { name: 'Grace Hopper' })).getByRole('button', { name: 'Warm Intro' }),
    );
    await waitFor(() =>
      expect(api.callsTo('PUT', `/api/referrals/${makeReferral().id}/status`)[0]?.body).toEqual({
        status: 'intro_made',
      }),
    );
  });
});
