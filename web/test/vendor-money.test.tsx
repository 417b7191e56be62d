import type { MyVendors, Vendor, WebhookDelivery, WebhookEndpoint } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { VendorPage } from '@/features/vendor-workspace/components/vendor-page';
import { makeCommission, makeVendor } from './fixtures';
import { installServer, json, makeUser, problem, renderRoute, type Handler } from './utils';

const ada = makeUser({ id: 'u1', email: 'ada@acme.example' });
const endpoint: WebhookEndpoint = {
  id: 'w1',
  url: 'https://crm.example.com/hook',
  events: ['lead.created'],
  description: 'Our CRM',
  createdAt: '2026-03-01T10:00:00.000Z',
  secretHint: 'AbCd',
};
const delivery: WebhookDelivery = {
  id: 'd1',
  endpointId: 'w1',
  eventId: 'e1',
  eventType: 'lead.created',
  state: 'retrying',
  attempts: 2,
  lastAttemptAt: '2026-03-02T10:00:00.000Z',
  nextAttemptAt: '2026-03-02T10:05:00.000Z',
  responseStatus: 500,
  responseBody: 'Internal oops',
  error: null,
  createdAt: '2026-03-02T09:59:00.000Z',
};

function server(vendor: Vendor, extra?: Handler) {
  const mine: MyVendors = { vendors: [vendor], invitations: [] };
  return installServer({
    user: ada,
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/vendors/mine') return json(200, mine);
      if (req.method === 'GET' && req.path === '/api/vendors/v-acme/commissions')
        return json(200, {
          currency: 'USD',
          owedCents: 12_345,
          paidCents: 100_000,
          commissions: [makeCommission({ grossCents: 12_345 })],
        });
      if (req.method === 'GET' && req.path === '/api/vendors/v-acme/webhooks') return json(200, [endpoint]);
      if (req.method === 'GET' && req.path === '/api/vendors/v-acme/webhooks/w1/deliveries')
        return json(200, [delivery]);
      return undefined;
    },
  });
}

const renderVendor = () => renderRoute(<VendorPage user={ada} />, { path: paths.vendor, at: paths.vendor, user: ada });

describe('Vendor workspace money (issue 10)', () => {
  it('asks again while a workspace just created has not reached the service yet, then offers to try again', async () => {
    let refusals = 2;
    const api = server(makeVendor(), (req) =>
      req.path === '/api/vendors/v-acme/commissions' && refusals-- > 0 ? problem('VENDOR_NOT_FOUND') : undefined,
    );
    renderVendor();
    const owed = await screen.findByRole('region', { name: 'What you owe' });
    await waitFor(() => expect(owed).toHaveTextContent('Owed (in escrow)$123.45'), { timeout: 5000 });
    expect(api.callsTo('GET', '/api/vendors/v-acme/commissions')).toHaveLength(3);
  }, 10_000);

  it('offers Try again when what the vendor owes cannot be read', async () => {
    let failures = 1;
    server(makeVendor(), (req) =>
      req.path === '/api/vendors/v-acme/commissions' && failures-- > 0 ? json(500, { message: 'Boom' }) : undefined,
    );
    const user = userEvent.setup();
    renderVendor();
    const owed = await screen.findByRole('region', { name: 'What you owe' });
    expect(await within(owed).findByRole('alert')).toHaveTextContent('Failed to load what you owe.');
    await user.click(within(owed).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(owed).toHaveTextContent('Owed (in escrow)$123.45'));
  });

  it('shows what the vendor owes and has paid, line by line (gross)', async () => {
    server(makeVendor());
    renderVendor();
    const owed = await screen.findByRole('region', { name: 'What you owe' });
    await waitFor(() => expect(owed).toHaveTextContent('Owed (in escrow)$123.45'));
    expect(owed).toHaveTextContent('Paid out (share and fee)$1,000.00');
    expect(within(owed).getByRole('list', { name: 'Commissions you owe or paid' })).toHaveTextContent(
      'Grace Hopper: Qualified Lead (Warm Intro)$123.45',
    );
  });

  it('lists endpoints and their deliveries; sends a test event', async () => {
    const api = server(makeVendor(), (req) =>
      req.method === 'POST' && req.path === '/api/vendors/v-acme/webhooks/w1/test' ? json(202, delivery) : undefined,
    );
    const user = userEvent.setup();
    renderVendor();
    const panel = await screen.findByRole('region', { name: 'Webhooks' });
    const card = await within(panel).findByRole('article', { name: endpoint.url });
    expect(card).toHaveTextContent('lead.created · secret …AbCd');
    const deliveries = await within(card).findByRole('region', { name: `Deliveries to ${endpoint.url}` });
    expect(deliveries).toHaveTextContent('retrying');
    expect(deliveries).toHaveTextContent('HTTP 500');
    expect(deliveries).toHaveTextContent('Internal oops');
    await user.click(within(card).getByRole('button', { name: `Send test event to ${endpoint.url}` }));
    await waitFor(() => expect(api.callsTo('POST', '/api/vendors/v-acme/webhooks/w1/test')).toHaveLength(1));
  });

  it('owners add an endpoint and see the secret once; a private URL is refused by code', async () => {
    let refuse = true;
    const api = server(makeVendor(), (req) => {
      if (req.method !== 'POST' || req.path !== '/api/vendors/v-acme/webhooks') return undefined;
      if (refuse) return problem('WEBHOOK_URL_PRIVATE');
      return json(201, {
        endpoint: { ...endpoint, id: 'w2', url: 'https://hooks.example.org/x' },
        secret: 'whsec_c2VjcmV0',
      });
    });
    const user = userEvent.setup();
    renderVendor();
    const form = await screen.findByRole('form', { name: 'Add endpoint' });
    await user.type(within(form).getByLabelText('Endpoint URL (HTTPS)'), 'https://10.0.0.1/x');
    await user.click(within(form).getByRole('checkbox', { name: 'commission.created' }));
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('private or internal address');
    expect(api.callsTo('POST', '/api/vendors/v-acme/webhooks')[0]!.body).toEqual({
      url: 'https://10.0.0.1/x',
      events: ['lead.created', 'lead.status_changed'],
      description: '',
    });
    refuse = false;
    await user.clear(within(form).getByLabelText('Endpoint URL (HTTPS)'));
    await user.type(within(form).getByLabelText('Endpoint URL (HTTPS)'), 'https://hooks.example.org/x');
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_c2VjcmV0');
    expect(screen.getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('webhook-secret')).not.toBeInTheDocument();
  });

  it('members see endpoints but cannot add or delete them', async () => {
    server(makeVendor({ role: 'member' }));
    renderVendor();
    const panel = await screen.findByRole('region', { name: 'Webhooks' });
    await within(panel).findByRole('article', { name: endpoint.url });
    expect(within(panel).queryByRole('form', { name: 'Add endpoint' })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });
});
