import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { installServer, json, makeUser, renderApp } from './utils';

describe('/test-clay (spec 2)', () => {
  it('runs the webhook test and shows the returned message and result', async () => {
    const server = installServer({
      user: makeUser(),
      handler: (req) =>
        req.path === '/api/test-clay-webhook'
          ? json(200, { message: 'Test Successful', result: { received: true } })
          : undefined,
    });
    const user = userEvent.setup();
    renderApp('/test-clay');
    await user.click(await screen.findByRole('button', { name: 'Test' }));
    expect(await screen.findByText('Result')).toBeInTheDocument();
    expect((await screen.findAllByText('Test Successful')).length).toBeGreaterThan(0);
    expect(screen.getByText(/"received": true/)).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/test-clay-webhook')).toHaveLength(1);
  });

  it("shows 'Test Failed' with the error", async () => {
    installServer({
      user: makeUser(),
      handler: (req) =>
        req.path === '/api/test-clay-webhook'
          ? json(502, { message: 'Service temporarily unavailable. Please try again.' })
          : undefined,
    });
    const user = userEvent.setup();
    renderApp('/test-clay');
    await user.click(await screen.findByRole('button', { name: 'Test' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Test Failed');
  });
});
