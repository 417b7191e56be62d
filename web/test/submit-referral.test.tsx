import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { InitialEntry } from 'react-router-dom';
import { paths, routePatterns } from '@/config/paths';
import { ReferralPage } from '@/features/referrals/components/referral-page';
import { SubmitReferralPage } from '@/features/referrals/components/submit-referral-page';
import { SearchPage } from '@/features/search/components/search-page';
import { DiscoverPage } from '@/features/discover/components/discover-page';
import type { Handler } from './utils';
import { makeReferral } from './fixtures';
import { currentPath, installServer, json, makeUser, problem, renderRoute } from './utils';

const productInfo = { product: 'Acme CRM', company: 'Acme Software, Inc.', description: 'A CRM for small teams' };
const formEntry = {
  pathname: paths.submitReferral,
  state: { searchResult: 'Product: Acme CRM', originalQuery: 'acme', productInfo },
};

/** The form, and the screens it leads to: the submitted screen and home. */
const renderForm = (at: InitialEntry = formEntry, options: { strict?: boolean } = {}) =>
  renderRoute(<SubmitReferralPage />, {
    path: paths.submitReferral,
    at,
    routes: {
      [routePatterns.referral]: <ReferralPage />,
      [paths.home]: <SearchPage />,
      [paths.discover]: <DiscoverPage />,
    },
    ...options,
  });

type Routes = Record<string, (req: Parameters<Handler>[0]) => Response | Promise<Response>>;

/** Answers by "METHOD path"; the draft is never ready here, so the submitted screen stays put. */
function referralServer(routes: Routes = {}) {
  const referral = makeReferral();
  return installServer({
    user: makeUser(),
    handler: (req) => {
      const route = routes[`${req.method} ${req.path}`];
      if (route) return route(req);
      if (req.method === 'POST' && req.path === '/api/referrals/fit')
        return json(200, { vendor: null, fit: null, routable: true });
      if (req.method === 'POST' && req.path === '/api/referrals') return json(201, referral);
      if (req.method === 'GET' && req.path === '/api/referrals/7') return json(200, referral);
      if (req.method === 'GET' && req.path === '/api/referrals/7/email-draft')
        return json(200, { ready: false, fromClay: false });
      return undefined;
    },
  });
}

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('First name'), 'Grace');
  await user.type(screen.getByLabelText('Last name'), 'Hopper');
  await user.type(screen.getByLabelText('Email'), 'Grace@Navy.example');
  await user.type(screen.getByLabelText('Why is this referral a good fit?'), 'Needs a CRM');
  await user.type(screen.getByLabelText('Client organization'), 'Globex');
  await user.click(screen.getByRole('button', { name: 'Submit Referral' }));
}

