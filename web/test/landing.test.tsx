import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { AuthPage } from '@/features/auth/components/auth-page';
import { LandingPage } from '@/features/landing/components/landing-page';
import { currentPath, installServer, renderRoute } from './utils';

async function openLanding() {
  installServer();
  renderRoute(<LandingPage />, { at: paths.home, routes: { [paths.signup]: <AuthPage /> } });
  await screen.findByRole('heading', { level: 1, name: 'Automate Your Client Referrals With AI' });
}

describe('landing page', () => {
  it('has the header anchors, sections and calls to action', async () => {
    await openLanding();
    const main = screen.getByRole('navigation', { name: 'Main' });
    for (const [name, href] of [
      ['How it works', '#how-it-works'],
      ['Features', '#features'],
      ['Pricing', '#pricing'],
    ] as const) {
      expect(within(main).getByRole('link', { name })).toHaveAttribute('href', href);
      expect(document.querySelector(href)).not.toBeNull();
    }
    expect(screen.getAllByRole('link', { name: 'Get Started' })[0]).toHaveAttribute('href', '/signup');
    expect(screen.getAllByRole('link', { name: 'Login' })[0]).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Start Your Free Trial' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Schedule Demo' })).toHaveAttribute('href', '/demo-request');
    expect(screen.getByRole('link', { name: 'Book a Call' })).toHaveAttribute('href', '/demo-request');
    for (const title of [
      'AI-Powered Matching',
      '24/7 Automation',
      'Smart Communication',
      'Quality Partnerships',
      'Relationship Management',
      'Success Tracking',
    ]) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    for (const column of ['Product', 'Company', 'Support']) {
      expect(screen.getByRole('navigation', { name: column })).toBeInTheDocument();
    }
    expect(screen.getByRole('figure', { name: /Illustration of the referral dashboard/ })).toBeInTheDocument();
  });

  it('toggles pricing between monthly and annual', async () => {
    await openLanding();
    const user = userEvent.setup();
    expect(screen.getByText('Save 16%')).toBeInTheDocument();
    expect(screen.getByTestId('price-Growth')).toHaveTextContent('$19');
    expect(screen.getByTestId('price-Scale')).toHaveTextContent('$49');
    expect(screen.getByTestId('price-Starter')).toHaveTextContent('Free');
    const annual = screen.getByRole('button', { name: 'Annual' });
    await user.click(annual);
    expect(annual).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Monthly' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('price-Growth')).toHaveTextContent('$16');
    expect(screen.getByTestId('price-Scale')).toHaveTextContent('$40');
    expect(screen.getByText('You keep 80% (product fee 20%)')).toBeInTheDocument();
  });

  it('opens the fee FAQ with the worked example', async () => {
    await openLanding();
    const user = userEvent.setup();
    const summary = screen.getByText('How does the product fee work?');
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    await user.click(summary);
    expect(details.open).toBe(true);
    expect(
      within(details).getByText(
        /a 20% vendor fee on a \$10,000 deal is \$2,000; on Growth you keep \$1,600 and the product gets \$400/,
      ),
    ).toBeVisible();
  });

  it('opens and closes the mobile menu (aria-expanded, link click, Escape)', async () => {
    await openLanding();
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(menu).not.toBeVisible();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(menu).toBeVisible();
    await user.click(within(menu).getByRole('link', { name: 'Pricing' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('switches How it works between Need a Match and Send to a Specific Vendor', async () => {
    await openLanding();
    const user = userEvent.setup();
    expect(screen.getByRole('button', { name: 'Need a Match' })).toHaveAttribute('aria-pressed', 'true');
    const steps = screen.getByRole('list', { name: 'Smart match steps' });
    expect(within(steps).getAllByRole('listitem')).toHaveLength(4);
    expect(within(steps).getByText(/optional integrations and urgency, then press Find Partners/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send to a Specific Vendor' }));
    expect(screen.queryByRole('list', { name: 'Smart match steps' })).toBeNull();
    expect(screen.getByLabelText('Vendor')).toBeInTheDocument();
    expect(screen.getByLabelText('Client Organization')).toBeInTheDocument();
    expect(screen.getByLabelText(/Notes/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Switch to Smart Match' }));
    expect(screen.getByRole('list', { name: 'Smart match steps' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send to a Specific Vendor' }));
    await user.click(screen.getByRole('button', { name: 'Send Direct Referral' }));
    expect(await screen.findByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(currentPath()).toBe('/signup');
  });
});
