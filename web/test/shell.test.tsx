import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { avatarLetter } from '@/features/shell/components/account-menu';
import { currentPath, installServer, json, makeUser, problem, renderApp } from './utils';

const openAccountMenu = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(await screen.findByRole('button', { name: 'Account menu' }));
  return screen.findByRole('menu');
};

describe('route table', () => {
  it('shows a centred spinner while the session loads', async () => {
    let answer: (res: Response) => void = () => {};
    installServer({
      handler: (req) => (req.path === '/api/user' ? new Promise<Response>((r) => (answer = r)) : undefined),
    });
    renderApp('/');
    expect(screen.getByRole('status')).toHaveTextContent('Loading your session');
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    act(() => answer(problem('UNAUTHENTICATED')));
    expect(await screen.findByRole('heading', { name: 'Automate Your Client Referrals With AI' })).toBeInTheDocument();
  });

  it('shows the landing page at / and at any unknown path when signed out', async () => {
    installServer();
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Automate Your Client Referrals With AI' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Get Started' })[0]).toHaveAttribute('href', '/signup');
    expect(screen.getAllByRole('link', { name: 'Login' })[0]).toHaveAttribute('href', '/login');
    expect(screen.queryByText('404 Page Not Found')).not.toBeInTheDocument();
  });

  it('redirects a signed-in user from /login and /signup to /', async () => {
    installServer({ user: makeUser() });
    renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'What do you want to refer?' })).toBeInTheDocument();
    expect(currentPath()).toBe('/');
  });

  it('shows the not-found screen for unknown signed-in paths', async () => {
    installServer({ user: makeUser() });
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    // Issue 12: said for a user, with the way home.
    expect(screen.queryByText(/forget to add the page/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Account menu' })).toBeInTheDocument();
  });

  it('keeps the resend-verification screen reachable when signed in (linked from the verification error)', async () => {
    installServer({ user: makeUser({ emailVerified: false }) });
    renderApp('/resend-verification');
    expect(await screen.findByRole('link', { name: /back to login/i })).toBeInTheDocument();
    expect(screen.queryByText('404 Page Not Found')).not.toBeInTheDocument();
  });

  it('shows /admin to administrators only', async () => {
    installServer({ user: makeUser() });
    const first = renderApp('/admin');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    first.unmount();

    installServer({ user: makeUser({ isAdmin: true }) });
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Referral Program Management' })).toBeInTheDocument();
  });

  it('serves Tee ups at /dashboard, greeting a user without a first name by the email', async () => {
    installServer({ user: makeUser({ firstName: '' }) });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tee ups' })).toBeInTheDocument();
    expect(await screen.findByText('Welcome, ada')).toBeInTheDocument();
  });
});

describe('top bar and account menu', () => {
  it('takes the avatar letter from the email', () => {
    expect(avatarLetter('zoe@example.com')).toBe('Z');
    expect(avatarLetter('')).toBe('U');
    expect(avatarLetter(undefined)).toBe('U');
  });

  it("labels a user 'User' and hides Admin", async () => {
    installServer({ user: makeUser({ email: 'bob@example.com' }) });
    const user = userEvent.setup();
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Account menu' })).toHaveTextContent('B');
    const menu = await openAccountMenu(user);
    expect(menu).toHaveTextContent('bob@example.com');
    expect(menu).toHaveTextContent('User');
    expect(menu).not.toHaveTextContent('Administrator');
    const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(items).toEqual([
      'My Account',
      'Email Settings',
      'Change Password',
      'Vendor Workspace',
      'Lead Inbox',
      'Lead Criteria',
      'Manage Bounties',
      'Log out',
    ]);
  });

  it('labels an administrator and offers Admin, which navigates', async () => {
    installServer({ user: makeUser({ isAdmin: true }) });
    const user = userEvent.setup();
    renderApp('/');
    const menu = await openAccountMenu(user);
    expect(menu).toHaveTextContent('Administrator');
    await user.click(screen.getByRole('menuitem', { name: 'Admin' }));
    expect(await screen.findByRole('heading', { name: 'Referral Program Management' })).toBeInTheDocument();
    expect(currentPath()).toBe('/admin');
  });

  it('opens with the keyboard and goes to an entry', async () => {
    installServer({ user: makeUser() });
    const user = userEvent.setup();
    renderApp('/');
    (await screen.findByRole('button', { name: 'Account menu' })).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    // Opening by keyboard focuses the first entry (My Account).
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(currentPath()).toBe('/account/email'));
  });

  it('logs out: ends the session, forgets the user and goes to /login', async () => {
    const server = installServer({
      user: makeUser(),
      handler: (req) => {
        if (req.path === '/api/logout') {
          server.session.user = null;
          return json(200, { message: 'Logged out' });
        }
      },
    });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await openAccountMenu(user);
    await user.click(screen.getByRole('menuitem', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
    expect(server.callsTo('POST', '/api/logout')).toHaveLength(1);
    // The user is cleared from the cache, not read again.
    expect(server.callsTo('GET', '/api/user')).toHaveLength(1);
  });

  it('stays signed in when logout fails, only logging it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    installServer({
      user: makeUser(),
      handler: (req) => (req.path === '/api/logout' ? json(500, {}, 'Internal Server Error') : undefined),
    });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await openAccountMenu(user);
    await user.click(screen.getByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(currentPath()).toBe('/dashboard');
    expect(screen.getByRole('button', { name: 'Account menu' })).toBeInTheDocument();
  });

  it('Home and New Referral reset the search', async () => {
    installServer({ user: makeUser() });
    const user = userEvent.setup();
    const { store } = renderApp('/');
    const input = await screen.findByPlaceholderText('Refer Anything..');
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    await user.type(input, '   ');
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    await user.type(input, 'Acme CRM');
    expect(screen.getByRole('button', { name: 'Search' })).toBeEnabled();
    expect(store.getState().search.query).toBe('   Acme CRM');

    await user.click(screen.getByRole('button', { name: 'Home' }));
    expect(store.getState().search.query).toBe('');
    expect(screen.getByPlaceholderText('Refer Anything..')).toHaveValue('');

    await user.type(screen.getByPlaceholderText('Refer Anything..'), 'x');
    await user.click(screen.getByRole('link', { name: 'Tee ups' }));
    expect(await screen.findByRole('heading', { name: 'Tee ups' })).toBeInTheDocument();
    expect(store.getState().search.query).toBe('x');
    await user.click(screen.getByRole('button', { name: 'New Referral' }));
    expect(await screen.findByRole('heading', { name: 'What do you want to refer?' })).toBeInTheDocument();
    expect(store.getState().search.query).toBe('');
  });
});

