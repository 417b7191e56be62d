import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PREVIEW_SUCCESS } from '@/features/referrals/components/automation-modal';
import type { InitialEntry } from 'react-router-dom';
import { paths, routePatterns } from '@/config/paths';
import { EmailDraftPage } from '@/features/referrals/components/email-draft-page';
import { ReferralPage } from '@/features/referrals/components/referral-page';
import { makeReferral } from './fixtures';
import { currentPath, installServer, json, makeUser, problem, renderRoute, type RecordedRequest } from './utils';

/** The submitted screen, and the draft it opens. */
const renderSubmitted = (at: InitialEntry = paths.referral(7)) =>
  renderRoute(<ReferralPage />, {
    path: routePatterns.referral,
    at,
    routes: { [routePatterns.referralDraft]: <EmailDraftPage /> },
  });

const draft = {
  emailDraft: {
    subject: 'Intro: Grace meets Acme',
    body: 'Hello both',
    recipients: { to: ['grace@navy.example'], cc: [], bcc: [] },
  },
  fromClay: false,
  from: 'Ada Lovelace via Referral Hub',
  replyTo: 'ada@example.com',
  alwaysCc: [],
  sendTo: { to: ['grace@navy.example'], cc: [], bcc: [] },
};

const isCheck = (req: RecordedRequest) =>
  req.path === '/api/referrals/7/email-draft' && req.url.includes('checkOnly=true');

/** Moves the fake clock to `target` (ms since the epoch), letting promises settle on the way. */
const advanceTo = async (target: number) => {
  const ms = target - Date.now();
  if (ms > 0) await act(() => vi.advanceTimersByTimeAsync(ms));
};

