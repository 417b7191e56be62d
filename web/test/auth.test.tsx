import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { AuthPage } from '@/features/auth/components/auth-page';
import { ResendVerificationPage } from '@/features/verification/components/resend-verification-page';
import { currentPath, installServer, json, makeUser, problem, renderApp, renderRoute } from './utils';

/** The login/register screen alone (both routes, and where an unverified login is sent). */
const renderAuth = (at: string = paths.login) =>
  renderRoute(<AuthPage />, {
    path: paths.login,
    at,
    user: null,
    routes: { [paths.signup]: <AuthPage />, [paths.resendVerification]: <ResendVerificationPage /> },
  });

const submit = (name: 'Login' | 'Register') => within(screen.getByRole('form', { name })).getByRole('button', { name });

describe('login / register screen', () => {
  it('opens login mode on /login with the spec texts', async () => {
    installServer();
    renderAuth();
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Turn non-fit prospects into warm referrals' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get a demo' })).toHaveAttribute('href', '/demo-request');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Need to verify your email?' })).toHaveAttribute(
      'href',
      '/resend-verification',
    );
    expect(screen.queryByLabelText('First Name')).not.toBeInTheDocument();
  });

  it('validates on submit, then again on change', async () => {
    const server = installServer();
    const user = userEvent.setup();
    renderAuth();
    await screen.findByRole('heading', { name: 'Login to Your Account' });
    expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument();

    await user.click(submit('Login'));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await waitFor(() => expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument());
    expect(server.callsTo('POST', '/api/login')).toHaveLength(0);
  });

  it('switches to register mode in place and requires the names and company', async () => {
    const server = installServer();
    const user = userEvent.setup();
    renderAuth();
    await screen.findByRole('heading', { name: 'Login to Your Account' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');

    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('heading', { name: 'Create an Account' })).toBeInTheDocument();
    expect(screen.getByText(/Already have an account\?/)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.queryByRole('link', { name: 'Need to verify your email?' })).not.toBeInTheDocument();

    await user.click(submit('Register'));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Company name is required')).toBeInTheDocument();
    expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument();
    expect(server.callsTo('POST', '/api/register')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
  });

  it('logs in with only email and password, refetches the user, goes to / and says so', async () => {
    const server = installServer({
      handler: (req) => {
        if (req.path === '/api/login') {
          server.session.user = makeUser();
          return json(200, { message: 'Logged in successfully', emailVerificationSent: false });
        }
      },
    });
    const user = userEvent.setup();
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Login to Your Account' });
    await user.type(screen.getByLabelText('Email'), '  Ada@Example.com ');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(submit('Login'));

    expect(await screen.findByRole('heading', { name: 'What do you want to refer?' })).toBeInTheDocument();
    expect(currentPath()).toBe('/');
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
    expect(screen.getByText('Success')).toBeInTheDocument();
    const [login] = server.callsTo('POST', '/api/login');
    expect(login?.body).toEqual({ email: 'ada@example.com', password: 'secret' });
    expect(login?.credentials).toBe('include');
    expect(server.callsTo('GET', '/api/user')).toHaveLength(2);
    // The toast sits in the labelled notifications region.
    expect(screen.getByRole('region', { name: /Notifications/ })).toBeInTheDocument();
  });

  it("sends an unverified user to /resend-verification with the 'Email Not Verified' toast", async () => {
    installServer({
      handler: (req) =>
        req.path === '/api/login'
          ? problem('LOGIN_EMAIL_NOT_VERIFIED', undefined, { emailVerificationSent: false })
          : undefined,
    });
    const user = userEvent.setup();
    renderAuth();
    await screen.findByRole('heading', { name: 'Login to Your Account' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(submit('Login'));

    expect(await screen.findByRole('heading', { name: 'Resend Verification Email' })).toBeInTheDocument();
    expect(currentPath()).toBe('/resend-verification');
    expect(await screen.findByText('Email Not Verified')).toBeInTheDocument();
    expect(
      screen.getByText('Please check your inbox for a verification link or request a new one.'),
    ).toBeInTheDocument();
    // The address typed at login is carried over.
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it("shows other failures in a destructive 'Error' toast and stays", async () => {
    installServer({
      handler: (req) => (req.path === '/api/login' ? problem('INVALID_CREDENTIALS') : undefined),
    });
    const user = userEvent.setup();
    renderAuth();
    await screen.findByRole('heading', { name: 'Login to Your Account' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(submit('Login'));

    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it('registers with exactly the five fields and lands on /onboarding', async () => {
    const server = installServer({
      handler: (req) => {
        if (req.path === '/api/register') {
          server.session.user = makeUser({ emailVerified: false });
          return json(201, { message: 'Account created.', emailVerificationSent: true });
        }
        if (req.path === '/api/lead-criteria') return problem('LEAD_CRITERIA_NOT_FOUND');
      },
    });
    const user = userEvent.setup();
    renderApp('/signup');
    await screen.findByRole('heading', { name: 'Create an Account' });
    await user.type(screen.getByLabelText('First Name'), 'Ada');
    await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
    await user.type(screen.getByLabelText('Company Name'), 'Engines Ltd');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(submit('Register'));

    expect(await screen.findByRole('heading', { name: 'Ideal Customer Profile' })).toBeInTheDocument();
    expect(currentPath()).toBe('/onboarding');
    expect(await screen.findByText('Set Up Your Profile')).toBeInTheDocument();
    expect(screen.getByText("Let's set up your lead criteria to complete your profile")).toBeInTheDocument();
    const [registration] = server.callsTo('POST', '/api/register');
    expect(registration?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Engines Ltd',
      email: 'ada@example.com',
      password: 'secret',
    });
    // Signed in now (inside the shell), unverified: the banner shows.
    expect(screen.getByRole('button', { name: 'Resend Verification Email' })).toBeInTheDocument();
  });
});
