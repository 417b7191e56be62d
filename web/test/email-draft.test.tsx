import { normalizeRecipients, type Referral } from '@app/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SendEmailRequest } from '@app/contracts';
import { schemaErrors } from '@/components/ui/form';
import { paths, routePatterns } from '@/config/paths';
import { EmailDraftPage } from '@/features/referrals/components/email-draft-page';
import { makeReferral } from './fixtures';
import { currentPath, installServer, json, makeUser, problem, renderApp, renderRoute, type Handler } from './utils';

const renderDraft = (id: string | number = 7) =>
  renderRoute(<EmailDraftPage />, { path: routePatterns.referralDraft, at: paths.referralDraft(id), user: makeUser() });

const draftAnswer = (
  recipients: Record<string, unknown> = { to: ['grace@navy.example'], cc: [], bcc: [] },
  alwaysCc: string[] = [],
) => ({
  emailDraft: { subject: 'Intro: Grace, meet Acme', body: 'Hi Grace,\n\nMeet Acme.', recipients },
  fromClay: false,
  from: 'Ada Lovelace via Referral Hub',
  replyTo: 'ada@example.com',
  alwaysCc,
  sendTo: {
    to: normalizeRecipients(recipients.to),
    cc: [...normalizeRecipients(recipients.cc), ...alwaysCc],
    bcc: normalizeRecipients(recipients.bcc),
  },
});

function draftServer({
  referral = makeReferral(),
  draft,
  send,
}: { referral?: Referral | Response; draft?: () => Response; send?: Handler } = {}) {
  return installServer({
    user: makeUser(),
    handler: (req) => {
      if (req.method === 'GET' && req.path === '/api/referrals/7')
        return referral instanceof Response ? referral : json(200, referral);
      if (req.method === 'GET' && req.path === '/api/referrals/7/email-draft')
        return draft ? draft() : json(200, draftAnswer());
      if (req.method === 'POST' && req.path === '/api/referrals/7/send-email') {
        return send ? send(req) : json(200, { success: true, message: 'Email sent successfully!' });
      }
      return undefined;
    },
  });
}

