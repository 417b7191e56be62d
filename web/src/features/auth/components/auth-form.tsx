import { LoginRequest, RegisterRequest } from '@app/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { afterCacheUpdates } from '@/lib/query-client';
import { useLogin } from '../api/login';
import { useRegister } from '../api/register';

export type AuthMode = 'login' | 'register';

interface AuthFormValues {
  firstName: string;
  lastName: string;
  companyName: string;
  email: string;
  password: string;
}

type LoginValues = z.output<typeof LoginRequest>;
type RegisterValues = z.output<typeof RegisterRequest>;
type AuthFormOutput = LoginValues | RegisterValues;

const loginResolver = zodResolver(LoginRequest);
const registerResolver = zodResolver(RegisterRequest);

/**
 * The same schemas as the server's. Login mode validates (and so submits) only email and password; register
 * mode the five registration fields. Both are strict objects, so nothing else can slip into a request.
 */
function authResolver(mode: AuthMode): Resolver<AuthFormValues, unknown, AuthFormOutput> {
  return (values, context, options) => {
    if (mode === 'login') {
      return loginResolver(
        { email: values.email, password: values.password },
        context,
        options as unknown as Parameters<typeof loginResolver>[2],
      ) as ReturnType<Resolver<AuthFormValues, unknown, AuthFormOutput>>;
    }
    const { firstName, lastName, companyName, email, password } = values;
    return registerResolver(
      { firstName, lastName, companyName, email, password },
      context,
      options as unknown as Parameters<typeof registerResolver>[2],
    ) as ReturnType<Resolver<AuthFormValues, unknown, AuthFormOutput>>;
  };
}

const defaultValues: AuthFormValues = { firstName: '', lastName: '', companyName: '', email: '', password: '' };

export function AuthForm({ mode, onSwitchMode }: { mode: AuthMode; onSwitchMode: () => void }) {
  const navigate = useNavigate();
  const loginMutation = useLogin();
  const registerMutation = useRegister();
  const {
    register: field,
    handleSubmit,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<AuthFormValues, unknown, AuthFormOutput>({
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    resolver: authResolver(mode),
  });

  // Messages of the other mode's rules must not linger after a switch.
  useEffect(() => {
    clearErrors();
  }, [mode, clearErrors]);

  const handleFailure = (error: unknown, email: string) => {
    const message = error instanceof Error && error.message ? error.message : 'An error occurred';
    if (message.includes('Email not verified')) {
      toast({
        variant: 'destructive',
        title: 'Email Not Verified',
        description: 'Please check your inbox for a verification link or request a new one.',
      });
      navigate('/resend-verification', { state: { email } });
      return;
    }
    toast({ variant: 'destructive', title: 'Error', description: message });
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      if (mode === 'login') {
        await loginMutation.mutateAsync({ email: values.email, password: values.password });
        toast({ title: 'Success', description: 'Logged in successfully' });
        afterCacheUpdates(() => navigate('/', { replace: true }));
        return;
      }
      // The register resolver produced all five fields.
      const result = await registerMutation.mutateAsync(values as RegisterValues);
      if (result.emailVerificationSent) {
        toast({ title: 'Account Created', description: 'Please check your email to verify your account.' });
      }
      afterCacheUpdates(() => {
        navigate('/onboarding', { replace: true });
        toast({
          title: 'Set Up Your Profile',
          description: "Let's set up your lead criteria to complete your profile",
        });
      });
    } catch (error) {
      handleFailure(error, values.email);
    }
  });

  const isLogin = mode === 'login';
  const busy = isSubmitting || loginMutation.isPending || registerMutation.isPending;

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
        <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label={isLogin ? 'Login' : 'Register'}>
          {!isLogin ? (
            <>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField id="firstName" label="First Name" error={errors.firstName?.message}>
                  <Input
                    autoComplete="given-name"
                    {...fieldA11y('firstName', errors.firstName?.message)}
                    {...field('firstName')}
                  />
                </FormField>
                <FormField id="lastName" label="Last Name" error={errors.lastName?.message}>
                  <Input
                    autoComplete="family-name"
                    {...fieldA11y('lastName', errors.lastName?.message)}
                    {...field('lastName')}
                  />
                </FormField>
              </div>
              <FormField id="companyName" label="Company Name" error={errors.companyName?.message}>
                <Input
                  autoComplete="organization"
                  {...fieldA11y('companyName', errors.companyName?.message)}
                  {...field('companyName')}
                />
              </FormField>
            </>
          ) : null}
          <FormField id="email" label="Email" error={errors.email?.message}>
            <Input
              type="email"
              inputMode="email"
              autoComplete="email"
              placeholder="you@company.com"
              {...fieldA11y('email', errors.email?.message)}
              {...field('email')}
            />
          </FormField>
          <FormField id="password" label="Password" error={errors.password?.message}>
            <Input
              type="password"
              autoComplete={isLogin ? 'current-password' : 'new-password'}
              {...fieldA11y('password', errors.password?.message)}
              {...field('password')}
            />
          </FormField>
          <Button type="submit" className="mt-2 w-full" disabled={busy}>
            {busy ? <Spinner className="size-4 text-current" label={isLogin ? 'Logging in' : 'Registering'} /> : null}
            {isLogin ? 'Login' : 'Register'}
          </Button>
        </form>
      </CardContent>
      <CardFooter className="flex-col gap-3 text-sm text-muted-foreground">
        <p>
          {isLogin ? 'Need an account? ' : 'Already have an account? '}
          <button
            type="button"
            onClick={onSwitchMode}
            className="rounded font-medium text-primary underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            {isLogin ? 'Register' : 'Login'}
          </button>
        </p>
        {isLogin ? (
          <Link to="/resend-verification" className="rounded text-primary underline-offset-4 hover:underline">
            Need to verify your email?
          </Link>
        ) : null}
      </CardFooter>
    </Card>
  );
}
