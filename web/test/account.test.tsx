import { ACCOUNT_MESSAGES } from '@app/contracts';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { AccountPage } from '@/features/account/components/account-page';
import { memberSince, tabForPath } from '@/features/account/utils/tabs';
import { currentPath, installServer, json, makeUser, problem, renderRoute, type Handler } from './utils';

/** The account screen at one of its three routes (the tabs navigate between them). */
const renderAccount = (at: string) => {
  const page = <AccountPage user={makeUser()} />;
  return renderRoute(page, {
    at,
    path: paths.account,
    routes: { [paths.accountEmail]: page, [paths.accountPassword]: page },
  });
};

const accountServer = (handler?: Handler) => installServer({ user: makeUser(), handler });

describe('Account', () => {
  it('maps routes to tabs and formats Member Since', () => {
    expect(tabForPath('/account')).toBe('profile');
    expect(tabForPath('/account/email')).toBe('email');
    expect(tabForPath('/account/password')).toBe('password');
    expect(memberSince('2026-01-15T10:00:00.000Z')).toBe('January 15, 2026');
    expect(memberSince(null)).toBe('N/A');
    expect(memberSince('nonsense')).toBe('N/A');
  });

  it('shows the profile; the tab follows the route and a tab click changes the route', async () => {
    accountServer();
    const user = userEvent.setup();
    renderAccount(paths.account);
    expect(await screen.findByRole('tab', { name: 'Profile', selected: true })).toBeInTheDocument();
    // Read-only: a labelled value (term and definition), not an input.
    expect(screen.getByTestId('profile-email')).toHaveTextContent('ada@example.com');
    expect(screen.getByTestId('profile-email').tagName).toBe('DD');
    expect(screen.getByText('Email', { selector: 'dt' })).toBeInTheDocument();
    expect(screen.queryByDisplayValue('ada@example.com')).not.toBeInTheDocument();
    expect(screen.getByTestId('member-since')).toHaveTextContent('January 15, 2026');
    expect(screen.getByRole('link', { name: 'Edit Lead Criteria' })).toHaveAttribute('href', '/onboarding');

    await user.click(screen.getByRole('button', { name: 'Edit Email Settings' }));
    expect(currentPath()).toBe('/account/email');
    expect(screen.getByRole('tab', { name: 'Email', selected: true })).toBeInTheDocument();
    expect(screen.getByTestId('current-email')).toHaveTextContent('ada@example.com');
    expect(screen.getByText('Current Email', { selector: 'dt' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Password' }));
    expect(currentPath()).toBe('/account/password');
    expect(screen.getByLabelText('Current Password')).toBeInTheDocument();
  });

  it('opens the Password tab from its route and refuses mismatched passwords before sending', async () => {
    const server = accountServer();
    const user = userEvent.setup();
    renderAccount(paths.accountPassword);
    expect(await screen.findByRole('tab', { name: 'Password', selected: true })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Current Password'), 'old-secret');
    await user.type(screen.getByLabelText('New Password'), 'new-secret-1');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-secret-2');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/account/password')).toHaveLength(0);
  });

  it('sends one password change for a double click (the button is not disabled yet when the second lands)', async () => {
    const server = accountServer((req) => {
      if (req.method === 'POST' && req.path === '/api/account/password')
        return json(200, { message: ACCOUNT_MESSAGES.passwordChanged });
    });
    const user = userEvent.setup();
    renderAccount(paths.accountPassword);
    await user.type(await screen.findByLabelText('Current Password'), 'old-secret');
    await user.type(screen.getByLabelText('New Password'), 'new-secret-1');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-secret-1');
    // Both clicks before React renders again (a fast double click on a busy device).
    const button = screen.getByRole('button', { name: 'Update Password' });
    fireEvent.click(button);
    fireEvent.click(button);
    expect(await screen.findByText('Password Updated')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.callsTo('POST', '/api/account/password')).toHaveLength(1);
  });

  it('changes the password: success toast, then the server message on failure', async () => {
    let wrong = false;
    const server = accountServer((req) => {
      if (req.method === 'POST' && req.path === '/api/account/password') {
        return wrong
          ? problem('WRONG_PASSWORD', undefined, { field: 'currentPassword' })
          : json(200, { message: ACCOUNT_MESSAGES.passwordChanged });
      }
    });
    const user = userEvent.setup();
    renderAccount(paths.accountPassword);
    const fill = async () => {
      await user.type(await screen.findByLabelText('Current Password'), 'old-secret');
      await user.type(screen.getByLabelText('New Password'), 'new-secret-1');
      await user.type(screen.getByLabelText('Confirm New Password'), 'new-secret-1');
      await user.click(screen.getByRole('button', { name: 'Update Password' }));
    };
    await fill();
    expect(await screen.findByText('Password Updated')).toBeInTheDocument();
    expect(screen.getByText(ACCOUNT_MESSAGES.passwordChanged)).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/account/password')[0]?.body).toEqual({
      currentPassword: 'old-secret',
      newPassword: 'new-secret-1',
      confirmPassword: 'new-secret-1',
    });
    expect(screen.getByLabelText('Current Password')).toHaveValue('');

    wrong = true;
    await fill();
    // Issue 12: next to the field the server names, not in a distant toast.
    await waitFor(() =>
      expect(screen.getByLabelText('Current Password')).toHaveAccessibleDescription(ACCOUNT_MESSAGES.wrongPassword),
    );
    expect(screen.getByLabelText('Current Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText(ACCOUNT_MESSAGES.wrongPassword)).toHaveLength(1);
  });

  it('requests an email change and toasts the server message when it is refused', async () => {
    let same = false;
    let wrongPassword = false;
    const server = accountServer((req) => {
      if (req.method === 'POST' && req.path === '/api/account/email') {
        if (wrongPassword) return problem('WRONG_PASSWORD', undefined, { field: 'password' });
        return same ? problem('SAME_EMAIL') : json(200, { message: ACCOUNT_MESSAGES.emailChangeSent });
      }
    });
    const user = userEvent.setup();
    renderAccount(paths.accountEmail);
    await user.type(await screen.findByLabelText('New Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/account/email')).toHaveLength(0);

    await user.clear(screen.getByLabelText('New Email'));
    await user.type(screen.getByLabelText('New Email'), ' ada.new@example.com ');
    await user.type(screen.getByLabelText('Confirm Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText(ACCOUNT_MESSAGES.emailChangeSent)).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/account/email')[0]?.body).toEqual({
      newEmail: 'ada.new@example.com',
      password: 'secret',
    });

    same = true;
    await user.type(screen.getByLabelText('New Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Confirm Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText(ACCOUNT_MESSAGES.sameEmail)).toBeInTheDocument();

    // A wrong password stands next to the password field (issue 12).
    wrongPassword = true;
    await user.clear(screen.getByLabelText('New Email'));
    await user.type(screen.getByLabelText('New Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Confirm Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Update Email' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription(ACCOUNT_MESSAGES.wrongPassword),
    );
  });

  it('asks to log in when there is no user', async () => {
    render(
      <MemoryRouter initialEntries={['/account']}>
        <AccountPage user={null} />
      </MemoryRouter>,
    );
    expect(screen.getByText('Please log in')).toBeInTheDocument();
    expect(
      within(screen.getByText('Please log in').closest('div')!.parentElement!).getByRole('link', {
        name: 'Go to Login',
      }),
    ).toHaveAttribute('href', '/login');
    await waitFor(() => expect(screen.queryByRole('tab')).not.toBeInTheDocument());
  });
});
