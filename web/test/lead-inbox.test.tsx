import type { Lead, MyVendors } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { LeadsPage } from '@/features/lead-inbox/components/leads-page';
import { makeLead, makeVendor, queryOf } from './fixtures';
import { installServer, json, makeUser, problem, renderRoute, type Handler } from './utils';

const ada = makeUser({ id: 'u1', email: 'ada@acme.example' });
const renderInbox = (at: string = paths.vendorLeads) =>
  renderRoute(<LeadsPage user={ada} />, { path: paths.vendorLeads, at, user: ada });

function inboxServer(mine: MyVendors, leads: Lead[], extra?: Handler) {
  const state = { leads };
  const server = installServer({
    user: ada,
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/vendors/mine') return json(200, mine);
      if (req.method === 'GET' && req.path === '/api/vendors/v-acme/leads') {
        // As the service answers: newest first (the array's order), `limit` of those older than `before`.
        const { status, before, limit } = queryOf(req);
        const matching = state.leads.filter((lead) => !status || lead.status === status);
        const from = before ? matching.findIndex((lead) => lead.referralId === Number(before)) + 1 : 0;
        return json(200, matching.slice(from, from + Number(limit ?? 500)));
      }
      return undefined;
    },
  });
  return { ...server, state };
}

const mine = (vendors = [makeVendor()]): MyVendors => ({ vendors, invitations: [] });

