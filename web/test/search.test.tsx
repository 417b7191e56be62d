import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { SubmitReferralPage } from '@/features/referrals/components/submit-referral-page';
import { SearchPage } from '@/features/search/components/search-page';
import { chatCompletion } from './fixtures';
import { currentPath, installServer, json, makeUser, problem, renderApp, renderRoute } from './utils';

const renderSearch = () =>
  renderRoute(<SearchPage />, { at: paths.home, routes: { [paths.submitReferral]: <SubmitReferralPage /> } });

const ACME = '**Product:** Acme CRM\n**Company:** Acme Technologies Inc\n**Description:** A CRM for small teams';

describe('search screen (spec 2 and 4)', () => {
  it('shows the prompt, keeps blank queries from being sent, and parses the labelled answer', async () => {
    const server = installServer({
      user: makeUser(),
      handler: (req) => (req.path === '/api/search' ? chatCompletion(ACME) : undefined),
    });
    const user = userEvent.setup();
    const { store } = renderSearch();
    expect(await screen.findByText('Enter a product, company, or website URL')).toBeInTheDocument();
    const input = screen.getByPlaceholderText('Refer Anything..');
    const button = screen.getByRole('button', { name: 'Search' });

    await user.type(input, '   {Enter}');
    expect(button).toBeDisabled();
    expect(server.callsTo('POST', '/api/search')).toHaveLength(0);

    await user.clear(input);
    await user.type(input, '  acme crm {Enter}');
    const card = await screen.findByRole('region', { name: 'Selected Product' });
    expect(server.callsTo('POST', '/api/search')[0]?.body).toEqual({ query: 'acme crm' });
    expect(within(card).getByText('Acme CRM')).toBeInTheDocument();
    // Legal suffixes stripped for display (spec 9).
    expect(within(card).getByText('Acme')).toBeInTheDocument();
    expect(within(card).getByText('A CRM for small teams')).toBeInTheDocument();
    expect(screen.getByText("Is this the product you're referring to?")).toBeInTheDocument();
    expect(store.getState().search).toMatchObject({ status: 'done', resultText: ACME, resultQuery: 'acme crm' });
  });

  it('hides the product when it was not found and uses the defaults', async () => {
    installServer({
      user: makeUser(),
      handler: (req) =>
        req.path === '/api/search' ? chatCompletion('Company: Initech\nLearn more at initech.example') : undefined,
    });
    const user = userEvent.setup();
    renderSearch();
    await user.type(await screen.findByPlaceholderText('Refer Anything..'), 'initech{Enter}');
    const card = await screen.findByRole('region', { name: 'Selected Product' });
    expect(within(card).queryByText('Product')).not.toBeInTheDocument();
    expect(within(card).getByText('Initech')).toBeInTheDocument();
    expect(within(card).getByText('No description available')).toBeInTheDocument();
  });

  it('disables the input and button and clears the previous result while searching', async () => {
    let answer: (res: Response) => void = () => {};
    let calls = 0;
    installServer({
      user: makeUser(),
      handler: (req) => {
        if (req.path !== '/api/search') return undefined;
        calls += 1;
        return calls === 1 ? chatCompletion(ACME) : new Promise<Response>((resolve) => (answer = resolve));
      },
    });
    const user = userEvent.setup();
    const { store } = renderSearch();
    const input = await screen.findByPlaceholderText('Refer Anything..');
    await user.type(input, 'acme{Enter}');
    await screen.findByRole('region', { name: 'Selected Product' });

    await user.type(input, ' crm{Enter}');
    await waitFor(() => expect(input).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Selected Product' })).not.toBeInTheDocument();
    expect(screen.getByText('Searching for the product')).toBeInTheDocument();
    expect(store.getState().search.status).toBe('searching');

    act(() => answer(chatCompletion('Product: Acme CRM Pro\nCompany: Acme\nDescription: More')));
    expect(await screen.findByText('Acme CRM Pro')).toBeInTheDocument();
    expect(input).toBeEnabled();
  });

  it("toasts 'Search Failed' with the server's message and clears the result", async () => {
    let fail = false;
    installServer({
      user: makeUser(),
      handler: (req) =>
        req.path === '/api/search'
          ? fail
            ? problem('RATE_LIMITED', 'Too many searches, slow down')
            : chatCompletion(ACME)
          : undefined,
    });
    const user = userEvent.setup();
    const { store } = renderSearch();
    const input = await screen.findByPlaceholderText('Refer Anything..');
    await user.type(input, 'acme{Enter}');
    await screen.findByRole('region', { name: 'Selected Product' });

    fail = true;
    await user.type(input, 'x{Enter}');
    expect(await screen.findByText('Search Failed')).toBeInTheDocument();
    expect(screen.getByText('Too many searches, slow down')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Selected Product' })).not.toBeInTheDocument();
    expect(store.getState().search.status).toBe('failed');
    expect(input).toBeEnabled();
  });

  it('falls back to the generic text for a server error', async () => {
    installServer({
      user: makeUser(),
      handler: (req) =>
        req.path === '/api/search'
          ? json(500, { message: 'stack trace here', code: 'INTERNAL_ERROR' }, 'Internal Server Error')
          : undefined,
    });
    const user = userEvent.setup();
    renderSearch();
    await user.type(await screen.findByPlaceholderText('Refer Anything..'), 'acme{Enter}');
    expect(await screen.findByText('Unable to process your search. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText('stack trace here')).not.toBeInTheDocument();
  });

  it("'No' goes back to idle with an empty query", async () => {
    installServer({
      user: makeUser(),
      handler: (req) => (req.path === '/api/search' ? chatCompletion(ACME) : undefined),
    });
    const user = userEvent.setup();
    const { store } = renderSearch();
    await user.type(await screen.findByPlaceholderText('Refer Anything..'), 'acme{Enter}');
    await screen.findByRole('region', { name: 'Selected Product' });
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(screen.queryByRole('region', { name: 'Selected Product' })).not.toBeInTheDocument();
    expect(screen.getByPlaceholderText('Refer Anything..')).toHaveValue('');
    // The button went with the card: the keyboard is back in the search, not at the page's start.
    expect(screen.getByPlaceholderText('Refer Anything..')).toHaveFocus();
    expect(store.getState().search).toMatchObject({ status: 'idle', query: '', result: null });
  });

  it("'Yes' opens the referral form with the product carried in the navigation state", async () => {
    installServer({
      user: makeUser(),
      handler: (req) => (req.path === '/api/search' ? chatCompletion(ACME) : undefined),
    });
    const user = userEvent.setup();
    renderSearch();
    await user.type(await screen.findByPlaceholderText('Refer Anything..'), 'acme{Enter}');
    await screen.findByRole('region', { name: 'Selected Product' });
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('heading', { name: 'Submit New Referral' })).toBeInTheDocument();
    expect(currentPath()).toBe('/submit-referral');
    const card = screen.getByRole('region', { name: 'Selected Product' });
    expect(within(card).getByText('Acme CRM')).toBeInTheDocument();
    expect(within(card).getByText('Acme')).toBeInTheDocument();
  });

  it('ignores an answer that arrives after the search was reset', async () => {
    let answer: (res: Response) => void = () => {};
    installServer({
      user: makeUser(),
      handler: (req) =>
        req.path === '/api/search' ? new Promise<Response>((resolve) => (answer = resolve)) : undefined,
    });
    const user = userEvent.setup();
    const { store } = renderApp('/');
    await user.type(await screen.findByPlaceholderText('Refer Anything..'), 'acme{Enter}');
    await user.click(screen.getByRole('button', { name: 'New Referral' }));
    act(() => answer(chatCompletion(ACME)));
    await waitFor(() => expect(store.getState().search.status).toBe('idle'));
    expect(store.getState().search.result).toBeNull();
  });
});

describe('search from a need (issue 12)', () => {
  const NEED_ANSWER = {
    id: 'search-1',
    object: 'chat.completion',
    created: 1,
    model: 'local-catalogue',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content:
            'Product: HubSpot\nCompany: HubSpot, Inc.\nDescription: CRM platform for growing businesses.\nWebsite: https://www.hubspot.com',
        },
        finish_reason: 'stop',
      },
    ],
    website: 'https://www.hubspot.com',
    alternatives: [
      {
        product: 'Pipedrive',
        company: 'Pipedrive Inc.',
        description: 'Pipeline-focused sales CRM.',
        website: 'https://www.pipedrive.com',
      },
      { product: 'Salesforce', company: 'Salesforce, Inc.', description: 'Cloud CRM.', website: null },
    ],
  };

  it('shows the alternatives as choices under the card; choosing one makes it the main card and refers it', async () => {
    installServer({
      user: makeUser(),
      handler: (req) => (req.path === '/api/search' ? json(200, NEED_ANSWER) : undefined),
    });
    const user = userEvent.setup();
    const { store } = renderSearch();
    await user.type(await screen.findByPlaceholderText('Refer Anything..'), 'CRM for a 10-person sales team{Enter}');
    const card = await screen.findByRole('region', { name: 'Selected Product' });
    expect(within(card).getByText('CRM platform for growing businesses.')).toBeInTheDocument();
    const choices = screen.getByRole('region', { name: 'Or refer one of these instead' });
    const buttons = within(choices).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual([
      'PipedrivePipedrive · Pipeline-focused sales CRM.',
      'SalesforceSalesforce · Cloud CRM.',
    ]);

    await user.click(within(choices).getByRole('button', { name: /Pipedrive/ }));
    expect(within(card).getByText('Pipeline-focused sales CRM.')).toBeInTheDocument();
    expect(within(card).queryByText('HubSpot')).not.toBeInTheDocument();
    // The previous answer is now a choice in its place.
    expect(within(choices).getByRole('button', { name: /HubSpot/ })).toBeInTheDocument();
    expect(store.getState().search.result).toEqual({
      product: 'Pipedrive',
      company: 'Pipedrive Inc.',
      description: 'Pipeline-focused sales CRM.',
      website: 'https://www.pipedrive.com',
    });

    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('heading', { name: 'Submit New Referral' })).toBeInTheDocument();
    const carried = screen.getByRole('region', { name: 'Selected Product' });
    expect(within(carried).getByText('Pipeline-focused sales CRM.')).toBeInTheDocument();
  });

  it.each([
    ['nothing was found', 'Product: Not found\nCompany: Not found\nDescription: No description available'],
    ['only the company is unknown', 'Product: Widget\nCompany: Not found\nDescription: Something.'],
  ])('disables Yes with a hint to try a name, a website or Smart Match when %s', async (_case, content) => {
    installServer({
      user: makeUser(),
      handler: (req) => (req.path === '/api/search' ? chatCompletion(content) : undefined),
    });
    const user = userEvent.setup();
    renderSearch();
    await user.type(await screen.findByPlaceholderText('Refer Anything..'), 'qwertyuiop{Enter}');
    await screen.findByRole('region', { name: 'Selected Product' });
    const yes = screen.getByRole('button', { name: 'Yes' });
    expect(yes).toBeDisabled();
    expect(yes).toHaveAccessibleDescription('Try a product name, a website, or Smart Match');
    expect(screen.getByRole('link', { name: 'Smart Match' })).toHaveAttribute('href', '/discover');
    expect(screen.queryByRole('region', { name: 'Or refer one of these instead' })).not.toBeInTheDocument();
    await user.click(yes);
    expect(currentPath()).toBe('/');
  });
});
