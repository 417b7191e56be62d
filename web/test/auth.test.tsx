import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { nextPath, paths } from '@/config/paths';
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

  it("shows a wrong password next to the field and in the destructive 'Error' toast, and stays", async () => {
    installServer({
      handler: (req) =>
        req.path === '/api/login' ? problem('INVALID_CREDENTIALS', undefined, { field: 'password' }) : undefined,
    });
    const user = userEvent.setup();
    renderAuth();
    await screen.findByRole('heading', { name: 'Login to Your Account' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(submit('Login'));

    expect(await screen.findByText('Error')).toBeInTheDocument();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription('Invalid email or password');
    expect(password).toHaveFocus();
    expect(screen.getAllByText('Invalid email or password')).toHaveLength(2);
    expect(currentPath()).toBe('/login');
  });

  it('sends a signed-out visitor of a signed-in route to /login, and back there after signing in (issue 12)', async () => {
    const server = installServer({
      handler: (req) => {
        if (req.path === '/api/login') {
          server.session.user = makeUser();
          return json(200, { message: 'Logged in successfully', emailVerificationSent: false });
        }
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderApp('/account/password?tab=1');
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login?next=%2Faccount%2Fpassword%3Ftab%3D1');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(submit('Login'));
    await waitFor(() => expect(currentPath()).toBe('/account/password?tab=1'));
  });

  it('never follows a next that leaves the app', async () => {
    for (const next of [
      'https://evil.example/x',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/login',
    ]) {
      expect(nextPath(next)).toBe('/');
    }
    expect(nextPath('/dashboard?stage=pending#top')).toBe('/dashboard?stage=pending#top');
    expect(nextPath(null)).toBe('/');
  });

  it('registers with exactly the five fields, starts no session and asks to check the email', async () => {
    const server = installServer({
      handler: (req) =>
        req.path === '/api/register'
          ? json(201, {
              message: 'Account created. Please check your email to verify your account.',
              emailVerificationSent: true,
            })
          : undefined,
    });
    const user = userEvent.setup();
    renderApp('/signup');
    await screen.findByRole('heading', { name: 'Create an Account' });
    await user.type(screen.getByLabelText('First Name'), 'Ada');
    await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
    await user.type(screen.getByLabelText('Company Name'), 'Engines Ltd');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    const userCalls = server.callsTo('GET', '/api/user').length;
    await user.click(submit('Register'));

    expect(await screen.findByText('Account Created')).toBeInTheDocument();
    expect(screen.getByText('Please check your email to verify your account.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(
      screen.getByText(
        (_, element) =>
          element?.textContent ===
          'We sent a verification link to ada@example.com. Open it to verify your address and sign in.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Didn't get it? Send a new link" })).toHaveAttribute(
      'href',
      '/resend-verification',
    );
    // Still signed out, on the sign-up page: the emailed link signs in (the same answer for a taken address).
    expect(currentPath()).toBe('/signup');
    expect(server.callsTo('GET', '/api/user')).toHaveLength(userCalls);
    const [registration] = server.callsTo('POST', '/api/register');
    expect(registration?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Engines Ltd',
      email: 'ada@example.com',
      password: 'secret',
    });
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Create an Account' })).toBeInTheDocument();
  });
});
