import type { MyVendors, Vendor } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { VendorPage } from '@/features/vendor-workspace/components/vendor-page';
import { makeVendor } from './fixtures';
import { currentPath, installServer, json, makeUser, problem, renderRoute, type Handler } from './utils';

const ada = makeUser({ id: 'u1', email: 'ada@acme.example' });

const renderVendor = (at: string = paths.vendor, user = ada) =>
  renderRoute(<VendorPage user={user} />, { path: paths.vendor, at, user });

/** GET /api/vendors/mine answers `mine` (changed by the handlers); `extra` answers first. */
function vendorServer(mine: MyVendors, extra?: Handler) {
  const state = { mine };
  const server = installServer({
    user: ada,
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/vendors/mine') return json(200, state.mine);
      return undefined;
    },
  });
  return { ...server, state };
}

describe('Vendor workspace (issue 9)', () => {
  it('creates the first workspace, validating the website and refusing a webmail domain next to it', async () => {
    let refuse = true;
    const server = vendorServer({ vendors: [], invitations: [] }, (req) => {
      if (req.method !== 'POST' || req.path !== '/api/vendors') return undefined;
      if (refuse) {
        refuse = false;
        return problem('WEBMAIL_DOMAIN');
      }
      const created = makeVendor({ members: [makeVendor().members[0]!] });
      server.state.mine = { vendors: [created], invitations: [] };
      return json(201, created);
    });
    const user = userEvent.setup();
    renderVendor();
    const form = await screen.findByRole('form', { name: 'Create a vendor workspace' });
    expect(screen.getByRole('heading', { name: 'Vendor Workspace' })).toBeInTheDocument();
    // The company given at sign-up is offered as the name.
    expect(within(form).getByLabelText('Company name')).toHaveValue('Engines Ltd');
    await user.clear(within(form).getByLabelText('Company name'));
    await user.click(within(form).getByRole('button', { name: 'Create workspace' }));
    expect(await within(form).findByText('Company name is required')).toBeInTheDocument();
    expect(within(form).getByText('Please enter the company website')).toBeInTheDocument();

    await user.type(within(form).getByLabelText('Company name'), 'Acme');
    await user.type(within(form).getByLabelText('Website'), 'not a website');
    expect(await within(form).findByText('Please enter a valid website, e.g. acme.com')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Website'));
    await user.type(within(form).getByLabelText('Website'), 'gmail.com');
    await user.click(within(form).getByRole('button', { name: 'Create workspace' }));
    expect(
      await within(form).findByText('A webmail domain cannot identify a company. Please enter your company website.'),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText('Website')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(within(form).getByLabelText('Website'));
    await user.type(within(form).getByLabelText('Website'), 'https://www.Acme.example/pricing');
    await user.click(within(form).getByRole('button', { name: 'Create workspace' }));
    expect(await screen.findByRole('heading', { name: 'Acme', level: 2 })).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/vendors')[1]!.body).toEqual({ name: 'Acme', website: 'acme.example' });
    expect(await screen.findByText('Workspace created')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Verified by domain' })).toHaveTextContent(
      'A member has a confirmed address at acme.example',
    );
    await waitFor(() => expect(currentPath()).toBe('/vendor?vendorId=v-acme'));
    const links = screen.getByRole('navigation', { name: 'Workspace' });
    expect(within(links).getByRole('link', { name: /Lead inbox/ })).toHaveAttribute(
      'href',
      '/vendor/leads?vendorId=v-acme',
    );
    expect(within(links).getByRole('link', { name: /Lead Criteria/ })).toHaveAttribute(
      'href',
      '/onboarding?vendorId=v-acme',
    );
    expect(within(links).getByRole('link', { name: /Bounties/ })).toHaveAttribute(
      'href',
      '/onboarding/bounties?vendorId=v-acme',
    );
  });

  it('says how to get verified, and Check again verifies it', async () => {
    const unverified = makeVendor({ verified: false, verification: null, verifiedAt: null });
    const server = vendorServer({ vendors: [unverified], invitations: [] }, (req) =>
      req.method === 'POST' && req.path === '/api/vendors/v-acme/verification' ? json(200, makeVendor()) : undefined,
    );
    const user = userEvent.setup();
    renderVendor(paths.vendor, makeUser({ id: 'u1', email: 'ada@gmail.com' }));
    const panel = await screen.findByRole('region', { name: 'Not verified yet' });
    expect(panel).toHaveTextContent('Sign in with an address at acme.example.');
    expect(panel).toHaveTextContent('Yours, ada@gmail.com, is not: invite a colleague who has one.');
    expect(panel).toHaveTextContent('Ask an administrator to approve it.');
    expect(screen.getByText('Not verified', { exact: true })).toBeInTheDocument();
    // Unverified: no links to the inbox, criteria or bounties, and the lead inbox waits.
    expect(screen.queryByRole('navigation', { name: 'Workspace' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Lead inbox')).toHaveAttribute('readonly');
    expect(screen.getByText('You can change it once the workspace is verified.')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/vendors/v-acme/verification')).toHaveLength(1));
    expect(await screen.findByRole('region', { name: 'Verified by domain' })).toBeInTheDocument();
    expect(await screen.findByText('Workspace verified')).toBeInTheDocument();
  });

  it("tells an owner whose address is on the domain to confirm it; 'Check again' may find nothing yet", async () => {
    const unverified = makeVendor({ verified: false, verification: null, verifiedAt: null });
    vendorServer({ vendors: [unverified], invitations: [] }, (req) =>
      req.method === 'POST' && req.path === '/api/vendors/v-acme/verification' ? json(200, unverified) : undefined,
    );
    const user = userEvent.setup();
    renderVendor(paths.vendor, makeUser({ id: 'u1', email: 'ada@eu.acme.example', emailVerified: false }));
    const panel = await screen.findByRole('region', { name: 'Not verified yet' });
    expect(panel).toHaveTextContent('confirm it with the link we emailed you');
    await user.click(within(panel).getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('No member has a confirmed address at acme.example yet.')).toBeInTheDocument();
  });

  it('shows an administrator approval', async () => {
    vendorServer({ vendors: [makeVendor({ verification: 'admin' })], invitations: [] });
    renderVendor();
    expect(await screen.findByRole('region', { name: 'Verified by an administrator' })).toHaveTextContent(
      'A Referral Hub administrator approved Acme since Feb 1, 2026.',
    );
  });

  it('says when an administrator revoked the verification, without offering to check the domain again', async () => {
    const revoked = makeVendor({
      verified: false,
      verification: null,
      verifiedAt: null,
      revokedAt: '2026-04-01T09:00:00.000Z',
    });
    vendorServer({ vendors: [revoked], invitations: [] });
    renderVendor(paths.vendor, makeUser({ id: 'u1', email: 'ada@acme.example' }));
    const panel = await screen.findByRole('region', { name: 'Verification revoked' });
    expect(panel).toHaveTextContent(
      'A Referral Hub administrator revoked the verification of Acme on Apr 1, 2026. Until an administrator approves it again, it receives no new leads',
    );
    expect(within(panel).queryByRole('button', { name: 'Check again' })).not.toBeInTheDocument();
    expect(screen.getByText('Verification revoked', { selector: '[data-slot="badge"], span' })).toBeInTheDocument();
  });

  it('says when only an administrator can verify it, as another workspace of its domain stays revoked', async () => {
    const claim = makeVendor({ verified: false, verification: null, verifiedAt: null, domainRevoked: true });
    vendorServer({ vendors: [claim], invitations: [] });
    renderVendor(paths.vendor, makeUser({ id: 'u1', email: 'ada@acme.example' }));
    const panel = await screen.findByRole('region', { name: 'Not verified yet' });
    expect(panel).toHaveTextContent(
      'an address at acme.example does not verify a workspace of it any more. Ask an administrator to approve it.',
    );
    expect(within(panel).queryByRole('button', { name: 'Check again' })).not.toBeInTheDocument();
  });

  it('lists members and roles; an owner removes a member after confirming', async () => {
    const server = vendorServer({ vendors: [makeVendor()], invitations: [] }, (req) =>
      req.method === 'DELETE' && req.path === '/api/vendors/v-acme/members/u2'
        ? json(200, makeVendor({ members: [makeVendor().members[0]!] }))
        : undefined,
    );
    const user = userEvent.setup();
    renderVendor();
    const members = await screen.findByRole('list', { name: 'Members' });
    const rows = within(members).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Ada Lovelace (you)');
    expect(rows[0]).toHaveTextContent('Owner');
    expect(rows[1]).toHaveTextContent('Bob Byte');
    expect(rows[1]).toHaveTextContent('Member');
    await user.click(within(members).getByRole('button', { name: 'Remove Bob Byte' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Bob Byte?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    await waitFor(() => expect(within(members).getAllByRole('listitem')).toHaveLength(1));
    expect(server.callsTo('DELETE', '/api/vendors/v-acme/members/u2')).toHaveLength(1);
    expect(await screen.findByText('Member removed')).toBeInTheDocument();
  });

  it('offers the only owner no Leave, and says how to leave', async () => {
    vendorServer({ vendors: [makeVendor()], invitations: [] });
    renderVendor();
    const me = (await screen.findByText('Ada Lovelace')).closest('li')!;
    expect(me).toHaveTextContent('The only owner: invite another owner to leave');
    expect(within(me).queryByRole('button')).not.toBeInTheDocument();
  });

  it('refuses to let the last owner leave with the server message (the other owner left meanwhile)', async () => {
    const coOwner = { ...makeVendor().members[1]!, role: 'owner' as const };
    vendorServer({ vendors: [makeVendor({ members: [makeVendor().members[0]!, coOwner] })], invitations: [] }, (req) =>
      req.method === 'DELETE' ? problem('LAST_OWNER') : undefined,
    );
    const user = userEvent.setup();
    renderVendor();
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave Acme?' })).getByRole('button', {
        name: 'Leave workspace',
      }),
    );
    expect(await screen.findByText('A workspace needs at least one owner')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Acme', level: 2 })).toBeInTheDocument();
  });

  it('a member who leaves no longer sees the workspace', async () => {
    const member = makeVendor({
      role: 'member',
      members: makeVendor().members.map((m) => ({ ...m, role: m.userId === 'u1' ? 'member' : 'owner' })),
    });
    const server = vendorServer({ vendors: [member], invitations: [] }, (req) => {
      if (req.method !== 'DELETE' || req.path !== '/api/vendors/v-acme/members/u1') return undefined;
      server.state.mine = { vendors: [], invitations: [] };
      return json(200, makeVendor({ role: null }));
    });
    const user = userEvent.setup();
    renderVendor();
    // A member sees neither the name and website form nor the invitations.
    await screen.findByRole('heading', { name: 'Acme', level: 2 });
    expect(screen.queryByRole('form', { name: 'Name and website' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Invite a colleague' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Leave' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave workspace' }));
    expect(await screen.findByRole('form', { name: 'Create a vendor workspace' })).toBeInTheDocument();
    expect(await screen.findByText('You left the workspace')).toBeInTheDocument();
  });

  it('invites by email (owners), refusing a malformed address, and withdraws an invitation', async () => {
    const invitation = {
      id: 'i1',
      vendorId: 'v-acme',
      vendorName: 'Acme',
      email: 'carol@acme.example',
      role: 'member' as const,
      invitedBy: 'Ada Lovelace',
      createdAt: '2026-03-01T10:00:00.000Z',
    };
    const server = vendorServer({ vendors: [makeVendor()], invitations: [] }, (req) => {
      if (req.method === 'POST' && req.path === '/api/vendors/v-acme/invitations') {
        server.state.mine = { vendors: [makeVendor({ invitations: [invitation] })], invitations: [] };
        return json(201, invitation);
      }
      if (req.method === 'DELETE' && req.path === '/api/vendors/v-acme/invitations/i1') {
        server.state.mine = { vendors: [makeVendor()], invitations: [] };
        return json(200, makeVendor());
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderVendor();
    const form = await screen.findByRole('form', { name: 'Invite a colleague' });
    expect(screen.getByText('No pending invitations.')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Email'), 'carol@');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(await within(form).findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/vendors/v-acme/invitations')).toHaveLength(0);

    await user.clear(within(form).getByLabelText('Email'));
    await user.type(within(form).getByLabelText('Email'), 'Carol@Acme.example');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    const pending = await screen.findByRole('list', { name: 'Pending invitations' });
    expect(pending).toHaveTextContent('carol@acme.example');
    expect(server.callsTo('POST', '/api/vendors/v-acme/invitations')[0]!.body).toEqual({
      email: 'carol@acme.example',
      role: 'member',
    });
    expect(await screen.findByText('We emailed carol@acme.example.')).toBeInTheDocument();

    // Invited again (the server answers the same invitation, emailing nothing): said so, not "We emailed".
    await user.type(within(form).getByLabelText('Email'), 'carol@acme.example');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText('carol@acme.example was already invited: they join as member. No second email was sent.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Invitation updated')).toBeInTheDocument();

    await user.click(within(pending).getByRole('button', { name: 'Withdraw the invitation to carol@acme.example' }));
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument();
  });

  it("shows invitations for the user's address; Accept joins, someone else's answers with the reason", async () => {
    const joined = makeVendor({ id: 'v-globex', name: 'Globex', domain: 'globex.example', role: 'member' });
    const forMe = {
      id: 'i1',
      vendorId: 'v-globex',
      vendorName: 'Globex',
      email: 'ada@acme.example',
      role: 'member' as const,
      invitedBy: 'Gus Globex',
      createdAt: '2026-03-01T10:00:00.000Z',
    };
    let notYours = true;
    const server = vendorServer({ vendors: [], invitations: [forMe] }, (req) => {
      if (req.method !== 'POST' || req.path !== '/api/vendor-invitations/i1/accept') return undefined;
      if (notYours) {
        notYours = false;
        return problem('INVITATION_NOT_YOURS');
      }
      server.state.mine = { vendors: [joined], invitations: [] };
      return json(200, joined);
    });
    const user = userEvent.setup();
    renderVendor();
    const list = await screen.findByRole('list', { name: 'Invitations for you' });
    expect(list).toHaveTextContent('Globex');
    expect(list).toHaveTextContent('Gus Globex invited you to join as a member.');
    await user.click(within(list).getByRole('button', { name: 'Accept the invitation to Globex' }));
    expect(
      await screen.findByText(
        'This invitation was sent to another email address. Sign in with that address to accept it.',
      ),
    ).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Accept the invitation to Globex' }));
    expect(await screen.findByRole('heading', { name: 'Globex', level: 2 })).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe('/vendor?vendorId=v-globex'));
    expect(screen.queryByRole('list', { name: 'Invitations for you' })).not.toBeInTheDocument();
  });

  it('switches between several workspaces with the selector, and saves the lead inbox', async () => {
    const globex: Vendor = makeVendor({ id: 'v-globex', name: 'Globex', domain: 'globex.example', role: 'member' });
    const server = vendorServer({ vendors: [makeVendor(), globex], invitations: [] }, (req) =>
      req.method === 'PATCH' && req.path === '/api/vendors/v-globex'
        ? json(200, { ...globex, leadInbox: 'sales@globex.example' })
        : undefined,
    );
    const user = userEvent.setup();
    renderVendor();
    const picker = await screen.findByRole('combobox', { name: 'Workspace' });
    expect(picker).toHaveValue('v-acme');
    await user.selectOptions(picker, 'v-globex');
    expect(await screen.findByRole('heading', { name: 'Globex', level: 2 })).toBeInTheDocument();
    expect(currentPath()).toBe('/vendor?vendorId=v-globex');

    const inbox = screen.getByLabelText('Lead inbox');
    await user.clear(inbox);
    await user.type(inbox, 'sales@globex.example');
    await user.click(screen.getByRole('button', { name: 'Save lead inbox' }));
    await waitFor(() => expect(server.callsTo('PATCH', '/api/vendors/v-globex')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/api/vendors/v-globex')[0]!.body).toEqual({ leadInbox: 'sales@globex.example' });
    expect(await screen.findByText('Workspace saved')).toBeInTheDocument();
  });

  it('an owner renames a verified workspace without sending its locked website', async () => {
    const server = vendorServer({ vendors: [makeVendor()], invitations: [] }, (req) =>
      req.method === 'PATCH' ? json(200, makeVendor({ name: 'Acme Corp' })) : undefined,
    );
    const user = userEvent.setup();
    renderVendor();
    const form = await screen.findByRole('form', { name: 'Name and website' });
    expect(within(form).getByLabelText('Website')).toHaveAttribute('readonly');
    expect(
      within(form).getByText('The website of a verified workspace cannot be changed. Ask an administrator.'),
    ).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Company name'));
    await user.type(within(form).getByLabelText('Company name'), 'Acme Corp');
    await user.click(within(form).getByRole('button', { name: 'Save name and website' }));
    await waitFor(() => expect(server.callsTo('PATCH', '/api/vendors/v-acme')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/api/vendors/v-acme')[0]!.body).toEqual({ name: 'Acme Corp' });
  });

  it('says when the workspaces cannot be read', async () => {
    installServer({
      user: ada,
      handler: (req) => (req.path === '/api/vendors/mine' ? problem('VALIDATION_FAILED', 'Broken') : undefined),
    });
    renderVendor();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load your workspaces');
    expect(screen.getByText('Broken')).toBeInTheDocument();
  });
});