describe('Submit New Referral (spec 2, 3, 5)', () => {
  it('redirects to the search screen without product information', async () => {
    installServer({ user: makeUser() });
    renderForm(paths.submitReferral);
    expect(await screen.findByRole('heading', { name: 'What do you want to refer?' })).toBeInTheDocument();
    expect(currentPath()).toBe('/');
  });

  it('shows the selected product with legal suffixes stripped and a Back to Dashboard link to /', async () => {
    installServer({ user: makeUser() });
    renderForm();
    const card = await screen.findByRole('region', { name: 'Selected Product' });
    expect(within(card).getByText('Acme CRM')).toBeInTheDocument();
    expect(within(card).getByText('Acme')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/');
    expect(screen.getByLabelText("The person I'm referring knows about this referral")).not.toBeChecked();
    expect(screen.getByLabelText('The vendor may mention my name when reaching out')).not.toBeChecked();
  });

  it('hides a product that was not found', async () => {
    installServer({ user: makeUser() });
    renderForm({ ...formEntry, state: { ...formEntry.state, productInfo: { ...productInfo, product: 'Not found' } } });
    const card = await screen.findByRole('region', { name: 'Selected Product' });
    expect(within(card).queryByText('Product')).not.toBeInTheDocument();
    expect(within(card).queryByText('Not found')).not.toBeInTheDocument();
  });

  it('validates with the spec 5 messages and sends nothing', async () => {
    const server = referralServer();
    const user = userEvent.setup();
    renderForm();
    await user.click(await screen.findByRole('button', { name: 'Submit Referral' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Please explain why this referral is a good fit')).toBeInTheDocument();
    expect(screen.getByText("Please enter the client's organization")).toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'grace@navy.example');
    await waitFor(() => expect(screen.queryByText('Invalid email address')).not.toBeInTheDocument());
    expect(server.callsTo('POST', '/api/referrals')).toHaveLength(0);
  });

  it('posts the form fields plus product, company and description', async () => {
    const server = referralServer({
      'GET /api/products/p-acme/referral-program': () =>
        json(200, { referralProgram: 'NO: this vendor has no referral program we know of.' }),
    });
    const user = userEvent.setup();
    renderForm();
    await user.click(await screen.findByLabelText('The vendor may mention my name when reaching out'));
    await fillAndSubmit(user);
    await screen.findByRole('heading', { name: 'Referral Successfully Submitted!' });
    expect(server.callsTo('POST', '/api/referrals')[0]?.body).toEqual({
      referredFirstName: 'Grace',
      referredLastName: 'Hopper',
      referredEmail: 'grace@navy.example',
      referralReason: 'Needs a CRM',
      isReferralAware: false,
      canUseReferrerName: true,
      productId: 'auto-generated',
      product: 'Acme CRM',
      company: 'Acme Software, Inc.',
      description: 'A CRM for small teams',
      website: '',
      client: { name: 'Globex', website: '', country: '', industry: '' },
      notes: '',
    });
  });

  it('never submits on Enter in a field (Country, Industry, the names): only Submit Referral does', async () => {
    const server = referralServer();
    const user = userEvent.setup();
    renderForm();
    await user.type(await screen.findByLabelText('First name'), 'Grace{Enter}');
    await user.type(screen.getByLabelText('Last name'), 'Hopper');
    await user.type(screen.getByLabelText('Email'), 'grace@navy.example{Enter}');
    await user.type(screen.getByLabelText('Why is this referral a good fit?'), 'Needs a CRM');
    await user.type(screen.getByLabelText('Client organization'), 'Globex{Enter}');
    await user.type(screen.getByLabelText('Country'), 'United States{Enter}');
    await user.type(screen.getByLabelText('Industry'), 'Software{Enter}');
    expect(screen.getByLabelText('Country')).toHaveValue('United States');
    expect(server.callsTo('POST', '/api/referrals')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Submit Referral' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/referrals')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/referrals')[0]?.body).toMatchObject({
      client: { name: 'Globex', country: 'United States', industry: 'Software' },
    });
  });

  it("toasts a failed create with the server's text and stays on the form", async () => {
    referralServer({ 'POST /api/referrals': () => problem('VALIDATION_FAILED', 'Referred email looks wrong') });
    const user = userEvent.setup();
    renderForm();
    await fillAndSubmit(user);
    expect(await screen.findByText('Referred email looks wrong')).toBeInTheDocument();
    expect(currentPath()).toBe('/submit-referral');
    expect(screen.getByLabelText('First name')).toHaveValue('Grace');
  });

  it('shows a refusal the server pins on a field next to that field', async () => {
    referralServer({
      'POST /api/referrals': () =>
        problem('VALIDATION_FAILED', 'This address does not take email', { field: 'referredEmail' }),
    });
    const user = userEvent.setup();
    renderForm();
    await fillAndSubmit(user);
    expect(await screen.findByText('This address does not take email')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('This address does not take email');
    expect(screen.queryByText('Error')).not.toBeInTheDocument();
    expect(currentPath()).toBe('/submit-referral');
  });
});

describe('after the referral is created (spec 4)', () => {
  it('program exists: runs the dry run and opens the preview over the submitted screen; Cancel returns to it', async () => {
    const server = referralServer({
      'GET /api/products/p-acme/referral-program': () =>
        json(200, { referralProgram: 'Acme pays 20% of first-year revenue.' }),
      'POST /api/referrals/7/automate': () => json(200, { success: true, message: 'Dry run ready' }),
    });
    const user = userEvent.setup();
    const { store } = renderForm();
    await fillAndSubmit(user);

    expect(await screen.findByText('Referral submitted successfully')).toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: 'Automating Referral Form' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Referral Successfully Submitted!', hidden: true })).toBeInTheDocument();
    expect(currentPath()).toBe('/referral/7');
    expect(server.callsTo('POST', '/api/referrals/7/automate')[0]?.body).toEqual({ dryRun: true });
    // The product has been referred: the search starts over.
    expect(store.getState().search.status).toBe('idle');

    // Issue 12: closing the preview returns to the submitted screen, where the draft step waits.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Referral Successfully Submitted!' })).toBeInTheDocument();
    expect(currentPath()).toBe('/referral/7');
  });

  it("no program: the 'Thanks for Your Referral!' modal; Close returns to the submitted screen", async () => {
    const server = referralServer({
      'GET /api/products/p-acme/referral-program': () =>
        json(200, { referralProgram: 'Sorry, there is No Referral Program for this vendor.' }),
    });
    const user = userEvent.setup();
    renderForm();
    await fillAndSubmit(user);
    const dialog = await screen.findByRole('dialog', { name: 'Thanks for Your Referral!' });
    expect(dialog).toHaveTextContent(/among the first/);
    expect(dialog).toHaveTextContent(/first in line for rewards/);
    expect(server.callsTo('POST', '/api/referrals/7/automate')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Referral Successfully Submitted!' })).toBeInTheDocument();
    expect(currentPath()).toBe('/referral/7');
  });

  it("an answer starting with 'NO' means no program", async () => {
    referralServer({
      'GET /api/products/p-acme/referral-program': () => json(200, { referralProgram: 'NO. Not that we know of.' }),
    });
    const user = userEvent.setup();
    renderForm();
    await fillAndSubmit(user);
    expect(await screen.findByRole('dialog', { name: 'Thanks for Your Referral!' })).toBeInTheDocument();
  });

  it('program check fails: a success toast, on the submitted screen (issue 12)', async () => {
    const server = referralServer({
      'GET /api/products/p-acme/referral-program': () => problem('PRODUCT_NOT_FOUND'),
    });
    const user = userEvent.setup();
    renderForm();
    await fillAndSubmit(user);
    expect(await screen.findByText('Product not found')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Referral Successfully Submitted!' })).toBeInTheDocument();
    expect(currentPath()).toBe('/referral/7');
    expect(screen.getByText('Referral submitted successfully')).toBeInTheDocument();
    expect(screen.getByText('Product not found')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.callsTo('POST', '/api/referrals/7/automate')).toHaveLength(0);
  });

  it('refused for an unverified email (issue 11): says so, offers a new link, and stays on the form', async () => {
    referralServer({ 'POST /api/referrals': () => problem('EMAIL_NOT_VERIFIED') });
    const user = userEvent.setup();
    renderForm();
    await fillAndSubmit(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Email Verification Required – Please verify your email address before proceeding.',
    );
    // The address is not in the cache here: the notice links to the resend screen instead.
    expect(within(alert).getByRole('link', { name: 'Resend Verification Email' })).toHaveAttribute(
      'href',
      paths.resendVerification,
    );
    expect(screen.getByRole('heading', { name: 'Submit New Referral' })).toBeInTheDocument();
    expect(currentPath()).toBe(paths.submitReferral);
  });

  it('automation call fails: a success toast saying the preview failed, on the submitted screen', async () => {
    referralServer({
      'GET /api/products/p-acme/referral-program': () => json(200, { referralProgram: 'Yes: 10% bounty' }),
      'POST /api/referrals/7/automate': () => new Response('', { status: 502, statusText: '' }),
    });
    const user = userEvent.setup();
    renderForm();
    await fillAndSubmit(user);
    expect(await screen.findByText('The automation preview failed: Failed to automate referral')).toBeInTheDocument();
    expect(screen.getByText('Referral submitted successfully')).toBeInTheDocument();
    expect(currentPath()).toBe('/referral/7');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("automation answers success false: a destructive 'Error' toast, on the submitted screen", async () => {
    referralServer({
      'GET /api/products/p-acme/referral-program': () => json(200, { referralProgram: 'Yes: 10% bounty' }),
      'POST /api/referrals/7/automate': () =>
        json(200, { success: false, message: 'The vendor form could not be read' }),
    });
    const user = userEvent.setup();
    renderForm();
    await fillAndSubmit(user);
    expect(await screen.findByText('The vendor form could not be read')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(currentPath()).toBe('/referral/7');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('runs the follow-up once, also under StrictMode', async () => {
    const server = referralServer({
      'GET /api/products/p-acme/referral-program': () => json(200, { referralProgram: 'Acme pays 20%' }),
      'POST /api/referrals/7/automate': () => json(200, { success: true, message: 'ok' }),
    });
    const user = userEvent.setup();
    renderForm(formEntry, { strict: true });
    await fillAndSubmit(user);
    expect(await screen.findByRole('dialog', { name: 'Automating Referral Form' })).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/referrals')).toHaveLength(1);
    expect(server.requests.filter((r) => r.path === '/api/products/p-acme/referral-program')).toHaveLength(1);
    expect(server.callsTo('POST', '/api/referrals/7/automate')).toHaveLength(1);
  });

  it('opening a referral directly shows the submitted screen without running the follow-up', async () => {
    const server = installServer({
      user: makeUser(),
      handler: (req) => {
        if (req.path === '/api/referrals/7') return json(200, makeReferral());
        if (req.path === '/api/referrals/7/email-draft') return json(200, { ready: false, fromClay: false });
      },
    });
    renderRoute(<ReferralPage />, { path: routePatterns.referral, at: paths.referral(7) });
    expect(await screen.findByRole('heading', { name: 'Referral Successfully Submitted!' })).toBeInTheDocument();
    expect(server.requests.some((r) => r.path.includes('/referral-program'))).toBe(false);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('where the referral goes and how the client fits (issue 9)', () => {
  const routedEntry = {
    ...formEntry,
    state: { ...formEntry.state, productInfo: { ...productInfo, website: 'https://acme.example' } },
  };

  async function describeClient(user: ReturnType<typeof userEvent.setup>, country = 'Germany') {
    await user.type(await screen.findByLabelText('Client organization'), 'Globex');
    await user.selectOptions(screen.getByLabelText('Company size'), '51-200');
    await user.type(screen.getByLabelText('Country'), country);
    await user.type(screen.getByLabelText('Industry'), 'Logistics');
  }

  it('asks nothing until the client is named, then shows the vendor and the criteria that fit', async () => {
    const server = referralServer({
      'POST /api/referrals/fit': () =>
        json(200, {
          vendor: { id: 'v-acme', name: 'Acme' },
          fit: { fits: ['Based in Germany, a country they sell to'], fails: [], unknown: ['Funding stage not given'] },
          routable: true,
        }),
    });
    const user = userEvent.setup();
    renderForm(routedEntry);
    expect(
      await screen.findByText(
        "Enter the client's organization to see where this referral goes and how the client fits.",
      ),
    ).toBeInTheDocument();
    await describeClient(user);
    expect(await screen.findByText("Routed to Acme's lead inbox")).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Fits' })).getByText('Based in Germany, a country they sell to'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Not known yet' })).getByText('Funding stage not given'),
    ).toBeInTheDocument();
    // Debounced: one check for the settled fields, with the product's website.
    const checks = server.callsTo('POST', '/api/referrals/fit');
    expect(checks.at(-1)!.body).toEqual({
      product: 'Acme CRM',
      company: 'Acme Software, Inc.',
      website: 'https://acme.example',
      client: { name: 'Globex', website: '', size: '51-200', country: 'Germany', industry: 'Logistics' },
    });
    expect(checks.length).toBeLessThan(5);
    expect(screen.getByRole('button', { name: 'Submit Referral' })).toBeEnabled();
  });

  it('says when the vendor is not on Referral Hub', async () => {
    referralServer();
    const user = userEvent.setup();
    renderForm();
    await user.type(await screen.findByLabelText('Client organization'), 'Globex');
    expect(
      await screen.findByText('Acme is not on Referral Hub yet: the intro goes to your client only'),
    ).toBeInTheDocument();
  });

  it('a clear fail disables Submit with the reasons and offers Smart Match, prefilled', async () => {
    const server = referralServer({
      'POST /api/referrals/fit': () =>
        json(200, {
          vendor: { id: 'v-acme', name: 'Acme' },
          fit: {
            fits: ['51-200 employees is a size they want'],
            fails: ['France is not a country they sell to'],
            unknown: [],
          },
          routable: false,
        }),
    });
    const user = userEvent.setup();
    renderForm(routedEntry);
    await user.type(await screen.findByLabelText('Why is this referral a good fit?'), 'Needs a CRM');
    await describeClient(user, 'France');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      "This client does not match the vendor's ideal customer profile, so the referral cannot be routed.",
    );
    expect(within(alert).getByRole('list', { name: 'Why it cannot be routed' })).toHaveTextContent(
      'France is not a country they sell to',
    );
    expect(screen.getByRole('button', { name: 'Submit Referral' })).toBeDisabled();
    // Never "Routed to…" above "cannot be routed".
    expect(screen.getByText("Not routed to Acme's lead inbox")).toBeInTheDocument();
    expect(screen.queryByText("Routed to Acme's lead inbox")).toBeNull();

    await user.click(within(alert).getByRole('link', { name: /Find a better match with Smart Match/ }));
    expect(await screen.findByLabelText('What does your client need?')).toHaveValue('Needs a CRM');
    expect(currentPath()).toBe('/discover');
    expect(screen.getByLabelText('Company')).toHaveValue('Globex');
    expect(screen.getByLabelText('Country')).toHaveValue('France');
    expect(screen.getByLabelText('Company size')).toHaveValue('51-200');
    expect(server.callsTo('POST', '/api/referrals')).toHaveLength(0);
  });

  it("shows the server's ICP_MISMATCH reasons the same way, until the client changes", async () => {
    referralServer({
      'POST /api/referrals': () =>
        problem('ICP_MISMATCH', undefined, { details: ['Fewer than 50 employees is too small for them'] }),
    });
    const user = userEvent.setup();
    renderForm();
    await fillAndSubmit(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Fewer than 50 employees is too small for them');
    expect(within(alert).getByRole('link', { name: /Smart Match/ })).toHaveAttribute('href', '/discover');
    expect(screen.getByRole('button', { name: 'Submit Referral' })).toBeDisabled();
    expect(currentPath()).toBe('/submit-referral');
    await user.type(screen.getByLabelText('Client organization'), ' Group');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit Referral' })).toBeEnabled());
  });
});
