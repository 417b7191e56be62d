import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { TestClayPage } from '@/features/test-clay/components/test-clay-page';
import { installServer, json, makeUser, problem, renderRoute } from './utils';

const renderTestPage = () => renderRoute(<TestClayPage />, { at: paths.testClay });

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
    renderTestPage();
    await user.click(await screen.findByRole('button', { name: 'Test' }));
    expect(await screen.findByText('Result')).toBeInTheDocument();
    expect((await screen.findAllByText('Test Successful')).length).toBeGreaterThan(0);
    expect(screen.getByText(/"received": true/)).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/test-clay-webhook')).toHaveLength(1);
  });

  it("shows 'Test Failed' with the error", async () => {
    installServer({
      user: makeUser(),
      handler: (req) => (req.path === '/api/test-clay-webhook' ? problem('BAD_GATEWAY') : undefined),
    });
    const user = userEvent.setup();
    renderTestPage();
    await user.click(await screen.findByRole('button', { name: 'Test' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Test Failed');
  });
});