describe('referral submitted screen (spec 2, 7, 9)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    [
      'sent',
      { emailSentAt: '2026-03-05T10:00:00.000Z' },
      /Your intro email was sent on Mar(ch)? 5, 2026\./,
      'View Intro Email',
    ],
    ['in Declined', { status: 'declined' as const }, /its intro email will not be sent/, null],
  ])('says when the intro was %s, instead of offering a draft to review', async (_, fields, text, link) => {
    installServer({
      user: makeUser(),
      handler: (req) => {
        if (isCheck(req)) return json(200, { ready: true, fromClay: false });
        if (req.path === '/api/referrals/7/email-draft') return json(200, draft);
        if (req.path === '/api/referrals/7') return json(200, makeReferral(fields));
      },
    });
    renderSubmitted();
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.queryByText('Your intro email draft is ready.')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Review Intro Email' })).not.toBeInTheDocument();
    if (link) expect(screen.getByRole('link', { name: link })).toHaveAttribute('href', '/referral/7/email-draft');
  });

  it('polls the draft every 3 s and, once ready, waits for the user to open it (issue 12)', async () => {
    const checks: number[] = [];
    installServer({
      user: makeUser(),
      handler: (req) => {
        if (isCheck(req)) {
          checks.push(Date.now());
          return json(200, { ready: checks.length >= 3, fromClay: false });
        }
        if (req.path === '/api/referrals/7/email-draft') return json(200, draft);
        if (req.path === '/api/referrals/7') return json(200, makeReferral());
      },
    });
    renderSubmitted();
    expect(await screen.findByRole('heading', { name: 'Referral Successfully Submitted!' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'What happens next' })).toBeInTheDocument();
    // Acme is not on the platform (no lead): nothing is said to have been sent to it.
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringContaining('The intro goes to your client'),
      expect.stringContaining('A draft intro is prepared'),
      expect.stringContaining('A quick review'),
      expect.stringContaining('Track and earn'),
    ]);
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('link', { name: 'Review Intro Email' })).not.toBeInTheDocument();
    expect(checks).toHaveLength(1);

    await advanceTo(checks[0]! + 2_900);
    expect(checks).toHaveLength(1);
    await advanceTo(checks[0]! + 3_100);
    expect(checks).toHaveLength(2);
    expect(checks[1]! - checks[0]!).toBeGreaterThanOrEqual(2_950);
    expect(checks[1]! - checks[0]!).toBeLessThanOrEqual(3_050);

    await advanceTo(checks[1]! + 3_100);
    expect(checks).toHaveLength(3);
    expect(screen.getByText('Your intro email draft is ready.')).toBeInTheDocument();
    // The screen stays until the user moves on.
    await advanceTo(checks[2]! + 10_000);
    expect(currentPath()).toBe('/referral/7');
    // Polling stopped with the draft ready.
    expect(checks).toHaveLength(3);
    const review = screen.getByRole('link', { name: 'Review Intro Email' });
    expect(review).toHaveAttribute('href', '/referral/7/email-draft');
    await act(async () => review.click());
    expect(currentPath()).toBe('/referral/7/email-draft');
    expect(await screen.findByRole('heading', { name: 'Review Your Intro Email' })).toBeInTheDocument();
  });

  it('keeps the completed dry-run preview open until Close, which returns to the submitted screen', async () => {
    installServer({
      user: makeUser(),
      handler: (req) => {
        if (isCheck(req)) return json(200, { ready: true, fromClay: false });
        if (req.path === '/api/referrals/7/email-draft') return json(200, draft);
        if (req.path === '/api/referrals/7') return json(200, makeReferral());
        // Asked with the referral: the program of the vendor it was routed to counts whatever its name.
        if (req.path === '/api/products/p-acme/referral-program' && req.url.endsWith('?referralId=7'))
          return json(200, { referralProgram: 'Acme pays 20%' });
        if (req.path === '/api/referrals/7/automate') return json(200, { success: true, message: 'ok' });
      },
    });
    renderSubmitted({ pathname: paths.referral(7), state: { justSubmitted: true } });
    expect(await screen.findByRole('dialog', { name: 'Automating Referral Form' })).toBeInTheDocument();
    for (let i = 0; i < 100 && !screen.queryByText(PREVIEW_SUCCESS); i += 1) {
      await act(() => vi.advanceTimersByTimeAsync(100));
    }
    expect(screen.getByText(PREVIEW_SUCCESS)).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(currentPath()).toBe('/referral/7');
    expect(screen.getByRole('dialog', { name: 'Automating Referral Form' })).toBeInTheDocument();

    await act(async () => screen.getByRole('button', { name: 'Close' }).click());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(currentPath()).toBe('/referral/7');
    expect(screen.getByRole('link', { name: 'Review Intro Email' })).toBeInTheDocument();
  });

  it.each([
    [
      'a vendor on the platform',
      { vendorId: 'v-acme', vendorName: 'Acme Inc', status: 'new' as const, declineReason: null, decidedAt: null },
      'We let Acme Inc know a warm referral is on its way.',
      "We'll let them know",
    ],
    [
      'no vendor',
      null,
      'is not on Referral Hub yet, so nothing is sent to them: your intro email goes to your client only.',
      null,
    ],
  ])('says the vendor was alerted only when the referral reached %s', async (_, lead, step, thanks) => {
    installServer({
      user: makeUser(),
      handler: (req) => {
        if (isCheck(req)) return json(200, { ready: false, fromClay: false });
        if (req.path === '/api/referrals/7') return json(200, makeReferral({ lead }));
        if (req.path === '/api/products/p-acme/referral-program') return json(200, { referralProgram: 'NO' });
      },
    });
    renderSubmitted({ pathname: paths.referral(7), state: { justSubmitted: true } });
    const dialog = await screen.findByRole('dialog', { name: 'Thanks for Your Referral!' });
    expect(dialog).toHaveTextContent('first in line for rewards when their program launches');
    if (thanks) expect(dialog).toHaveTextContent(thanks);
    else expect(dialog).not.toHaveTextContent('let them know');
    // Behind the modal (hidden from assistive technology while it is open).
    expect(screen.getAllByRole('listitem', { hidden: true })[0]).toHaveTextContent(step);
    if (!lead) expect(screen.queryByText(/The vendor is alerted/)).not.toBeInTheDocument();
  });

  it("keeps the 'Thanks' modal until Close", async () => {
    installServer({
      user: makeUser(),
      handler: (req) => {
        if (isCheck(req)) return json(200, { ready: true, fromClay: false });
        if (req.path === '/api/referrals/7/email-draft') return json(200, draft);
        if (req.path === '/api/referrals/7') return json(200, makeReferral());
        if (req.path === '/api/products/p-acme/referral-program') return json(200, { referralProgram: 'NO' });
      },
    });
    renderSubmitted({ pathname: paths.referral(7), state: { justSubmitted: true } });
    expect(await screen.findByRole('dialog', { name: 'Thanks for Your Referral!' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(currentPath()).toBe('/referral/7');
    expect(screen.getByRole('dialog', { name: 'Thanks for Your Referral!' })).toBeInTheDocument();
    await act(async () => screen.getByRole('button', { name: 'Close' }).click());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(currentPath()).toBe('/referral/7');
    // The modal opened by itself (its opener was the form, gone): the focus goes to the page's heading.
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Referral Successfully Submitted!' })).toHaveFocus(),
    );
  });
});