describe('Lead inbox (issue 9)', () => {
  it('shows each lead: client, contact, referrer, reason, ICP fit in plain words, intro email and timeline', async () => {
    inboxServer(mine(), [makeLead()]);
    const user = userEvent.setup();
    renderInbox();
    const lead = await screen.findByRole('article', { name: 'Globex' });
    expect(screen.getByRole('heading', { name: 'Lead Inbox', level: 1 })).toBeInTheDocument();
    expect(lead).toHaveTextContent('51-200 · Germany · Logistics');
    expect(lead).toHaveTextContent('Grace Hopper · grace@globex.example');
    expect(lead).toHaveTextContent('Rita Referrer, Northwind Agency (rita@northwind.example)');
    expect(lead).toHaveTextContent('Their sales team needs a CRM.');
    expect(lead).toHaveTextContent('Budget approved for Q2.');
    expect(lead).toHaveTextContent('ReferenceReferral 7');
    expect(within(lead).getByText('New')).toBeInTheDocument();
    expect(within(lead).getByText('Fits what is known')).toBeInTheDocument();
    expect(within(lead).getByRole('list', { name: 'Fits' })).toHaveTextContent(
      'Based in Germany, a country you sell to',
    );
    expect(within(lead).getByRole('list', { name: 'Not known yet' })).toHaveTextContent('Funding stage not given');
    await user.click(within(lead).getByText('Intro email (draft, not sent yet)'));
    expect(within(lead).getByText('Grace, meet Acme CRM')).toBeVisible();
    await user.click(within(lead).getByText('Timeline'));
    const timeline = within(lead).getByRole('list', { name: 'Timeline of Globex' });
    expect(
      within(timeline)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('p')?.textContent),
    ).toEqual(['Referral submitted', "Sent to the vendor's lead inbox"]);
  });

  it("shows a member's own referral as theirs: nothing to accept, decline or confirm (the server refuses OWN_LEAD)", async () => {
    const own = makeLead({ referrer: { name: 'Ada Lovelace', company: 'Acme', email: 'ADA@acme.example' } });
    inboxServer(mine(), [own]);
    renderInbox();
    const card = await screen.findByRole('article');
    expect(card).toHaveTextContent(
      'This is your own referral: another member of the workspace accepts or declines it.',
    );
    expect(within(card).queryByRole('button', { name: /^Accept|^Decline/ })).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /^Confirm/ })).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Set expected value' })).not.toBeInTheDocument();
    expect(card).toHaveTextContent('another member of the workspace confirms its milestones');
  });

  it('accepts a lead; the list is read again', async () => {
    const server = inboxServer(mine(), [makeLead()], (req) => {
      if (req.method !== 'POST' || req.path !== '/api/vendors/v-acme/leads/7/accept') return undefined;
      const accepted = makeLead({ status: 'accepted', decidedAt: '2026-03-03T10:00:00.000Z' });
      server.state.leads = [accepted];
      return json(200, accepted);
    });
    const user = userEvent.setup();
    renderInbox();
    const lead = await screen.findByRole('article', { name: 'Globex' });
    await user.click(within(lead).getByRole('button', { name: 'Accept Globex' }));
    expect(await within(lead).findByText('Accepted on Mar 3, 2026. The referrer has been told.')).toBeInTheDocument();
    expect(within(lead).queryByRole('button', { name: /Accept/ })).not.toBeInTheDocument();
    // The keyboard stays on the lead (its title), not back at the top of the page.
    await waitFor(() => expect(within(lead).getByRole('heading', { name: 'Globex' })).toHaveFocus());
    expect(await screen.findByText('Lead accepted')).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/vendors/v-acme/leads').length).toBeGreaterThanOrEqual(2);
  });

  it('declines with a required reason the referrer reads', async () => {
    const server = inboxServer(mine(), [makeLead()], (req) => {
      if (req.method !== 'POST' || req.path !== '/api/vendors/v-acme/leads/7/decline') return undefined;
      const declined = makeLead({
        status: 'declined',
        declineReason: (req.body as { reason: string }).reason,
        decidedAt: '2026-03-03T10:00:00.000Z',
      });
      server.state.leads = [declined];
      return json(200, declined);
    });
    const user = userEvent.setup();
    renderInbox();
    const lead = await screen.findByRole('article', { name: 'Globex' });
    await user.click(within(lead).getByRole('button', { name: 'Decline Globex' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline Globex?' });
    await user.click(within(dialog).getByRole('button', { name: 'Decline lead' }));
    expect(await within(dialog).findByText('Please tell the referrer why')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/vendors/v-acme/leads/7/decline')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Why are you declining?'), 'We only serve the EU');
    await user.click(within(dialog).getByRole('button', { name: 'Decline lead' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('POST', '/api/vendors/v-acme/leads/7/decline')[0]!.body).toEqual({
      reason: 'We only serve the EU',
    });
    expect(await within(lead).findByText('We only serve the EU')).toBeInTheDocument();
    expect(within(lead).getByText('Declined')).toBeInTheDocument();
  });

  it('says when someone else decided first, and keeps the dialog to try again on a failed decline', async () => {
    inboxServer(mine(), [makeLead()], (req) => {
      if (req.path.endsWith('/accept')) return problem('LEAD_ALREADY_DECIDED');
      if (req.path.endsWith('/decline')) return problem('LEAD_ALREADY_DECIDED');
      return undefined;
    });
    const user = userEvent.setup();
    renderInbox();
    const lead = await screen.findByRole('article', { name: 'Globex' });
    await user.click(within(lead).getByRole('button', { name: 'Accept Globex' }));
    expect(await screen.findByText('This lead has already been accepted or declined')).toBeInTheDocument();
    await user.click(within(lead).getByRole('button', { name: 'Decline Globex' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Why are you declining?'), 'Too small');
    await user.click(within(dialog).getByRole('button', { name: 'Decline lead' }));
    await waitFor(() =>
      expect(screen.getAllByText('This lead has already been accepted or declined').length).toBeGreaterThan(0),
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('filters by status, and shows the empty states', async () => {
    const server = inboxServer(mine(), []);
    const user = userEvent.setup();
    renderInbox();
    expect(await screen.findByRole('heading', { name: 'No leads yet' })).toBeInTheDocument();
    expect(screen.getByText(/leads@acme\.example gets an email/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Declined' }));
    expect(await screen.findByRole('heading', { name: 'No declined leads' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Declined' })).toHaveAttribute('aria-pressed', 'true');
    expect(queryOf(server.callsTo('GET', '/api/vendors/v-acme/leads').at(-1)!)).toEqual({
      status: 'declined',
      limit: '21',
    });
  });

  it('shows a lead the referrer withdrew as withdrawn, with nothing to accept, decline or confirm; and filters them', async () => {
    const server = inboxServer(mine(), [makeLead({ status: 'withdrawn', stage: 'declined' })]);
    const user = userEvent.setup();
    renderInbox();
    const card = await screen.findByRole('article');
    expect(card).toHaveTextContent('Withdrawn');
    expect(card).toHaveTextContent('withdrew this referral: there is nothing to accept, decline or confirm.');
    expect(within(card).queryByRole('button', { name: /^(Accept|Decline|Confirm)/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Withdrawn' }));
    await waitFor(() =>
      expect(queryOf(server.callsTo('GET', '/api/vendors/v-acme/leads').at(-1)!)).toEqual({
        status: 'withdrawn',
        limit: '21',
      }),
    );
  });

  it('pages 20 leads at a time, newest first; a filter starts again at the first page', async () => {
    const leads = Array.from({ length: 45 }, (_, n) =>
      makeLead({ referralId: 100 - n, client: { ...makeLead().client!, name: `Client ${n + 1}` } }),
    );
    const server = inboxServer(mine(), leads);
    const user = userEvent.setup();
    renderInbox();
    const pages = () => screen.getByRole('navigation', { name: 'Lead pages' });
    // The cards shown: the list's own items (each card holds lists of its own).
    const names = async () => [...(await screen.findByRole('list', { name: 'Leads' })).children];

    expect(await names()).toHaveLength(20);
    expect(screen.getByText('Client 1')).toBeInTheDocument();
    expect(screen.queryByText('Client 21')).not.toBeInTheDocument();
    expect(within(pages()).getByRole('button', { name: 'Newer leads' })).toBeDisabled();
    expect(within(pages()).getByText('Page 1')).toBeInTheDocument();

    await user.click(within(pages()).getByRole('button', { name: 'Older leads' }));
    expect(await screen.findByText('Client 21')).toBeInTheDocument();
    expect(screen.queryByText('Client 20')).not.toBeInTheDocument();
    expect(queryOf(server.callsTo('GET', '/api/vendors/v-acme/leads').at(-1)!)).toEqual({ limit: '21', before: '81' });
    expect(within(pages()).getByText('Page 2')).toBeInTheDocument();

    await user.click(within(pages()).getByRole('button', { name: 'Older leads' }));
    expect(await screen.findByText('Client 45')).toBeInTheDocument();
    expect(await names()).toHaveLength(5);
    expect(within(pages()).getByRole('button', { name: 'Older leads' })).toBeDisabled();

    await user.click(within(pages()).getByRole('button', { name: 'Newer leads' }));
    expect(await screen.findByText('Client 40')).toBeInTheDocument();
    expect(within(pages()).getByText('Page 2')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New' }));
    expect(await screen.findByText('Client 1')).toBeInTheDocument();
    expect(within(pages()).getByText('Page 1')).toBeInTheDocument();
    expect(queryOf(server.callsTo('GET', '/api/vendors/v-acme/leads').at(-1)!)).toEqual({ status: 'new', limit: '21' });
  });

  it('guides a user without a workspace, and one whose workspace is not verified', async () => {
    inboxServer(mine([]), []);
    renderInbox();
    expect(await screen.findByText('You have no vendor workspace yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Create a vendor workspace/ })).toHaveAttribute('href', '/vendor');
  });

  it('an unverified workspace receives no leads: the notice links to its verification', async () => {
    const server = inboxServer(mine([makeVendor({ verified: false, verification: null, verifiedAt: null })]), []);
    renderInbox();
    expect(await screen.findByText('Acme is not verified yet')).toBeInTheDocument();
    expect(screen.getByText(/Sign in with an address at acme\.example, or ask an administrator/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Verify your workspace/ })).toHaveAttribute(
      'href',
      '/vendor?vendorId=v-acme',
    );
    expect(server.callsTo('GET', '/api/vendors/v-acme/leads')).toHaveLength(0);
  });

  it('opens the workspace named in the URL, and says when its leads cannot be read', async () => {
    const globex = makeVendor({ id: 'v-globex', name: 'Globex Sales', domain: 'globex.example' });
    const server = inboxServer(mine([makeVendor(), globex]), [], (req) =>
      req.path === '/api/vendors/v-globex/leads' ? problem('NOT_A_MEMBER') : undefined,
    );
    renderInbox('/vendor/leads?vendorId=v-globex');
    expect(await screen.findByRole('combobox', { name: 'Workspace' })).toHaveValue('v-globex');
    // Asked four times a second apart (a membership just accepted reaches the inbox a moment later), then told.
    expect(await screen.findByRole('alert', {}, { timeout: 6000 })).toHaveTextContent('Failed to load the leads');
    expect(screen.getByText('Only members of this vendor workspace can do this')).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/vendors/v-globex/leads')).toHaveLength(4);
  }, 10_000);

  it('reads the inbox of a workspace just joined once the membership has reached it', async () => {
    let refusals = 2;
    const server = inboxServer(mine(), [makeLead()], (req) =>
      req.path === '/api/vendors/v-acme/leads' && refusals-- > 0 ? problem('NOT_A_MEMBER') : undefined,
    );
    renderInbox();
    expect(await screen.findByRole('article', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/api/vendors/v-acme/leads')).toHaveLength(3);
  }, 10_000);
});