describe('phone menu (issue 12)', () => {
  it('is a disclosure: opens on the keyboard with focus on its first entry, Escape closes and returns focus', async () => {
    installServer({ user: makeUser({ email: 'bob@example.com' }) });
    const user = userEvent.setup();
    renderApp('/');
    const button = await screen.findByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument();
    button.focus();
    await user.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('navigation', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-controls', menu.parentElement!.id);
    expect(within(menu).getByRole('link', { name: 'Tee ups' })).toHaveFocus();
    expect(menu).toHaveTextContent('bob@example.com');
    expect(menu).toHaveTextContent('User');
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Tee ups',
      'Discover',
      'Impact',
      'My Account',
      'Email Settings',
      'Change Password',
      'Vendor Workspace',
      'Lead Inbox',
      'Lead Criteria',
      'Manage Bounties',
    ]);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('offers Admin to administrators; an entry navigates and closes the menu; Discover resets the search', async () => {
    installServer({ user: makeUser({ isAdmin: true }) });
    const user = userEvent.setup();
    const { store } = renderApp('/');
    await user.type(await screen.findByPlaceholderText('Refer Anything..'), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = screen.getByRole('navigation', { name: 'Menu' });
    expect(menu).toHaveTextContent('Administrator');
    await user.click(within(menu).getByRole('link', { name: 'Admin' }));
    expect(await screen.findByRole('heading', { name: 'Referral Program Management' })).toBeInTheDocument();
    expect(currentPath()).toBe('/admin');
    expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument();
    expect(store.getState().search.query).toBe('Acme');

    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(within(screen.getByRole('navigation', { name: 'Menu' })).getByRole('link', { name: 'Discover' }));
    await waitFor(() => expect(currentPath()).toBe('/discover'));
    expect(store.getState().search.query).toBe('');
  });

  it('closes on a click outside it', async () => {
    installServer({ user: makeUser() });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Menu' }));
    expect(screen.getByRole('navigation', { name: 'Menu' })).toBeInTheDocument();
    await user.click(screen.getByRole('main'));
    expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument();
  });

  it('logs out', async () => {
    const server = installServer({
      user: makeUser(),
      handler: (req) => {
        if (req.path === '/api/logout') {
          server.session.user = null;
          return json(200, { message: 'Logged out' });
        }
      },
    });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Menu' }));
    await user.click(within(screen.getByRole('navigation', { name: 'Menu' })).getByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/logout')).toHaveLength(1);
  });
});

describe('verification banner', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is hidden from verified users and administrators', async () => {
    installServer({ user: makeUser({ emailVerified: true }) });
    const first = renderApp('/');
    await screen.findByRole('heading', { name: 'What do you want to refer?' });
    expect(screen.queryByRole('region', { name: 'Email verification' })).not.toBeInTheDocument();
    first.unmount();

    installServer({ user: makeUser({ emailVerified: false, isAdmin: true }) });
    renderApp('/');
    await screen.findByRole('heading', { name: 'What do you want to refer?' });
    expect(screen.queryByRole('region', { name: 'Email verification' })).not.toBeInTheDocument();
  });

  it('resends to the user, confirms for 5 seconds, then offers the button again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = installServer({
      user: makeUser({ emailVerified: false, email: 'new@example.com' }),
      handler: (req) => (req.path === '/api/resend-verification' ? json(200, { message: 'sent' }) : undefined),
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp('/dashboard');
    const banner = await screen.findByRole('region', { name: 'Email verification' });
    expect(banner).toHaveTextContent('new@example.com');

    await user.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByText('Verification email sent! Check your inbox.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend Verification Email' })).not.toBeInTheDocument();
    expect(server.callsTo('POST', '/api/resend-verification')[0]?.body).toEqual({ email: 'new@example.com' });

    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(screen.getByText('Verification email sent! Check your inbox.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1100));
    expect(screen.getByRole('button', { name: 'Resend Verification Email' })).toBeInTheDocument();
    expect(screen.queryByText('Verification email sent! Check your inbox.')).not.toBeInTheDocument();
  });

  it('toasts a failure', async () => {
    installServer({
      user: makeUser({ emailVerified: false }),
      handler: (req) => (req.path === '/api/resend-verification' ? new Response('', { status: 400 }) : undefined),
    });
    const user = userEvent.setup();
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByText('An error occurred')).toBeInTheDocument();
  });
});