describe("a program check that couldn't be made (issue 11)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("says so, never 'no program', and Try again asks once more", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let checks = 0;
    const server = installServer({
      user: makeUser(),
      handler: (req) => {
        if (isCheck(req)) return json(200, { ready: false, fromClay: false });
        if (req.path === '/api/referrals/7') return json(200, makeReferral());
        if (req.path === '/api/products/p-acme/referral-program')
          return ++checks === 1
            ? problem('PROGRAM_CHECK_UNAVAILABLE')
            : json(200, { referralProgram: 'Acme pays 20%' });
        if (req.path === '/api/referrals/7/automate') return json(200, { success: true, message: 'ok' });
      },
    });
    renderSubmitted({ pathname: paths.referral(7), state: { justSubmitted: true } });
    const dialog = await screen.findByRole('dialog', { name: "Couldn't Check the Referral Program" });
    expect(dialog).toHaveTextContent("We couldn't check this vendor's referral program right now. Please try again.");
    expect(await screen.findByText('Referral submitted successfully')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Thanks for Your Referral!' })).not.toBeInTheDocument();
    expect(server.callsTo('POST', '/api/referrals/7/automate')).toHaveLength(0);

    await act(async () => screen.getByRole('button', { name: 'Try again' }).click());
    expect(await screen.findByRole('dialog', { name: 'Automating Referral Form' })).toBeInTheDocument();
    expect(checks).toBe(2);
  });

  it('treats a gateway timeout the same, and Close returns to the submitted screen', async () => {
    installServer({
      user: makeUser(),
      handler: (req) => {
        if (isCheck(req)) return json(200, { ready: false, fromClay: false });
        if (req.path === '/api/referrals/7') return json(200, makeReferral());
        if (req.path === '/api/products/p-acme/referral-program') return problem('UPSTREAM_TIMEOUT');
      },
    });
    renderSubmitted({ pathname: paths.referral(7), state: { justSubmitted: true } });
    await screen.findByRole('dialog', { name: "Couldn't Check the Referral Program" });
    await act(async () => screen.getByRole('button', { name: 'Close' }).click());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(currentPath()).toBe('/referral/7');
  });
});

describe('referral screen failures', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows 'Something went wrong' with the server's message and Go Back", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = installServer({
      user: makeUser(),
      handler: (req) => {
        if (req.path === '/api/referrals/9') return problem('REFERRAL_FORBIDDEN');
        if (req.path === '/api/referrals/9/email-draft') return problem('REFERRAL_FORBIDDEN');
      },
    });
    renderSubmitted(paths.referral(9));
    // The referral is read again once (spec 7), after the query client's 1 s back-off: no need to wait it out.
    await waitFor(() => expect(server.callsTo('GET', '/api/referrals/9')).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('Not authorized to access this referral')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/referrals/9')).toHaveLength(2);
  });

  it('says a non-numeric id is invalid, and reads nothing', async () => {
    const server = installServer({ user: makeUser() });
    renderSubmitted('/referral/abc');
    expect(await screen.findByRole('heading', { name: 'Invalid Referral' })).toBeInTheDocument();
    expect(server.requests.filter((r) => r.path.startsWith('/api/referrals'))).toHaveLength(0);
  });
});

describe('the dry-run preview of a vendor whose website is known (issue 12)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows the vendor's own form variant from the dry run's website when the product had none", async () => {
    installServer({
      user: makeUser(),
      handler: (req) => {
        if (isCheck(req)) return json(200, { ready: false, fromClay: false });
        if (req.path === '/api/referrals/7') {
          const referral = makeReferral();
          return json(200, { ...referral, project: { ...referral.project, website: null } });
        }
        if (req.path === '/api/products/p-acme/referral-program')
          return json(200, { referralProgram: 'HubSpot pays 20%' });
        if (req.path === '/api/referrals/7/automate')
          return json(200, { success: true, message: 'ok', website: 'https://www.hubspot.com' });
      },
    });
    renderSubmitted({ pathname: paths.referral(7), state: { justSubmitted: true } });
    const dialog = await screen.findByRole('dialog', { name: 'Automating Referral Form' });
    expect(dialog).toHaveTextContent("A preview of how HubSpot's referral form gets filled in for you.");
    // Without it, the generic form of the company ('Acme Inc') would play.
    expect(dialog).not.toHaveTextContent("Acme Inc's referral form");
  });
});
