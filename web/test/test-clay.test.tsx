import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { TestClayPage } from '@/features/test-clay/components/test-clay-page';
import { installServer, json, makeUser, problem, renderApp, renderRoute } from './utils';

const renderTestPage = () => renderRoute(<TestClayPage />, { at: paths.testClay });
const admin = () => makeUser({ isAdmin: true });

describe('/test-clay (spec 2; administrators, issue 11)', () => {
  it('runs the webhook test by POST and shows the message and the summary', async () => {
    const server = installServer({
      user: admin(),
      handler: (req) =>
        req.path === '/api/test-clay-webhook'
          ? json(200, {
              message: 'Test Successful',
              result: {
                ok: true,
                status: 200,
                durationMs: 42,
                fields: ['received', 'rows'],
                fieldCount: 2,
                error: null,
              },
            })
          : undefined,
    });
    const user = userEvent.setup();
    renderTestPage();
    await user.click(await screen.findByRole('button', { name: 'Test' }));
    const summary = await screen.findByRole('status');
    expect(summary).toHaveTextContent('Test Successful');
    expect(summary).toHaveTextContent('HTTP 200');
    expect(summary).toHaveTextContent('42 ms');
    expect(summary).toHaveTextContent('2 fields: received, rows');
    expect(server.callsTo('POST', '/api/test-clay-webhook')).toHaveLength(1);
    expect(server.callsTo('GET', '/api/test-clay-webhook')).toHaveLength(0);
  });

  it('shows a failed test with its status and error, and says when nothing is configured', async () => {
    let answer: unknown = {
      message: 'Test Failed',
      result: { ok: false, status: null, durationMs: 5, fields: [], fieldCount: 0, error: 'ECONNREFUSED' },
    };
    installServer({
      user: admin(),
      handler: (req) => (req.path === '/api/test-clay-webhook' ? json(200, answer) : undefined),
    });
    const user = userEvent.setup();
    renderTestPage();
    await user.click(await screen.findByRole('button', { name: 'Test' }));
    const summary = await screen.findByRole('status');
    expect(summary).toHaveTextContent('Test Failed');
    expect(summary).toHaveTextContent('No answer');
    expect(summary).toHaveTextContent('ECONNREFUSED');
    answer = { message: 'Enrichment webhook is not configured', result: null };
    await user.click(screen.getByRole('button', { name: 'Test' }));
    expect(await screen.findByText(/Set ENRICHMENT_WEBHOOK_URL/)).toBeInTheDocument();
  });

  it('shows the not-found screen to non-administrators', async () => {
    const server = installServer({ user: makeUser() });
    renderApp('/test-clay');
    expect(await screen.findByText(/not found/i)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Test' })).not.toBeInTheDocument();
    expect(server.callsTo('POST', '/api/test-clay-webhook')).toHaveLength(0);
  });

  it("shows 'Test Failed' with the error", async () => {
    installServer({
      user: admin(),
      handler: (req) => (req.path === '/api/test-clay-webhook' ? problem('ADMIN_ONLY') : undefined),
    });
    const user = userEvent.setup();
    renderTestPage();
    await user.click(await screen.findByRole('button', { name: 'Test' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Test Failed');
    expect(alert).toHaveTextContent('Only administrators can do this');
  });
});
