import { ResendVerificationRequest } from '@app/contracts';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormInput } from '@/components/ui/form';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { dismissToast, toast } from '@/hooks/use-toast';
import { failureText } from '@/lib/errors';
import { useResendVerification } from '../api/resend-verification';
import { VerificationLayout } from './verification-layout';

export const RESEND_FAILED = 'Failed to request verification email';

const PRIVACY_NOTE =
  "For your privacy, we don't reveal whether an email address is registered: you'll see the same confirmation either way.";

/** /resend-verification: ask for a new link. */
export function ResendVerificationPage() {
  const location = useLocation();
  const state: unknown = location.state;
  const initialEmail =
    state && typeof state === 'object' && 'email' in state && typeof state.email === 'string' ? state.email : '';
  const [sentTo, setSentTo] = useState<string | null>(null);
  const resend = useResendVerification();

  const onSubmit = async ({ email }: { email: string }) => {
    await resend.mutateAsync({ email });
    // Issue 12: the 'Email Not Verified' toast that brought the user here has done its job.
    dismissToast();
    setSentTo(email);
  };
  const onError = (error: unknown) =>
    toast({ variant: 'destructive', title: 'Error', description: failureText(error) || RESEND_FAILED });

  return (
    <VerificationLayout>
      {sentTo !== null ? (
        <Card className="w-full max-w-md text-center">
          <CardHeader className="items-center">
            <MailCheck className="size-12 text-primary" aria-hidden="true" />
            <CardTitle>Check Your Inbox</CardTitle>
            <CardDescription role="status">
              If an account exists for <span className="font-medium text-foreground">{sentTo}</span> and is not yet
              verified, a new verification link is on its way.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-muted-foreground">{PRIVACY_NOTE}</p>
          </CardContent>
          <CardFooter className="justify-center">
            <Button asChild>
              <Link to={paths.login}>Return to Login</Link>
            </Button>
          </CardFooter>
        </Card>
      ) : (
        <Card className="w-full max-w-md">
          <CardHeader>
            <CardTitle>Resend Verification Email</CardTitle>
            <CardDescription>
              Enter the email address you signed up with and we'll send you a new verification link.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Form
              schema={ResendVerificationRequest}
              defaultValues={{ email: initialEmail }}
              onSubmit={onSubmit}
              onError={onError}
              className="grid gap-4"
              aria-label="Resend verification email"
            >
              <FormInput
                name="email"
                id="resend-email"
                label="Email"
                type="email"
                inputMode="email"
                autoComplete="email"
                placeholder="you@company.com"
              />
              <p className="text-xs text-muted-foreground">{PRIVACY_NOTE}</p>
              <Button type="submit" disabled={resend.isPending} className="w-full">
                {resend.isPending ? <Spinner className="size-4 text-current" label="Sending" /> : null}
                Send Verification Link
              </Button>
            </Form>
          </CardContent>
          <CardFooter>
            <Link
              to={paths.login}
              className="inline-flex items-center gap-1 rounded text-sm text-primary underline-offset-4 hover:underline"
            >
              <ArrowLeft className="size-4" aria-hidden="true" />
              Back to login
            </Link>
          </CardFooter>
        </Card>
      )}
    </VerificationLayout>
  );
}
