import { REFERRAL_SOURCES } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { DemoRequestPage } from '@/features/demo-request/components/demo-request-page';
import { LandingPage } from '@/features/landing/components/landing-page';
import { currentPath, installServer, json, renderRoute } from './utils';

const renderDemoRequest = () =>
  renderRoute(<DemoRequestPage />, { at: paths.demoRequest, routes: { [paths.home]: <LandingPage /> } });

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('First Name'), 'Ada');
  await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
  await user.type(screen.getByLabelText('Work Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Phone Number'), '+44 20 1234 5678');
  await user.type(screen.getByLabelText('Company Website'), 'engines.example');
}

describe('Demo request', () => {
  it('has the header links and shows the spec validation messages', async () => {
    const server = installServer();
    const user = userEvent.setup();
    renderDemoRequest();
    expect(await screen.findByRole('heading', { name: 'Request a Demo' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Account' });
    expect(within(nav).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(within(nav).getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
    expect(
      within(screen.getByLabelText('How did you hear about us? (optional)'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select an option', ...REFERRAL_SOURCES]);

    await user.type(screen.getByLabelText('Work Email'), 'nope');
    await user.type(screen.getByLabelText('Phone Number'), '123');
    await user.click(screen.getByRole('button', { name: 'Request Demo' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Phone number is required')).toBeInTheDocument();
    expect(screen.getByText('Company website is required')).toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).toHaveAttribute('aria-invalid', 'true');
    expect(server.callsTo('POST', '/api/demo-request')).toHaveLength(0);
  });

  it('submits, shows the thanks state and the success toast', async () => {
    const server = installServer({
      handler: (req) =>
        req.method === 'POST' && req.path === '/api/demo-request'
          ? json(201, { message: 'Demo request received' })
          : undefined,
    });
    const user = userEvent.setup();
    renderDemoRequest();
    await fill(user);
    await user.selectOptions(screen.getByLabelText('How did you hear about us? (optional)'), 'Industry Event');
    await user.click(screen.getByRole('button', { name: 'Request Demo' }));
    expect(await screen.findByText('Thanks for Your Interest')).toBeInTheDocument();
    expect(await screen.findByText('Success!')).toBeInTheDocument();
    expect(screen.getByText("Your demo request has been submitted. We'll be in touch soon!")).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/demo-request')[0]?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 1234 5678',
      website: 'engines.example',
      referralSource: 'Industry Event',
    });
    await user.click(screen.getByRole('link', { name: 'Return to Home' }));
    // The landing page is a lazy chunk: the router's transition completes once it has loaded.
    await waitFor(() => expect(currentPath()).toBe('/'));
  });

  it('leaves out an unchosen source and toasts a failure', async () => {
    const server = installServer({
      handler: (req) =>
        req.method === 'POST' && req.path === '/api/demo-request'
          ? json(500, { message: 'down', code: 'INTERNAL_ERROR' }, 'Internal Server Error')
          : undefined,
    });
    const user = userEvent.setup();
    renderDemoRequest();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Request Demo' }));
    expect(await screen.findByText('Submission failed')).toBeInTheDocument();
    expect(screen.getByText('There was a problem submitting your request. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText('Thanks for Your Interest')).not.toBeInTheDocument();
    expect(server.callsTo('POST', '/api/demo-request')[0]?.body).not.toHaveProperty('referralSource');
  });
});
