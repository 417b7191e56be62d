import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '@app/contracts';
import { paths } from '@/config/paths';
import { OnboardingPage } from '@/features/onboarding/components/onboarding-page';
import { formatRevenue, revenueDigits } from '@/features/onboarding/utils/lead-criteria';
import { currentPath, installServer, json, makeUser, problem, renderRoute, type Handler } from './utils';
import { makeVendor } from './fixtures';

const renderProfile = (user: User = makeUser()) =>
  renderRoute(<OnboardingPage user={user} />, { at: paths.onboarding, user });

function icpServer(extra?: Handler, user = makeUser()) {
  return installServer({
    user,
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/vendors/mine')
        return json(200, { vendors: [makeVendor()], invitations: [] });
      if (req.method === 'GET' && req.path === '/api/lead-criteria') return problem('LEAD_CRITERIA_NOT_FOUND');
      if (req.method === 'GET' && req.path === '/api/bounties') return problem('BOUNTIES_NOT_FOUND');
      return undefined;
    },
  });
}

const saveButton = () => screen.getByRole('button', { name: /Save & Continue/ });

describe('Ideal Customer Profile form (spec 2, 5, 8)', () => {
  it('formats revenue with separators and keeps only digits', () => {
    expect(revenueDigits('$1,2a3 4')).toBe('1234');
    expect(formatRevenue('1234567')).toBe('1,234,567');
    expect(formatRevenue('')).toBe('');
  });

  it('adds tags by Enter and click, allows custom entries, ignores duplicates and blanks, and removes chips', async () => {
    icpServer();
    const user = userEvent.setup();
    renderProfile();
    const industries = await screen.findByRole('combobox', { name: 'Industries' });
    expect(saveButton()).toBeDisabled();

    await user.type(industries, 'comp');
    const listbox = screen.getByRole('listbox', { hidden: false });
    expect(listbox).toHaveClass('max-h-[300px]');
    await user.click(within(listbox).getByRole('option', { name: 'Computer Software' }));
    expect(screen.getByRole('button', { name: 'Remove Computer Software' })).toBeInTheDocument();

    // Custom entry, then the same again in another case, then a blank one: only one chip each.
    await user.type(industries, 'Space Mining{Enter}');
    await user.type(industries, 'space mining{Enter}');
    await user.type(industries, '   {Enter}');
    await user.type(industries, 'computer software{Enter}');
    expect(screen.getAllByRole('button', { name: /^Remove / })).toHaveLength(2);
    expect(screen.getByText('Space Mining')).toBeInTheDocument();

    // The one option a fragment begins is what Enter adds ("Space Mining" above begins none); after Escape
    // (suggestions closed), the fragment itself.
    // It is shown as the active option before Enter, wherever the list puts it.
    await user.type(industries, 'Softw');
    const implicit = screen.getByRole('option', { name: 'Software Development' });
    expect(implicit).toHaveAttribute('aria-selected', 'true');
    expect(industries).toHaveAttribute('aria-activedescendant', implicit.id);
    const others = screen.getAllByRole('option').filter((option) => option !== implicit);
    expect(others.map((option) => option.getAttribute('aria-selected'))).toEqual(others.map(() => 'false'));
    await user.clear(industries);
    await user.type(industries, 'Computer Ga{Enter}');
    expect(screen.getByRole('button', { name: 'Remove Computer Games' })).toBeInTheDocument();
    await user.type(industries, 'Computer N{Escape}{Enter}');
    expect(screen.getByRole('button', { name: 'Remove Computer N' })).toBeInTheDocument();
    for (const name of ['Remove Computer Games', 'Remove Computer N'])
      await user.click(screen.getByRole('button', { name }));

    // Enter never submits the form.
    expect(saveButton()).toBeEnabled();
    await user.type(industries, '{Enter}');
    expect(currentPath()).toBe('/onboarding');

    await user.click(screen.getByRole('button', { name: 'Remove Space Mining' }));
    expect(screen.queryByText('Space Mining')).not.toBeInTheDocument();

    // Job titles open a list of 72 units.
    const titles = screen.getByRole('combobox', { name: 'Job Titles' });
    await user.click(titles);
    expect(screen.getByRole('listbox', { hidden: false })).toHaveClass('h-72');
  });

  it('shows country codes (not flag emoji) and sends the saved profile, then goes on to the bounties with the success toast', async () => {
    const server = icpServer((req) =>
      req.method === 'POST' && req.path === '/api/lead-criteria'
        ? json(200, { ...(req.body as object), updatedAt: '2026-01-01T00:00:00.000Z' })
        : undefined,
    );
    const user = userEvent.setup();
    renderProfile();
    const revenue = await screen.findByLabelText('Minimum Annual Revenue (USD)');
    await user.type(revenue, '0');
    expect(saveButton()).toBeDisabled(); // minRevenue counts only above 0
    await user.clear(revenue);
    await user.type(revenue, '$2500000x');
    expect(revenue).toHaveValue('2,500,000');
    expect(saveButton()).toBeEnabled();

    await user.type(screen.getByRole('combobox', { name: 'Countries' }), 'United States');
    const option = screen.getByRole('option', { name: 'United States' });
    expect(option).toHaveTextContent('US');
    expect(option).not.toHaveTextContent('🇺🇸');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Remove United States' }).parentElement).toHaveTextContent('US');
    // A choice closes the suggestions (they covered the chips below, issue 12).
    expect(screen.getByRole('combobox', { name: 'Countries' })).toHaveAttribute('aria-expanded', 'false');
    await user.click(screen.getByRole('checkbox', { name: 'Series A' }));
    await user.click(screen.getByRole('checkbox', { name: '11-50' }));
    await user.type(screen.getByRole('combobox', { name: 'Tech Stack' }), 'Salesforce{Enter}');
    // Text left in a field without Enter is not lost: leaving it adds it as Enter would (the one option a
    // fragment begins, else the text), a click on Save included.
    await user.type(screen.getByRole('combobox', { name: 'Industries' }), 'Computer Ga');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Remove Computer Games' })).toBeInTheDocument();
    await user.type(screen.getByRole('combobox', { name: 'Tech Stack' }), 'HubSpot');

    await user.click(saveButton());
    // Issue 12: the vendor's next step is its bounties, of the same workspace.
    await waitFor(() => expect(currentPath()).toBe('/onboarding/bounties?vendorId=v-acme'));
    expect(await screen.findByText('Ideal Customer Profile Saved')).toBeInTheDocument();
    expect(screen.getByText('Your profile has been saved successfully.')).toBeInTheDocument();
    const [post] = server.callsTo('POST', '/api/lead-criteria');
    expect(post!.body).toEqual({
      employeeCount: ['11-50'],
      industries: ['Computer Games'],
      countries: ['United States'],
      minRevenue: '2500000',
      fundingStage: ['Series A'],
      techStack: ['Salesforce', 'HubSpot'],
      companyNotes: [],
      jobTitles: [],
      seniority: [],
      departments: [],
      contactNotes: [],
    });
  });

  it('loads the saved profile and shows the failure toast when saving fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    icpServer((req) => {
      if (req.method === 'GET' && req.path === '/api/lead-criteria')
        return json(200, {
          employeeCount: [],
          industries: ['Accounting'],
          countries: [],
          minRevenue: '1000',
          fundingStage: [],
          techStack: [],
          companyNotes: [],
          jobTitles: [],
          seniority: ['VP'],
          departments: [],
          contactNotes: [],
          updatedAt: '2026-01-01T00:00:00.000Z',
        });
      if (req.method === 'POST' && req.path === '/api/lead-criteria')
        return json(500, { message: 'boom', code: 'INTERNAL_ERROR' }, 'Internal Server Error');
      return undefined;
    });
    const user = userEvent.setup();
    renderProfile();
    expect(await screen.findByRole('button', { name: 'Remove Accounting' })).toBeInTheDocument();
    expect(screen.getByLabelText('Minimum Annual Revenue (USD)')).toHaveValue('1,000');
    expect(screen.getByRole('checkbox', { name: 'VP' })).toBeChecked();
    await user.click(saveButton());
    expect(
      await screen.findByText('Failed to save your Ideal Customer Profile. Please try again.'),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/onboarding');
  });

  it('never opens an empty form over a profile it could not read: it says so, and opens once a read works', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    let reads = 0;
    const server = icpServer((req) => {
      if (req.method !== 'GET' || req.path !== '/api/lead-criteria') return undefined;
      reads += 1;
      if (reads === 1) return json(500, { message: 'boom', code: 'INTERNAL_ERROR' }, 'Internal Server Error');
      return json(200, {
        ...{ employeeCount: [], countries: [], fundingStage: [], techStack: [], companyNotes: [] },
        ...{ jobTitles: [], seniority: [], departments: [], contactNotes: [] },
        industries: ['Accounting'],
        minRevenue: '',
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
    });
    const user = userEvent.setup();
    renderProfile();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your saved lead criteria could not be loaded');
    expect(screen.queryByRole('button', { name: /Save & Continue/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Industries' })).not.toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith('Failed to load the Ideal Customer Profile', expect.anything());

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Remove Accounting' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(reads).toBe(2);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    consoleError.mockRestore();
  });

  it('tells unverified users to verify their email, but not administrators; Back goes home', async () => {
    const unverified = makeUser({ emailVerified: false });
    icpServer(undefined, unverified);
    const user = userEvent.setup();
    renderProfile(unverified);
    expect(await screen.findByText('Email Verification Required')).toBeInTheDocument();
    expect(screen.getByText('Please verify your email address before proceeding.')).toBeInTheDocument();
    await user.click((await screen.findAllByRole('button', { name: /Back/ }))[0]!);
    expect(currentPath()).toBe('/');
  });

  it('lets the registration toast finish before the verification toast', async () => {
    const { toast } = await import('@/hooks/use-toast');
    const unverified = makeUser({ emailVerified: false });
    icpServer(undefined, unverified);
    const registration = toast({
      title: 'Set Up Your Profile',
      description: "Tell us how you'll use Referral Hub to complete your profile",
      duration: 60_000,
    });
    renderProfile(unverified);
    await screen.findByRole('heading', { name: 'Ideal Customer Profile' });
    expect(await screen.findByText('Set Up Your Profile')).toBeInTheDocument();
    expect(screen.queryByText('Email Verification Required')).not.toBeInTheDocument();
    act(() => registration.dismiss());
    expect(await screen.findByText('Email Verification Required')).toBeInTheDocument();
  });

  it('does not toast verified users or unverified administrators', async () => {
    const admin = makeUser({ emailVerified: false, isAdmin: true });
    icpServer(undefined, admin);
    renderProfile(admin);
    await screen.findByRole('heading', { name: 'Ideal Customer Profile' });
    expect(screen.queryByText('Email Verification Required')).not.toBeInTheDocument();
  });
});

describe('the first choice of a new user (issue 12)', () => {
  const choices = [
    { name: /I refer clients/, intent: 'refer', lands: '/' },
    { name: /I receive referrals/, intent: 'vendor', lands: '/vendor' },
    { name: /^Both/, intent: 'both', lands: '/vendor' },
  ] as const;

  for (const choice of choices) {
    it(`stores '${choice.intent}' with the user and lands on ${choice.lands}`, async () => {
      const fresh = makeUser({ intent: null });
      const server = installServer({
        user: fresh,
        handler: (req) =>
          req.method === 'PUT' && req.path === '/api/user/intent'
            ? json(200, { ...fresh, intent: (req.body as { intent: string }).intent })
            : undefined,
      });
      const user = userEvent.setup();
      renderProfile(fresh);
      expect(await screen.findByRole('heading', { name: 'How will you use Referral Hub?' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Ideal Customer Profile' })).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: choice.name }));
      await waitFor(() => expect(currentPath()).toBe(choice.lands));
      expect(server.callsTo('PUT', '/api/user/intent').map((r) => r.body)).toEqual([{ intent: choice.intent }]);
    });
  }

  it("is not asked on the way from one's workspace to its Lead Criteria: the form opens", async () => {
    const fresh = makeUser({ intent: null });
    icpServer(undefined, fresh);
    renderRoute(<OnboardingPage user={fresh} />, { at: `${paths.onboarding}?vendorId=v-acme`, user: fresh });
    expect(await screen.findByRole('heading', { name: 'Ideal Customer Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'How will you use Referral Hub?' })).not.toBeInTheDocument();
  });

  it('says a failed save and stays', async () => {
    const fresh = makeUser({ intent: null });
    installServer({
      user: fresh,
      handler: (req) => (req.path === '/api/user/intent' ? problem('SERVICE_UNAVAILABLE') : undefined),
    });
    const user = userEvent.setup();
    renderProfile(fresh);
    await user.click(await screen.findByRole('button', { name: /I refer clients/ }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(currentPath()).toBe('/onboarding');
    expect(screen.getByRole('button', { name: /I refer clients/ })).toBeEnabled();
  });
});
