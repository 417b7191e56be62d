import { LoginRequest, RegisterRequest } from '@app/contracts';
import { MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormInput, useSchemaForm } from '@/components/ui/form';
import { Spinner } from '@/components/ui/spinner';
import { NEXT_PARAM, nextPath, paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { DEFAULT_MUTATION_ERROR } from '@/lib/http';
import { isApiError } from '@/lib/api-client';
import { failureText } from '@/lib/errors';
import { afterCacheUpdates } from '@/lib/query-client';
import { useLogin } from '../api/login';
import { useRegister } from '../api/register';

export type AuthMode = 'login' | 'register';

/**
 * The server's schemas, reading only their own fields: login mode validates (and so submits) email and
 * password, register mode the five registration fields; what the other mode typed stays in the form.
 */
const registerForm = z.object(RegisterRequest.shape);
const loginForm = z.object(LoginRequest.shape) as unknown as typeof registerForm;
type AuthValues = z.output<typeof registerForm>;

const defaultValues = { firstName: '', lastName: '', companyName: '', email: '', password: '' };

export function AuthForm({ mode, onSwitchMode }: { mode: AuthMode; onSwitchMode: () => void }) {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const next = nextPath(searchParams.get(NEXT_PARAM));
  const loginMutation = useLogin();
  const registerMutation = useRegister();
  const form = useSchemaForm(mode === 'login' ? loginForm : registerForm, { defaultValues });
  const { clearErrors } = form;
  /** After registering: the address the verification link went to (the link signs the user in). */
  const [sentTo, setSentTo] = useState<string | null>(null);

  // Messages of the other mode's rules must not linger after a switch.
  useEffect(() => {
    clearErrors();
  }, [mode, clearErrors]);

  const onFailure = (error: unknown) =>
    toast({ variant: 'destructive', title: 'Error', description: failureText(error) || DEFAULT_MUTATION_ERROR });

  const onSubmit = async (values: AuthValues) => {
    if (mode === 'login') {
      try {
        await loginMutation.mutateAsync({ email: values.email, password: values.password });
      } catch (error) {
        if (isApiError(error, 'INVALID_CREDENTIALS')) {
          // Issue 12: next to the password (the server names it), and the spec's 'Error' toast.
          form.setError('password', { type: 'server', message: error.message });
          form.setFocus('password');
          onFailure(error);
          return;
        }
        if (!isApiError(error, 'LOGIN_EMAIL_NOT_VERIFIED')) throw error;
        toast({
          variant: 'destructive',
          title: 'Email Not Verified',
          description: 'Please check your inbox for a verification link or request a new one.',
        });
        navigate(paths.resendVerification, { state: { email: values.email } });
        return;
      }
      toast({ title: 'Success', description: 'Logged in successfully' });
      // Issue 12: back to the signed-in screen the visitor was sent here from (same origin only).
      afterCacheUpdates(() => navigate(next, { replace: true }));
      return;
    }
    // The answer is the same whether or not the address already had an account, and starts no session:
    // the emailed link verifies the address and signs the user in, then the profile setup follows.
    await registerMutation.mutateAsync(values);
    toast({ title: 'Account Created', description: 'Please check your email to verify your account.' });
    setSentTo(values.email);
  };

  if (sentTo !== null) return <CheckYourEmail email={sentTo} onBack={() => setSentTo(null)} />;

  const isLogin = mode === 'login';
  const busy = form.formState.isSubmitting || loginMutation.isPending || registerMutation.isPending;

  return (
    <Card className="w-full max-w-md bg-card/80 backdrop-blur">
      <CardHeader>
        <CardTitle>{isLogin ? 'Login to Your Account' : 'Create an Account'}</CardTitle>
        <CardDescription>
          {isLogin
            ? 'Welcome back. Sign in to manage your referrals.'
            : 'Start turning non-fit prospects into warm referrals.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          form={form}
          onSubmit={onSubmit}
          onError={onFailure}
          className="grid gap-4"
          aria-label={isLogin ? 'Login' : 'Register'}
        >
          {!isLogin ? (
            <>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormInput name="firstName" label="First Name" autoComplete="given-name" />
                <FormInput name="lastName" label="Last Name" autoComplete="family-name" />
              </div>
              <FormInput name="companyName" label="Company Name" autoComplete="organization" />
            </>
          ) : null}
          <FormInput
            name="email"
            label="Email"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="you@company.com"
          />
          <FormInput
            name="password"
            label="Password"
            type="password"
            autoComplete={isLogin ? 'current-password' : 'new-password'}
          />
          <Button type="submit" className="mt-2 w-full" disabled={busy}>
            {busy ? <Spinner className="size-4 text-current" label={isLogin ? 'Logging in' : 'Registering'} /> : null}
            {isLogin ? 'Login' : 'Register'}
          </Button>
        </Form>
      </CardContent>
      <CardFooter className="flex-col gap-3 text-sm text-muted-foreground">
        <p>
          {isLogin ? 'Need an account? ' : 'Already have an account? '}
          <button
            type="button"
            onClick={onSwitchMode}
            className="rounded font-medium text-primary underline-offset-4 dark:text-indigo-300 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            {isLogin ? 'Register' : 'Login'}
          </button>
        </p>
        {isLogin ? (
          <Link
            to={paths.resendVerification}
            className="rounded text-primary underline-offset-4 dark:text-indigo-300 hover:underline"
          >
            Need to verify your email?
          </Link>
        ) : null}
      </CardFooter>
    </Card>
  );
}

/** After registering: where the link went, and what to do if it does not arrive. */
function CheckYourEmail({ email, onBack }: { email: string; onBack: () => void }) {
  return (
    <Card className="w-full max-w-md bg-card/80 text-center backdrop-blur">
      <CardHeader className="items-center">
        <MailCheck className="size-12 text-primary" aria-hidden="true" />
        <CardTitle>Check your email</CardTitle>
        <CardDescription role="status">
          We sent a verification link to <span className="font-medium text-foreground">{email}</span>. Open it to verify
          your address and sign in.
        </CardDescription>
      </CardHeader>
      <CardFooter className="flex-col gap-3 text-sm text-muted-foreground">
        <Link
          to={paths.resendVerification}
          className="rounded text-primary underline-offset-4 dark:text-indigo-300 hover:underline"
        >
          Didn&apos;t get it? Send a new link
        </Link>
        <button
          type="button"
          onClick={onBack}
          className="rounded font-medium text-primary underline-offset-4 dark:text-indigo-300 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          Back
        </button>
      </CardFooter>
    </Card>
  );
}
