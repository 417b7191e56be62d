import type { Program, ProgramAnalysis, Vendor, VendorSummary } from '@app/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { AdminPage } from '@/features/admin/components/admin-page';
import { installServer, json, makeUser, problem, renderApp, renderRoute, type Handler } from './utils';
import { queryOf } from './fixtures';

const renderAdmin = () => renderRoute(<AdminPage />, { at: paths.admin });

/** A stand-in for the browser's XMLHttpRequest: the test drives upload progress and the answer. */
class FakeXhr {
  static instances: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  body: unknown;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;
  upload: { onprogress: ((e: Partial<ProgressEvent>) => void) | null; onload: (() => void) | null } = {
    onprogress: null,
    onload: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.instances.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total }));
  }
  uploaded() {
    act(() => this.upload.onload?.());
  }
  respond(status: number, body: unknown, statusText = '') {
    this.status = status;
    this.statusText = statusText;
    this.responseText = JSON.stringify(body);
    act(() => this.onload?.());
  }
}

const program = (overrides: Partial<Program> = {}): Program => ({
  id: 'prog-1',
  name: 'Acme Partners',
  description: 'Refer teams to Acme CRM',
  website: 'https://acme.example/partners',
  rewardDetails: '20% of first-year revenue',
  vendorId: null,
  vendorName: null,
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const analysis: ProgramAnalysis = {
  programName: 'Notion Partner Program',
  description: 'Earn rewards for every team you bring to Notion.',
  website: 'https://www.notion.so/partners',
  rewardDetails: 'Step 1: apply. Step 2: share your link. You earn 50% of the first year, paid after 60 days.',
  vendorName: 'Notion Labs',
  documentId: 'doc-1',
  analyzedBy: 'extractor',
};

export const summary = (overrides: Partial<VendorSummary> = {}): VendorSummary => ({
  id: 'v-acme',
  name: 'Acme',
  domain: 'acme.example',
  verified: true,
  verification: 'domain',
  revokedAt: null,
  members: 2,
  createdAt: '2026-01-05T00:00:00.000Z',
  ...overrides,
});

const vendorOf = (s: VendorSummary, overrides: Partial<Vendor> = {}): Vendor => ({
  id: s.id,
  name: s.name,
  domain: s.domain,
  leadInbox: `leads@${s.domain}`,
  verified: s.verified,
  verification: s.verification,
  verifiedAt: s.verified ? '2026-01-06T00:00:00.000Z' : null,
  revokedAt: s.revokedAt,
  domainRevoked: false,
  role: null,
  members: [],
  invitations: [],
  hasLeadCriteria: false,
  hasBounties: false,
  createdAt: s.createdAt,
  ...overrides,
});

function adminServer(extra?: Handler, user = makeUser({ isAdmin: true })) {
  let vendors = [
    summary(),
    summary({ id: 'v-tux', name: 'Tux Cloud', domain: 'tux.example', verified: false, verification: null, members: 1 }),
  ];
  let programs = [
    program(),
    program({ id: 'prog-2', name: 'Tux Cloud Referrals', website: 'https://tux.example', isActive: false }),
  ];
  const server = installServer({
    user,
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/programs/all') return json(200, programs);
      if (req.method === 'PATCH' && req.path.startsWith('/api/programs/')) {
        const id = req.path.split('/').pop();
        programs = programs.map((p) => (p.id === id ? { ...p, ...(req.body as Partial<Program>) } : p));
        return json(
          200,
          programs.find((p) => p.id === id),
        );
      }
      if (req.method === 'POST' && req.path === '/api/programs')
        return json(201, program({ id: 'prog-3', ...(req.body as Partial<Program>) }));
      if (req.method === 'GET' && req.path === '/api/admin/vendors') {
        const { status = 'all', search = '' } = queryOf(req);
        return json(
          200,
          vendors.filter(
            (v) =>
              (status === 'all' || v.verified === (status === 'verified')) &&
              v.name.toLowerCase().includes(search.toLowerCase()),
          ),
        );
      }
      if (req.method === 'POST' && req.path === '/api/admin/vendors') {
        const body = req.body as { name: string; website: string; approve?: boolean };
        const approved = body.approve ?? false;
        const created = summary({
          id: 'v-new',
          name: body.name,
          domain: body.website,
          verified: approved,
          verification: approved ? 'admin' : null,
          members: 0,
        });
        vendors = [...vendors, created];
        return json(201, vendorOf(created));
      }
      const approve = /^\/api\/vendors\/([^/]+)\/approve$/.exec(req.path);
      if (req.method === 'POST' && approve) {
        vendors = vendors.map((v) => (v.id === approve[1] ? { ...v, verified: true, verification: 'admin' } : v));
        return json(200, vendorOf(vendors.find((v) => v.id === approve[1])!));
      }
      const revoke = /^\/api\/vendors\/([^/]+)\/revoke$/.exec(req.path);
      if (req.method === 'POST' && revoke) {
        const at = '2026-04-01T09:00:00.000Z';
        vendors = vendors.map((v) =>
          v.id === revoke[1] ? { ...v, verified: false, verification: null, revokedAt: at } : v,
        );
        return json(200, vendorOf(vendors.find((v) => v.id === revoke[1])!));
      }
      return undefined;
    },
  });
  return server;
}

const uploadPanel = () => screen.getByRole('tabpanel', { name: /Upload & Analyze Document/ });
const latestXhr = () => FakeXhr.instances[FakeXhr.instances.length - 1]!;

async function chooseAndAnalyze(user: ReturnType<typeof userEvent.setup>) {
  const input = await screen.findByLabelText('Referral program document');
  const file = new File(['Notion Partner Program\nEarn 50%'], 'notion.txt', { type: 'text/plain' });
  await user.upload(input, file);
  await user.click(screen.getByRole('button', { name: /Analyze Document/ }));
  return file;
}

describe('Referral Program Management (spec 2, 4, 5, 8; issue 4)', () => {
  beforeEach(() => {
    FakeXhr.instances = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });

  it('shows the not-found screen to non-administrators', async () => {
    installServer({ user: makeUser() });
    renderApp('/admin');
    expect(await screen.findByText(/not found/i)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Referral Program Management' })).not.toBeInTheDocument();
  });

  it('uploads with a real progress bar, analyzes, fills the review form and saves the program', async () => {
    const server = adminServer();
    const user = userEvent.setup();
    renderAdmin();
    expect(await screen.findByRole('heading', { name: 'Referral Program Management' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Dashboard/ })).toHaveAttribute('href', '/');
    expect(screen.getByRole('tab', { name: /Upload & Analyze Document/ })).toHaveAttribute('aria-selected', 'true');
    const input = screen.getByLabelText('Referral program document');
    expect(input).toHaveAttribute('accept', '.pdf,.doc,.docx,.txt,.png,.jpg,.jpeg');
    expect(screen.getByText(/PDF, DOC, DOCX, TXT, PNG, JPG/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Analyze Document/ })).toBeDisabled();

    const file = await chooseAndAnalyze(user);
    const xhr = latestXhr();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/analyze-referral-program');
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.body).toBeInstanceOf(FormData);
    expect((xhr.body as FormData).get('file')).toBe(file);

    expect(screen.getByText('Uploading document...')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    xhr.progress(40, 100);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    xhr.progress(75, 100);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '75');
    xhr.uploaded();
    expect(screen.getByText('Analyzing document...')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

    xhr.respond(200, analysis);
    expect(await screen.findByText('Document analyzed successfully')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(await screen.findByText('Referral program document analyzed successfully')).toBeInTheDocument();
    const content = screen.getByRole('region', { name: 'Analyzed Content' });
    expect(content).toHaveClass('max-h-[200px]', 'overflow-y-auto');
    expect(content).toHaveTextContent('Program Name: Notion Partner Program');
    expect(content).toHaveTextContent('paid after 60 days');

    const panel = uploadPanel();
    expect(within(panel).getByLabelText('Program Name')).toHaveValue('Notion Partner Program');
    expect(within(panel).getByLabelText('Website')).toHaveValue('https://www.notion.so/partners');
    expect(within(panel).getByLabelText('Reward Details')).toHaveValue(analysis.rewardDetails);
    // The document names Notion Labs, which has no workspace: the administrator creates one for it.
    expect(within(panel).getByText('The document names Notion Labs, which has no workspace yet.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Create a workspace for Notion Labs' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/admin/vendors')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/admin/vendors')[0]!.body).toEqual({
      name: 'Notion Labs',
      website: 'notion.so',
    });
    await waitFor(() => expect(within(panel).getByLabelText('Vendor workspace')).toHaveValue('v-new'));
    expect(
      await within(panel).findByText('The document names Notion Labs: linked to the Notion Labs workspace.'),
    ).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: /Save Program/ }));
    await waitFor(() => expect(server.callsTo('POST', '/api/programs')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/programs')[0]!.body).toEqual({
      name: 'Notion Partner Program',
      description: analysis.description,
      website: 'https://www.notion.so/partners',
      rewardDetails: analysis.rewardDetails,
      vendorId: 'v-new',
      isActive: true,
    });
    expect(await screen.findByText('Referral program created successfully')).toBeInTheDocument();
    // The list is read again, and the upload starts over.
    await waitFor(() => expect(server.callsTo('GET', '/api/programs/all').length).toBeGreaterThanOrEqual(2));
    expect(screen.queryByText('Document analyzed successfully')).not.toBeInTheDocument();
  });

  it('the clear button resets file, state, progress and analysis', async () => {
    adminServer();
    const user = userEvent.setup();
    renderAdmin();
    await chooseAndAnalyze(user);
    latestXhr().progress(50, 100);
    await user.click(screen.getByRole('button', { name: /Clear/ }));
    expect(latestXhr().aborted).toBe(true);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.queryByText('Uploading document...')).not.toBeInTheDocument();
    expect((screen.getByLabelText('Referral program document') as HTMLInputElement).files).toHaveLength(0);
    expect(screen.getByRole('button', { name: /Analyze Document/ })).toBeDisabled();

    await chooseAndAnalyze(user);
    latestXhr().uploaded();
    latestXhr().respond(200, analysis);
    expect(await screen.findByRole('region', { name: 'Analyzed Content' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Clear/ }));
    expect(screen.queryByRole('region', { name: 'Analyzed Content' })).not.toBeInTheDocument();
    expect(screen.queryByText('Document analyzed successfully')).not.toBeInTheDocument();
  });

  it('shows the error text and the server message in a destructive toast', async () => {
    adminServer();
    const user = userEvent.setup();
    renderAdmin();
    await chooseAndAnalyze(user);
    latestXhr().respond(415, {
      message: 'Unsupported file type. Please upload a PDF, DOC, DOCX, TXT, PNG or JPG file.',
      code: 'UNSUPPORTED_FILE_TYPE',
    });
    expect(await screen.findByText('Error analyzing document')).toBeInTheDocument();
    const toastRegion = await screen.findByRole('region', { name: /Notifications/ });
    expect(await within(toastRegion).findByText('Error')).toBeInTheDocument();
    expect(await within(toastRegion).findByText(/Unsupported file type/)).toBeInTheDocument();

    // Without a message the fallback is used.
    await chooseAndAnalyze(user);
    latestXhr().respond(422, { code: 'DOCUMENT_UNREADABLE' });
    expect(await within(toastRegion).findByText('Failed to analyze document')).toBeInTheDocument();
  });

  it('validates the manual entry form with the server rules', async () => {
    const server = adminServer();
    const user = userEvent.setup();
    renderAdmin();
    await user.click(await screen.findByRole('tab', { name: /Manual Entry/ }));
    const panel = screen.getByRole('tabpanel', { name: /Manual Entry/ });
    expect(within(panel).getByLabelText('Website')).toHaveAttribute('type', 'url');
    expect(within(panel).getByLabelText('Reward Details')).toHaveClass('min-h-[200px]');
    await user.type(within(panel).getByLabelText('Website'), 'not a url');
    await user.click(within(panel).getByRole('button', { name: /Save Program/ }));
    expect(await within(panel).findByText('Program name is required')).toBeInTheDocument();
    expect(within(panel).getByText('Description is required')).toBeInTheDocument();
    expect(within(panel).getByText('Must be a valid URL')).toBeInTheDocument();
    expect(within(panel).getByText('Reward details are required')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/programs')).toHaveLength(0);
  });

  it('lists the programs and toggles one with its switch (PATCH, then the list again)', async () => {
    const server = adminServer();
    const user = userEvent.setup();
    renderAdmin();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Program Name', 'Website', 'Vendor', 'Status', 'Actions']);
    const link = within(table).getByRole('link', { name: 'https://acme.example/partners' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
    const tuxRow = within(table).getByRole('row', { name: /Tux Cloud Referrals/ });
    expect(within(tuxRow).getByText('Inactive')).toBeInTheDocument();
    await user.click(within(tuxRow).getByRole('switch', { name: 'Active: Tux Cloud Referrals' }));
    await waitFor(() => expect(server.callsTo('PATCH', '/api/programs/prog-2')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/api/programs/prog-2')[0]!.body).toEqual({ isActive: true });
    await waitFor(() => expect(within(tuxRow).getByText('Active')).toBeInTheDocument());
    expect(within(tuxRow).getByRole('switch')).toHaveAttribute('aria-checked', 'true');
    expect(server.callsTo('GET', '/api/programs/all')).toHaveLength(2);
  });

  it('links the vendor the document names when it has a workspace', async () => {
    const server = adminServer((req) =>
      req.method === 'GET' && req.path === '/api/admin/vendors'
        ? json(200, [summary({ id: 'v-notion', name: 'Notion Labs, Inc.', domain: 'notion.so' })])
        : undefined,
    );
    const user = userEvent.setup();
    renderAdmin();
    await chooseAndAnalyze(user);
    latestXhr().uploaded();
    latestXhr().respond(200, analysis);
    const panel = uploadPanel();
    expect(
      await within(panel).findByText('The document names Notion Labs: linked to the Notion Labs, Inc. workspace.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(panel).getByLabelText('Vendor workspace')).toHaveValue('v-notion'));
    await user.click(within(panel).getByRole('button', { name: /Save Program/ }));
    await waitFor(() => expect(server.callsTo('POST', '/api/programs')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/programs')[0]!.body).toMatchObject({ vendorId: 'v-notion' });
  });

  it('links an existing program to a vendor from the list', async () => {
    const server = adminServer();
    const user = userEvent.setup();
    renderAdmin();
    const table = await screen.findByRole('table');
    const picker = within(table).getByRole('combobox', { name: 'Vendor of Acme Partners' });
    await waitFor(() => expect(within(picker).getByRole('option', { name: 'Acme' })).toBeInTheDocument());
    await user.selectOptions(picker, 'v-acme');
    await waitFor(() => expect(server.callsTo('PATCH', '/api/programs/prog-1')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/api/programs/prog-1')[0]!.body).toEqual({ vendorId: 'v-acme' });
  });
});

describe('Admin: vendor workspaces (issue 9)', () => {
  const openVendors = async (user: ReturnType<typeof userEvent.setup>) => {
    renderAdmin();
    await user.click(await screen.findByRole('tab', { name: /Vendors/ }));
    return screen.findByRole('region', { name: 'Vendor workspaces' });
  };

  it('lists every workspace with its verification, and filters by status and search', async () => {
    const server = adminServer();
    const user = userEvent.setup();
    const region = await openVendors(user);
    const acme = within(region).getByRole('row', { name: /Acme/ });
    expect(acme).toHaveTextContent('acme.example');
    expect(acme).toHaveTextContent('Verified by domain');
    expect(within(acme).queryByRole('button', { name: /Approve/ })).not.toBeInTheDocument();
    expect(within(region).getByRole('row', { name: /Tux Cloud/ })).toHaveTextContent('Not verified');

    await user.selectOptions(screen.getByLabelText('Show'), 'unverified');
    await waitFor(() => expect(within(region).queryByRole('row', { name: /Acme/ })).not.toBeInTheDocument());
    expect(queryOf(server.callsTo('GET', '/api/admin/vendors').at(-1)!)).toEqual({ status: 'unverified' });
    await user.selectOptions(screen.getByLabelText('Show'), 'all');
    await user.type(screen.getByLabelText('Search'), 'tux');
    await waitFor(() =>
      expect(queryOf(server.callsTo('GET', '/api/admin/vendors').at(-1)!)).toEqual({ status: 'all', search: 'tux' }),
    );
  });

  it('approves a workspace with a note, which is required, after seeing who claims it', async () => {
    const server = adminServer((req) =>
      req.method === 'GET' && req.path === '/api/vendors/v-tux'
        ? json(
            200,
            vendorOf(summary({ id: 'v-tux', name: 'Tux Cloud', domain: 'tux.example', verified: false }), {
              members: [
                {
                  userId: 'u-vic',
                  email: 'vic@tux-partners.example',
                  name: 'Vic',
                  role: 'owner',
                  joinedAt: '2026-03-01T10:00:00.000Z',
                },
                {
                  userId: 'u-ann',
                  email: 'ann@eu.tux.example',
                  name: 'Ann',
                  role: 'member',
                  joinedAt: '2026-03-02T10:00:00.000Z',
                },
              ],
            }),
          )
        : undefined,
    );
    const user = userEvent.setup();
    const region = await openVendors(user);
    await user.click(within(region).getByRole('button', { name: 'Approve Tux Cloud' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Tux Cloud?' });
    // Who claims it, and whether their addresses are at its domain (an address elsewhere proves nothing).
    const members = await within(dialog).findByRole('list', { name: 'Members' });
    const [vic, ann] = within(members).getAllByRole('listitem');
    expect(vic).toHaveTextContent('vic@tux-partners.example (owner), joined Mar 1, 2026');
    expect(vic).toHaveTextContent('Not at tux.example');
    expect(ann).toHaveTextContent('ann@eu.tux.example (member)');
    expect(ann).toHaveTextContent('At tux.example');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('Please say why you approve this vendor')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/vendors/v-tux/approve')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Why do you approve it?'), 'Called their CEO');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/vendors/v-tux/approve')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/vendors/v-tux/approve')[0]!.body).toEqual({ note: 'Called their CEO' });
    expect(await screen.findByText('Vendor approved')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(region).getByRole('row', { name: /Tux Cloud/ })).toHaveTextContent('Verified by an administrator'),
    );
  });

  it("revokes a workspace's verification with a note, which is required", async () => {
    const server = adminServer();
    const user = userEvent.setup();
    const region = await openVendors(user);
    await user.click(within(region).getByRole('button', { name: 'Revoke the verification of Acme' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the verification of Acme?' });
    expect(dialog).toHaveTextContent(
      "no workspace of acme.example is verified by its domain, this one or a new one: only an administrator's approval verifies one",
    );
    await user.click(within(dialog).getByRole('button', { name: 'Revoke verification' }));
    expect(await within(dialog).findByText('Please say why you revoke its verification')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/vendors/v-acme/revoke')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Why do you revoke it?'), 'The domain changed hands');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke verification' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/vendors/v-acme/revoke')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/vendors/v-acme/revoke')[0]!.body).toEqual({ note: 'The domain changed hands' });
    expect(await screen.findByText('Acme is no longer verified.')).toBeInTheDocument();
    // The row says so, and offers to approve it again.
    const row = await within(region).findByRole('row', { name: /Acme.*Verification revoked/ });
    expect(within(row).getByRole('button', { name: 'Approve Acme' })).toBeInTheDocument();
  });

  it('creates a workspace for a vendor; a verified domain is refused next to the website', async () => {
    let refuse = true;
    const server = adminServer((req) => {
      if (req.method === 'POST' && req.path === '/api/admin/vendors' && refuse) {
        refuse = false;
        return problem('DOMAIN_TAKEN');
      }
      return undefined;
    });
    const user = userEvent.setup();
    await openVendors(user);
    await user.click(screen.getByRole('button', { name: 'Create a workspace' }));
    const form = screen.getByRole('form', { name: 'Create a workspace for a vendor' });
    await user.type(within(form).getByLabelText('Company name'), 'Globex');
    await user.type(within(form).getByLabelText('Website'), 'https://www.globex.example/about');
    await user.click(within(form).getByLabelText('Approve it now'));
    await user.click(within(form).getByRole('button', { name: 'Create workspace' }));
    // Approving at once needs a note for the audit log.
    expect(await within(form).findByText('Please say why you approve this vendor')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Why do you approve it?'), 'Signed partner');
    await user.click(within(form).getByRole('button', { name: 'Create workspace' }));
    expect(
      await within(form).findByText('A verified vendor workspace already exists for this website'),
    ).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Create workspace' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/admin/vendors')).toHaveLength(2));
    expect(server.callsTo('POST', '/api/admin/vendors')[1]!.body).toEqual({
      name: 'Globex',
      website: 'globex.example',
      approve: true,
      note: 'Signed partner',
    });
    expect(await screen.findByText('Workspace created')).toBeInTheDocument();
  });
});
