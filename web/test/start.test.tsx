import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Start } from '@/app/start';
import { getUser } from '@/features/auth/api/get-user';
import { installServer, json, makeUser } from './utils';

const LANDING = 'Automate Your Client Referrals With AI';

/** The entry as main.tsx runs it, at `path` of the browser's history. */
function start(path: string) {
  window.history.replaceState(null, '', path);
  return render(<Start session={getUser()} />);
}

const browserPath = () => `${window.location.pathname}${window.location.search}`;

afterEach(() => window.history.replaceState(null, '', '/'));

describe('entry (app/start.tsx)', () => {
  it('shows the session spinner on /, then the landing page to a signed-out visitor', async () => {
    const server = installServer();
    start('/');
    expect(screen.getByRole('status')).toHaveTextContent('Loading your session');
    expect(await screen.findByRole('heading', { level: 1, name: LANDING })).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/user')).toHaveLength(1);
  });

  it('starts the app where a landing link leads, without reading the session again', async () => {
    const server = installServer();
    start('/');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: LANDING });
    const header = screen.getByRole('banner');
    await user.click(within(header).getAllByRole('link', { name: 'Login' })[0]!);
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    expect(browserPath()).toBe('/login');
    expect(server.callsTo('GET', '/api/user')).toHaveLength(1);

    // Back to `/`: the app's route table shows the landing page, whose links now follow the router.
    act(() => window.history.back());
    expect(await screen.findByRole('heading', { level: 1, name: LANDING })).toBeInTheDocument();
    expect(browserPath()).toBe('/');
    await user.click(screen.getByRole('link', { name: 'Schedule Demo' }));
    expect(await screen.findByRole('heading', { name: 'Request a Demo' })).toBeInTheDocument();
    expect(browserPath()).toBe('/demo-request');
    expect(server.callsTo('GET', '/api/user')).toHaveLength(1);
  });

  it('sends the direct referral form to sign-up (navigation without the router)', async () => {
    installServer();
    start('/');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: LANDING });
    await user.click(screen.getByRole('button', { name: 'Send to a Specific Vendor' }));
    await user.click(screen.getByRole('button', { name: 'Send Direct Referral' }));
    expect(await screen.findByRole('heading', { name: 'Create an Account' })).toBeInTheDocument();
    expect(browserPath()).toBe('/signup');
  });

  it('keeps the landing page on a link to / (the logo), as the router would', async () => {
    installServer();
    start('/');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: LANDING });
    const length = window.history.length;
    await user.click(screen.getByRole('link', { name: 'Referral Hub home' }));
    expect(browserPath()).toBe('/');
    expect(window.history.length).toBe(length);
    expect(screen.getByRole('heading', { level: 1, name: LANDING })).toBeInTheDocument();
  });

  it('treats a failed session read on / as signed out, as the route table does, and does not repeat it', async () => {
    const server = installServer({
      handler: (req) => (req.path === '/api/user' ? json(503, { message: 'Down' }) : undefined),
    });
    start('/');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { level: 1, name: LANDING })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Start Your Free Trial' }));
    expect(await screen.findByRole('heading', { name: 'Create an Account' })).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/user')).toHaveLength(1);
  });

  it('starts the app on / for a signed-in user, with the session it read', async () => {
    const server = installServer({ user: makeUser() });
    start('/');
    expect(await screen.findByRole('heading', { name: 'What do you want to refer?' })).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/user')).toHaveLength(1);
  });

  it('starts the app at once anywhere else', async () => {
    const server = installServer();
    start('/login');
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/user')).toHaveLength(1);
  });
});
