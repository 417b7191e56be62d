import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { OnboardingPage } from '@/features/onboarding/components/onboarding-page';
import { ResendVerificationPage } from '@/features/verification/components/resend-verification-page';
import { VerifyEmailPage } from '@/features/verification/components/verify-email-page';
import { currentPath, installServer, json, makeUser, problem, renderApp, renderRoute } from './utils';

/** The verification screen at a link, and the profile form it sends a verified user to. */
const renderVerify = (at: string) =>
  renderRoute(<VerifyEmailPage />, {
    path: at.split('?')[0],
    at,
    routes: { [paths.onboarding]: <OnboardingPage /> },
  });
const renderResend = () => renderRoute(<ResendVerificationPage />, { at: paths.resendVerification });

const verifyHandler = (answer: () => Response | Promise<Response>) => (req: { path: string }) =>
  req.path === '/api/verify-email'
    ? answer()
    : req.path === '/api/lead-criteria' // the profile form opened after the redirect
      ? problem('LEAD_CRITERIA_NOT_FOUND')
      : undefined;

describe('email verification screen', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says the link is invalid without token or userId, and calls nothing', async () => {
    const server = installServer();
    renderVerify('/verify-email?token=abc');
    expect(await screen.findByText('Invalid verification link. Missing token or user ID.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Verification Failed' })).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/verify-email')).toHaveLength(0);
  });

  it('tells its own signed-in, verified user that a used link has nothing left to do; anyone else sees the failure', async () => {
    installServer({
      user: makeUser({ id: 'u1', emailVerified: true }),
      handler: verifyHandler(() => problem('VERIFICATION_LINK_INVALID')),
    });
    renderApp('/verify-email?token=used&userId=u1');
    expect(await screen.findByRole('heading', { name: 'Email Already Verified' })).toBeInTheDocument();
    expect(screen.getByText('Your email address is already verified.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('link', { name: 'Go to Login' })).not.toBeInTheDocument();
  });

  it("shows the failure of another user's used link to a signed-in, verified user", async () => {
    installServer({
      user: makeUser({ id: 'u1', emailVerified: true }),
      handler: verifyHandler(() => problem('VERIFICATION_LINK_INVALID')),
    });
    renderApp('/verify-email?token=used&userId=u2');
    expect(await screen.findByRole('heading', { name: 'Verification Failed' })).toBeInTheDocument();
  });

  it('verifies once, refetches the user and redirects to /onboarding after 2 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = installServer({
      handler: verifyHandler(() => json(200, { message: 'Email verified successfully' })),
    });
    renderApp('/verify-email?token=tok%2B1&userId=u1', { strict: true });

    expect(await screen.findByRole('heading', { name: 'Email Verified' })).toBeInTheDocument();
    const calls = server.callsTo('GET', '/api/verify-email');
    // StrictMode mounts the screen twice: the single-use token is still sent once.
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/verify-email?token=tok%2B1&userId=u1');
    expect(calls[0]?.headers.get('Accept')).toBe('application/json');

    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(currentPath()).toBe('/verify-email?token=tok%2B1&userId=u1');
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(await screen.findByRole('heading', { name: 'Ideal Customer Profile' })).toBeInTheDocument();
    expect(currentPath()).toBe('/onboarding');
    // The profile-setup toast of a new account (the link signed the user in).
    expect(await screen.findByText('Set Up Your Profile')).toBeInTheDocument();
    expect(screen.getByText("Tell us how you'll use Referral Hub to complete your profile")).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/user').length).toBeGreaterThanOrEqual(2);
    expect(server.callsTo('GET', '/api/verify-email')).toHaveLength(1);
  });

  it("follows the response's redirectUrl, on this site only", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    installServer({
      user: makeUser({ emailVerified: false }),
      handler: verifyHandler(() => json(200, { message: 'ok', redirectUrl: '/dashboard' })),
    });
    renderApp('/email-verified?token=t&userId=u1');
    expect(await screen.findByRole('heading', { name: 'Email Verified' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByRole('heading', { name: 'Tee ups' })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
  });

  it('after an email change opened where nobody is signed in, asks to log in with the new address', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    installServer({
      handler: verifyHandler(() =>
        json(200, { message: 'Your email address has been changed', redirectUrl: '/account' }),
      ),
    });
    renderApp('/verify-email?token=t&userId=u1');
    expect(await screen.findByRole('heading', { name: 'Email Verified' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Your email address has been changedLog in with your new address.Redirecting you in a moment…',
    );
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    // Signed in again, the user lands on their account.
    expect(currentPath()).toBe('/login?next=%2Faccount');
    expect(await screen.findByText('Email changed')).toBeInTheDocument();
    expect(screen.getAllByText('Log in with your new address.').length).toBeGreaterThan(0);
  });

  it('after an email change opened by its signed-in user, shows the account without asking to log in', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    installServer({
      user: makeUser({ id: 'u1' }),
      handler: verifyHandler(() =>
        json(200, { message: 'Your email address has been changed', redirectUrl: '/account' }),
      ),
    });
    renderApp('/verify-email?token=t&userId=u1');
    expect(await screen.findByRole('heading', { name: 'Email Verified' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await vi.waitFor(() => expect(currentPath()).toBe('/account'));
    expect(screen.queryByText('Log in with your new address.')).not.toBeInTheDocument();
  });

  it('never leaves the site for an outside redirectUrl', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    installServer({
      handler: verifyHandler(() => json(200, { message: 'ok', redirectUrl: 'https://evil.example/x' })),
    });
    renderVerify('/verify-email?token=t&userId=u1');
    expect(await screen.findByRole('heading', { name: 'Email Verified' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(currentPath()).toBe('/onboarding');
  });

  it("shows the server's text on failure, with the way out", async () => {
    installServer({
      handler: verifyHandler(() => problem('VERIFICATION_LINK_INVALID')),
    });
    renderVerify('/verify-email?token=t&userId=u1');
    expect(await screen.findByRole('heading', { name: 'Verification Failed' })).toBeInTheDocument();
    expect(
      screen.getByText('This verification link is invalid or has expired. Please request a new one.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Resend Verification Email' })).toHaveAttribute(
      'href',
      '/resend-verification',
    );
  });

  it('falls back to the generic texts', async () => {
    installServer({ handler: verifyHandler(() => new Response('', { status: 400 })) });
    const first = renderVerify('/verify-email?token=t&userId=u1');
    expect(await screen.findByText('Verification failed. Please try again.')).toBeInTheDocument();
    first.unmount();

    installServer({ handler: verifyHandler(() => Promise.reject(new TypeError('Failed to fetch'))) });
    renderVerify('/verify-email?token=t2&userId=u1');
    expect(await screen.findByText('An unexpected error occurred. Please try again.')).toBeInTheDocument();
  });

  it('is shown on any path containing verify-email, signed in too', async () => {
    installServer({
      user: makeUser(),
      handler: verifyHandler(() => problem('VERIFICATION_LINK_INVALID', 'Used link')),
    });
    renderApp('/auth/verify-email/confirm?token=t&userId=u2');
    expect(await screen.findByText('Used link')).toBeInTheDocument();
    // Not inside the shell.
    expect(screen.queryByRole('button', { name: 'Account menu' })).not.toBeInTheDocument();
  });
});

describe('resend verification screen', () => {
  it('validates the email, sends it and confirms without telling whether it exists', async () => {
    const server = installServer({
      handler: (req) =>
        req.path === '/api/resend-verification' ? json(200, { message: 'If an account exists…' }) : undefined,
    });
    const user = userEvent.setup();
    renderResend();
    await screen.findByRole('heading', { name: 'Resend Verification Email' });
    expect(screen.getByRole('link', { name: /Back to login/ })).toHaveAttribute('href', '/login');

    await user.type(screen.getByLabelText('Email'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send Verification Link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/resend-verification')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'Ada@Example.com');
    await user.click(screen.getByRole('button', { name: 'Send Verification Link' }));
    expect(await screen.findByRole('heading', { name: 'Check Your Inbox' })).toBeInTheDocument();
    expect(screen.getByText(/don't reveal whether an email address is registered/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Login' })).toHaveAttribute('href', '/login');
    expect(server.callsTo('POST', '/api/resend-verification')[0]?.body).toEqual({ email: 'ada@example.com' });
  });

  it("shows the server's text on failure", async () => {
    installServer({
      handler: (req) =>
        req.path === '/api/resend-verification' ? problem('RATE_LIMITED', 'Too many attempts') : undefined,
    });
    const user = userEvent.setup();
    renderResend();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Verification Link' }));
    expect(await screen.findByText('Too many attempts')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Check Your Inbox' })).not.toBeInTheDocument();
  });
});
