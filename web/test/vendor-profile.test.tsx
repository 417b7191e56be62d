import type { MyVendors } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { BountiesPage } from '@/features/onboarding/components/bounties-page';
import { OnboardingPage } from '@/features/onboarding/components/onboarding-page';
import { makeVendor, queryOf } from './fixtures';
import { installServer, json, makeUser, problem, renderRoute, type Handler } from './utils';

const user1 = makeUser();
const unverified = makeVendor({ verified: false, verification: null, verifiedAt: null });
const globex = makeVendor({ id: 'v-globex', name: 'Globex', domain: 'globex.example' });

function profileServer(mine: MyVendors | null, extra?: Handler) {
  return installServer({
    user: user1,
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/vendors/mine')
        return mine ? json(200, mine) : problem('VALIDATION_FAILED', 'Broken');
      if (req.method === 'GET' && req.path === '/api/lead-criteria') return problem('LEAD_CRITERIA_NOT_FOUND');
      if (req.method === 'GET' && req.path === '/api/bounties') return problem('BOUNTIES_NOT_FOUND');
      if (req.method === 'POST' && req.path === '/api/lead-criteria')
        return json(200, { ...(req.body as object), updatedAt: '2026-01-01T00:00:00.000Z' });
      return undefined;
    },
  });
}

const renderIcp = (at: string = paths.onboarding) =>
  renderRoute(<OnboardingPage user={user1} />, { path: paths.onboarding, at, user: user1 });
const renderBounties = (at: string = paths.bounties) =>
  renderRoute(<BountiesPage user={user1} />, { path: paths.bounties, at, user: user1 });

describe('Lead criteria and bounties belong to a vendor workspace (issue 9)', () => {
  it('guides a user without a workspace to create one, and shows no form', async () => {
    const server = profileServer({ vendors: [], invitations: [] });
    renderIcp();
    expect(await screen.findByText('You have no vendor workspace yet')).toBeInTheDocument();
    expect(screen.getByText(/Create one to set lead criteria/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Create a vendor workspace/ })).toHaveAttribute('href', '/vendor');
    expect(screen.queryByRole('button', { name: /Save & Continue/ })).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/api/lead-criteria')).toHaveLength(0);
  });

  it('an unverified workspace: says it needs verification, with the link, and cannot save', async () => {
    profileServer({ vendors: [unverified], invitations: [] });
    const user = userEvent.setup();
    renderIcp();
    const notice = await screen.findByRole('region', { name: 'Acme is not verified yet' });
    expect(notice).toHaveTextContent('Only a verified workspace can set lead criteria.');
    expect(within(notice).getByRole('link', { name: /Verify your workspace/ })).toHaveAttribute(
      'href',
      '/vendor?vendorId=v-acme',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Series A' }));
    expect(screen.getByRole('button', { name: /Save & Continue/ })).toBeDisabled();
  });

  it('reads and saves the workspace chosen among several (?vendorId=)', async () => {
    const server = profileServer({ vendors: [makeVendor(), globex], invitations: [] });
    const user = userEvent.setup();
    renderIcp();
    const picker = await screen.findByRole('combobox', { name: 'Workspace' });
    expect(queryOf(server.callsTo('GET', '/api/lead-criteria')[0]!)).toEqual({ vendorId: 'v-acme' });
    await user.selectOptions(picker, 'v-globex');
    await waitFor(() =>
      expect(queryOf(server.callsTo('GET', '/api/lead-criteria').at(-1)!)).toEqual({ vendorId: 'v-globex' }),
    );
    await user.click(await screen.findByRole('checkbox', { name: 'Series A' }));
    await user.click(screen.getByRole('button', { name: /Save & Continue/ }));
    await waitFor(() => expect(server.callsTo('POST', '/api/lead-criteria')).toHaveLength(1));
    expect(queryOf(server.callsTo('POST', '/api/lead-criteria')[0]!)).toEqual({ vendorId: 'v-globex' });
    expect(await screen.findByText('Ideal Customer Profile Saved')).toBeInTheDocument();
  });

  it('a save refused as WORKSPACE_NOT_VERIFIED says so, with the link', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    profileServer({ vendors: [makeVendor()], invitations: [] }, (req) =>
      req.method === 'POST' && req.path === '/api/lead-criteria' ? problem('WORKSPACE_NOT_VERIFIED') : undefined,
    );
    const user = userEvent.setup();
    renderIcp();
    await user.click(await screen.findByRole('checkbox', { name: 'Series A' }));
    await user.click(screen.getByRole('button', { name: /Save & Continue/ }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Acme is not verified yet');
    expect(within(alert).getByRole('link', { name: /Verify your workspace/ })).toBeInTheDocument();
    expect(await screen.findByText(/This vendor workspace is not verified yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Save & Continue/ })).toBeDisabled();
  });

  it('when the workspaces cannot be listed, the server decides: NO_WORKSPACE guides to /vendor', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = profileServer(null, (req) =>
      req.method === 'GET' && req.path === '/api/lead-criteria' ? problem('NO_WORKSPACE') : undefined,
    );
    renderIcp();
    expect(await screen.findByText('You have no vendor workspace yet')).toBeInTheDocument();
    expect(queryOf(server.callsTo('GET', '/api/lead-criteria')[0]!)).toEqual({});
  });

  it('bounties: no workspace guides to /vendor; a refused save (not a member) says so', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    profileServer({ vendors: [], invitations: [] });
    renderBounties();
    expect(await screen.findByText('You have no vendor workspace yet')).toBeInTheDocument();
    expect(screen.getByText(/Create one to set bounties/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Save Bounties/ })).not.toBeInTheDocument();
  });

  it('bounties: saved to the workspace named in the URL; NOT_A_MEMBER is told with a link to one’s workspaces', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = profileServer({ vendors: [makeVendor(), globex], invitations: [] }, (req) =>
      req.method === 'POST' && req.path === '/api/bounties' ? problem('NOT_A_MEMBER') : undefined,
    );
    const user = userEvent.setup();
    renderBounties('/onboarding/bounties?vendorId=v-globex');
    expect(await screen.findByRole('combobox', { name: 'Workspace' })).toHaveValue('v-globex');
    await user.type(await screen.findByLabelText('Amount (USD)'), '500');
    await user.click(screen.getByRole('button', { name: /Save Bounties/ }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You are not a member of this workspace');
    expect(within(alert).getByRole('link', { name: /Your vendor workspaces/ })).toHaveAttribute('href', '/vendor');
    expect(queryOf(server.callsTo('POST', '/api/bounties')[0]!)).toEqual({ vendorId: 'v-globex' });
  });
});
