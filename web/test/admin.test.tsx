import type { Program, ProgramAnalysis } from '@app/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { AdminPage } from '@/features/admin/components/admin-page';
import { installServer, json, makeUser, renderApp, renderRoute, type Handler } from './utils';

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
  companyName: 'Acme Inc',
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
  documentId: 'doc-1',
  analyzedBy: 'extractor',
};

function adminServer(extra?: Handler, user = makeUser({ isAdmin: true })) {
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
    await user.type(within(panel).getByLabelText('Vendor Company (optional)'), 'Notion Labs');
    await user.click(within(panel).getByRole('button', { name: /Save Program/ }));
    await waitFor(() => expect(server.callsTo('POST', '/api/programs')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/programs')[0]!.body).toEqual({
      name: 'Notion Partner Program',
      description: analysis.description,
      website: 'https://www.notion.so/partners',
      rewardDetails: analysis.rewardDetails,
      companyName: 'Notion Labs',
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
    expect(within(toastRegion).getByText('Error')).toBeInTheDocument();
    expect(within(toastRegion).getByText(/Unsupported file type/)).toBeInTheDocument();

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
    ).toEqual(['Program Name', 'Website', 'Status', 'Actions']);
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
});