describe('email draft screen states (spec 2, 4, 6, 8)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('redirects to /login without a user', async () => {
    installServer();
    renderApp(paths.referralDraft(7));
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login?next=%2Freferral%2F7%2Femail-draft');
  });

  it("says 'Invalid Referral' for a non-numeric id", async () => {
    const server = installServer({ user: makeUser() });
    renderDraft('7x');
    expect(await screen.findByRole('heading', { name: 'Invalid Referral' })).toBeInTheDocument();
    expect(server.requests.filter((r) => r.path.startsWith('/api/referrals'))).toHaveLength(0);
  });

  it("shows 'Loading your email draft' while it loads", async () => {
    installServer({
      user: makeUser(),
      handler: (req) => (req.path.startsWith('/api/referrals/7') ? new Promise<Response>(() => {}) : undefined),
    });
    renderDraft();
    expect(await screen.findByText('Loading your email draft', { selector: 'span' })).toBeInTheDocument();
  });

  it("says 'Referral Not Found' for an unknown referral", async () => {
    draftServer({
      referral: problem('REFERRAL_NOT_FOUND'),
      draft: () => problem('REFERRAL_NOT_FOUND'),
    });
    renderDraft();
    expect(await screen.findByRole('heading', { name: 'Referral Not Found' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Email Draft Not Ready' })).not.toBeInTheDocument();
  });

  it("says 'Email Draft Not Ready', polls every 5 s and opens the editor once it is", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const reads: number[] = [];
    draftServer({
      draft: () => {
        reads.push(Date.now());
        return reads.length < 3 ? problem('DRAFT_NOT_READY') : json(200, draftAnswer());
      },
    });
    renderDraft();
    expect(await screen.findByRole('heading', { name: 'Email Draft Not Ready' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    expect(reads).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(reads[0]! + 4_800 - Date.now()));
    expect(reads).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(reads[0]! + 5_200 - Date.now()));
    expect(reads).toHaveLength(2);
    expect(reads[1]! - reads[0]!).toBeGreaterThanOrEqual(4_950);

    await act(() => vi.advanceTimersByTimeAsync(5_100));
    expect(reads).toHaveLength(3);
    expect(await screen.findByRole('heading', { name: 'Review Your Intro Email' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(11_000));
    expect(reads).toHaveLength(3);
  });

  it('Refresh reads the draft again at once', async () => {
    let reads = 0;
    draftServer({
      draft: () => {
        reads += 1;
        return problem('DRAFT_NOT_READY');
      },
    });
    const user = userEvent.setup();
    renderDraft();
    await user.click(await screen.findByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(reads).toBe(2));
  });

  it("shows 'Failed to load email draft' with the server's text, Go Back, and an 'Error' toast", async () => {
    draftServer({ draft: () => problem('REFERRAL_FORBIDDEN') });
    renderDraft();
    expect(await screen.findByRole('heading', { name: 'Failed to load email draft' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getAllByText('Not authorized to access this referral').length).toBeGreaterThanOrEqual(2);
  });

  it("falls back to 'Failed to get email draft' when the failure has no text", async () => {
    draftServer({ draft: () => new Response('', { status: 502, statusText: '' }) });
    renderDraft();
    expect(await screen.findByRole('heading', { name: 'Failed to load email draft' })).toBeInTheDocument();
    expect(screen.getAllByText('Failed to get email draft').length).toBeGreaterThanOrEqual(1);
  });

  it('refuses draft data of an unexpected shape', async () => {
    draftServer({ draft: () => json(200, { emailDraft: { subject: 'Hi' }, fromClay: false }) });
    renderDraft();
    expect(await screen.findByRole('heading', { name: 'Failed to load email draft' })).toBeInTheDocument();
    expect(screen.getAllByText('Email draft data is missing or in an unexpected format').length).toBeGreaterThanOrEqual(
      1,
    );
  });
});

describe('email draft editor', () => {
  it('shows the referred person and the company, with recipients normalized to comma-separated text', async () => {
    draftServer({
      referral: makeReferral({ project: { ...makeReferral().project, companyName: '' }, company: 'Fallback Co' }),
      draft: () =>
        json(
          200,
          draftAnswer({
            to: '["grace@navy.example", " ", "ops@navy.example "]',
            cc: ' boss@navy.example ,, ',
            bcc: [],
          }),
        ),
    });
    renderDraft();
    expect(await screen.findByRole('heading', { name: 'Review Your Intro Email' })).toBeInTheDocument();
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('Fallback Co')).toBeInTheDocument();
    expect(screen.getByLabelText('To')).toHaveValue('grace@navy.example, ops@navy.example');
    expect(screen.getByLabelText('Cc')).toHaveValue('boss@navy.example');
    expect(screen.getByLabelText('Bcc')).toHaveValue('');
    expect(screen.getByLabelText('Subject')).toHaveValue('Intro: Grace, meet Acme');
    expect(screen.getByLabelText('Body')).toHaveValue('Hi Grace,\n\nMeet Acme.');
  });

  it("prefers the project's company name", async () => {
    draftServer();
    renderDraft();
    await screen.findByRole('heading', { name: 'Review Your Intro Email' });
    const intro = screen.getByText('Company').closest('div')!;
    expect(intro).toHaveTextContent('Acme Inc');
  });

  it('previews the edited email in the Preview tab', async () => {
    draftServer();
    const user = userEvent.setup();
    renderDraft();
    const subject = await screen.findByLabelText('Subject');
    await user.clear(subject);
    await user.type(subject, 'New subject');
    await user.type(screen.getByLabelText('Bcc'), ' me@example.com , ,');
    await user.click(screen.getByRole('tab', { name: 'Preview' }));
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('New subject')).toBeInTheDocument();
    expect(within(panel).getByText('me@example.com')).toBeInTheDocument();
    expect(within(panel).getByTestId('preview-body')).toHaveTextContent('Hi Grace, Meet Acme.');
    expect(screen.queryByLabelText('Subject')).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Edit' }));
    expect(screen.getByLabelText('Subject')).toHaveValue('New subject');
  });

  it('previews From, Reply-To, To and Cc as sent: the referrer via Referral Hub, the vendor inbox copied (issue 9)', async () => {
    draftServer({
      referral: makeReferral({
        lead: { vendorId: 'v-acme', vendorName: 'Acme', status: 'new', declineReason: null, decidedAt: null },
      }),
      draft: () =>
        json(
          200,
          draftAnswer({ to: ['grace@navy.example'], cc: ['ada@example.com'], bcc: [] }, ['leads@acme.example']),
        ),
    });
    const user = userEvent.setup();
    renderRoute(<EmailDraftPage user={makeUser()} />, {
      path: routePatterns.referralDraft,
      at: paths.referralDraft(7),
      user: makeUser(),
    });
    expect(
      await screen.findByText(/Sent as Ada Lovelace via Referral Hub, replies to ada@example\.com\./),
    ).toHaveTextContent("Acme's lead inbox (leads@acme.example) is copied too.");
    await user.click(screen.getByRole('tab', { name: 'Preview' }));
    const panel = screen.getByRole('tabpanel');
    const line = (label: string) => within(panel).getByText(`${label}:`).nextSibling;
    expect(line('From')).toHaveTextContent('Ada Lovelace via Referral Hub');
    expect(line('Reply-To')).toHaveTextContent('ada@example.com');
    expect(line('To')).toHaveTextContent('grace@navy.example');
    expect(line('Cc')).toHaveTextContent('ada@example.com, leads@acme.example');
  });

  it("requires a 'to' recipient and sends nothing without one", async () => {
    const server = draftServer();
    const user = userEvent.setup();
    renderDraft();
    const to = await screen.findByLabelText('To');
    await user.clear(to);
    await user.type(to, ' , ');
    await user.click(screen.getByRole('button', { name: 'Send Email' }));
    expect(await screen.findByText('At least one recipient is required')).toBeInTheDocument();
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(server.callsTo('POST', '/api/referrals/7/send-email')).toHaveLength(0);
    // Revalidated on change.
    await user.type(to, 'grace@navy.example');
    await waitFor(() => expect(screen.queryByText('At least one recipient is required')).not.toBeInTheDocument());
  });

  it("sends the edited email with normalized recipients, toasts, then shows 'Email Sent!'", async () => {
    const server = draftServer();
    const user = userEvent.setup();
    renderDraft();
    const to = await screen.findByLabelText('To');
    await user.type(to, ',  , ops@navy.example  ');
    await user.type(screen.getByLabelText('Bcc'), 'me@example.com,');
    await user.click(screen.getByRole('button', { name: 'Send Email' }));

    expect(await screen.findByRole('heading', { name: 'Email Sent!' })).toBeInTheDocument();
    // The form the user acted on is gone: the result takes the focus (a screen reader reads it).
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Email Sent!' })).toHaveFocus());
    expect(await screen.findByText('Email sent successfully!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(server.callsTo('POST', '/api/referrals/7/send-email')[0]?.body).toEqual({
      subject: 'Intro: Grace, meet Acme',
      body: 'Hi Grace,\n\nMeet Acme.',
      recipients: { to: ['grace@navy.example', 'ops@navy.example'], cc: [], bcc: ['me@example.com'] },
    });
  });

  it("toasts a failed send with the server's text and keeps the editor", async () => {
    draftServer({ send: () => problem('EMAIL_ALREADY_SENT') });
    const user = userEvent.setup();
    renderDraft();
    await user.click(await screen.findByRole('button', { name: 'Send Email' }));
    expect(await screen.findByText('This intro email has already been sent')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Review Your Intro Email' })).toBeInTheDocument();
  });

  it('refused for an unverified email (issue 11): says so and offers a new verification link', async () => {
    const server = installServer({
      user: makeUser({ emailVerified: false }),
      handler: (req) => {
        if (req.method === 'GET' && req.path === '/api/referrals/7') return json(200, makeReferral());
        if (req.method === 'GET' && req.path === '/api/referrals/7/email-draft') return json(200, draftAnswer());
        if (req.method === 'POST' && req.path === '/api/referrals/7/send-email') return problem('EMAIL_NOT_VERIFIED');
        if (req.method === 'POST' && req.path === '/api/resend-verification')
          return json(200, { message: 'sent', emailVerificationSent: true });
      },
    });
    const user = userEvent.setup();
    renderRoute(<EmailDraftPage />, {
      path: routePatterns.referralDraft,
      at: paths.referralDraft(7),
      user: makeUser({ emailVerified: false }),
    });
    await user.click(await screen.findByRole('button', { name: 'Send Email' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Email Verification Required – Please verify your email address before proceeding.',
    );
    // The toast comes with the lazily loaded toaster, which can land after the inline notice.
    expect(await screen.findByText('Please verify your email address before proceeding.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Review Your Intro Email' })).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Resend Verification Email' }));
    expect(await within(alert).findByText('Verification email sent! Check your inbox.')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/resend-verification')[0]?.body).toEqual({ email: 'ada@example.com' });
  });

  it('shows the notice before sending when the user is known to be unverified', async () => {
    draftServer();
    renderRoute(<EmailDraftPage user={makeUser({ emailVerified: false })} />, {
      path: routePatterns.referralDraft,
      at: paths.referralDraft(7),
      user: makeUser({ emailVerified: false }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Email Verification Required');
  });

  it('refuses more than 5 addresses in a field before sending (issue 11)', async () => {
    const server = draftServer();
    const user = userEvent.setup();
    renderDraft();
    const cc = await screen.findByLabelText('Cc');
    await user.type(cc, 'a@x.co, b@x.co, c@x.co, d@x.co, e@x.co, f@x.co');
    await user.click(screen.getByRole('button', { name: 'Send Email' }));
    expect(await screen.findByText('At most 5 addresses per field')).toBeInTheDocument();
    expect(cc).toHaveAttribute('aria-invalid', 'true');
    expect(server.callsTo('POST', '/api/referrals/7/send-email')).toHaveLength(0);
  });

  it("toasts the quota's message when the server refuses with 429", async () => {
    const message = 'You can send intro emails to at most 50 recipients per hour. Please try again later.';
    draftServer({ send: () => problem('SEND_QUOTA_EXCEEDED', message) });
    const user = userEvent.setup();
    renderDraft();
    await user.click(await screen.findByRole('button', { name: 'Send Email' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Review Your Intro Email' })).toBeInTheDocument();
  });

  it("falls back to 'Failed to send email'", async () => {
    draftServer({ send: () => new Response('', { status: 503, statusText: '' }) });
    const user = userEvent.setup();
    renderDraft();
    await user.click(await screen.findByRole('button', { name: 'Send Email' }));
    expect(await screen.findByText('Failed to send email')).toBeInTheDocument();
  });

  it('Cancel returns to the dashboard', async () => {
    draftServer();
    const user = userEvent.setup();
    renderDraft();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
  });

  it("shows 'Email Sent!' for a referral whose intro was already sent", async () => {
    draftServer({ referral: makeReferral({ emailSentAt: '2026-03-03T09:00:00.000Z' }) });
    renderDraft();
    expect(await screen.findByRole('heading', { name: 'Email Sent!' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Email' })).not.toBeInTheDocument();
  });

  it('validates recipients with the server schema', () => {
    const draft = (fields: { subject?: string; to: string; cc?: string }) => ({
      subject: fields.subject ?? 'S',
      body: 'B',
      recipients: { to: fields.to, cc: fields.cc ?? '', bcc: '' },
    });
    expect(schemaErrors(SendEmailRequest, draft({ to: ' ,, ' }))).toEqual({
      'recipients.to': 'At least one recipient is required',
    });
    expect(schemaErrors(SendEmailRequest, draft({ to: 'not-an-email' }))['recipients.to']).toBe(
      'Invalid recipient email address',
    );
    expect(schemaErrors(SendEmailRequest, draft({ to: 'a@b.co', cc: 'x' }))).toEqual({
      'recipients.cc': 'Invalid recipient email address',
    });
    expect(schemaErrors(SendEmailRequest, draft({ subject: ' ', to: 'a@b.co' }))).toEqual({
      subject: 'Subject is required',
    });
    expect(
      schemaErrors(SendEmailRequest, {
        subject: 'S',
        body: 'B',
        recipients: {
          to: 'a@b.co, b@b.co, c@b.co, d@b.co, e@b.co',
          cc: 'f@b.co, g@b.co, h@b.co',
          bcc: 'i@b.co, j@b.co, k@b.co',
        },
      }),
    ).toEqual({ 'recipients.bcc': 'At most 10 recipients per intro email (To, Cc and Bcc together)' });
    expect(SendEmailRequest.parse(draft({ to: ' a@b.co , c@d.co ' })).recipients).toEqual({
      to: ['a@b.co', 'c@d.co'],
      cc: [],
      bcc: [],
    });
  });
});
