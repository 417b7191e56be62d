import { useQueryClient } from '@tanstack/react-query';
import type { User } from '@app/contracts';
import { CheckCircle2, XCircle } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { dismissToast, toast } from '@/hooks/use-toast';
import { currentUserQueryKey } from '@/lib/session';
import { safeInternalPath } from '@/lib/utils';
import { VERIFY_LINK_MISSING, useVerifyEmail, verifyFailureText } from '../api/verify-email';
import { VerificationLayout } from './verification-layout';

export const VERIFIED_REDIRECT_DELAY_MS = 2000;
const EMAIL_CHANGED_LOG_IN = 'Log in with your new address.';

/**
 * /verify-email, /email-verified and any path containing verify-email, signed in or not (`user`: the session's
 * user once read, else null or undefined).
 */
export function VerifyEmailPage({ user }: { user?: User | null }) {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const userId = searchParams.get('userId');
  const params = useMemo(() => (token && userId ? { token, userId } : null), [token, userId]);
  const verification = useVerifyEmail(params);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const redirectTo = verification.isSuccess ? safeInternalPath(verification.data.redirectUrl, paths.onboarding) : null;
  // An email change opened where nobody is signed in: the account page asks to log in, with the new address.
  const logInAgain = redirectTo === paths.account && user === null;

  useEffect(() => {
    if (redirectTo === null) return;
    // The link signed the user in (or verified the session they had): read the user again.
    void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    // Issue 12: a toast asking to verify (from an earlier visit) is answered now.
    dismissToast();
    const timer = window.setTimeout(() => {
      navigate(redirectTo, { replace: true });
      if (logInAgain) toast({ title: 'Email changed', description: EMAIL_CHANGED_LOG_IN });
      // A new account continues with its profile (spec: register success).
      if (redirectTo === paths.onboarding) {
        toast({
          title: 'Set Up Your Profile',
          description: "Tell us how you'll use Referral Hub to complete your profile",
        });
      }
    }, VERIFIED_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [redirectTo, logInAgain, navigate, queryClient]);

  // A used link opened again by its own user, signed in and verified: nothing failed for them.
  const alreadyVerified = user?.emailVerified === true && user.id === userId;

  let content;
  if (alreadyVerified && (params === null || verification.isError)) {
    content = (
      <Card className="w-full max-w-md text-center">
        <CardHeader className="items-center">
          <CheckCircle2 className="size-12 text-emerald-500" aria-hidden="true" />
          <CardTitle>Email Already Verified</CardTitle>
          <CardDescription role="status">Your email address is already verified.</CardDescription>
        </CardHeader>
        <CardFooter className="justify-center">
          <Button asChild>
            <Link to={paths.home}>Continue</Link>
          </Button>
        </CardFooter>
      </Card>
    );
  } else if (params === null) {
    content = <VerificationFailed message={VERIFY_LINK_MISSING} />;
  } else if (verification.isPending) {
    content = (
      <Card className="w-full max-w-md text-center">
        <CardHeader className="items-center">
          <Spinner className="size-10" label="Verifying your email" />
          <CardTitle>Verifying your email</CardTitle>
          <CardDescription>This only takes a moment.</CardDescription>
        </CardHeader>
      </Card>
    );
  } else if (verification.isError) {
    content = <VerificationFailed message={verifyFailureText(verification.error)} />;
  } else {
    content = (
      <Card className="w-full max-w-md text-center">
        <CardHeader className="items-center">
          <CheckCircle2 className="size-12 text-emerald-500" aria-hidden="true" />
          <CardTitle>Email Verified</CardTitle>
          <CardDescription role="status">
            {/* The server's message has no full stop: a line of its own, not run into the next sentence. */}
            <span className="block">{verification.data.message || 'Your email address has been verified.'}</span>
            {logInAgain ? <span className="block">{EMAIL_CHANGED_LOG_IN}</span> : null}
            <span className="block">Redirecting you in a moment…</span>
          </CardDescription>
        </CardHeader>
        <CardFooter className="justify-center">
          <Button asChild variant="outline">
            <Link to={redirectTo ?? paths.onboarding} replace>
              Continue now
            </Link>
          </Button>
        </CardFooter>
      </Card>
    );
  }
  return <VerificationLayout>{content}</VerificationLayout>;
}

function VerificationFailed({ message }: { message: string }) {
  return (
    <Card className="w-full max-w-md text-center">
      <CardHeader className="items-center">
        <XCircle className="size-12 text-destructive" aria-hidden="true" />
        <CardTitle>Verification Failed</CardTitle>
      </CardHeader>
      <CardContent>
        <p role="alert" className="text-sm text-muted-foreground">
          {message}
        </p>
      </CardContent>
      <CardFooter className="flex-col gap-2 sm:flex-row sm:justify-center">
        <Button asChild>
          <Link to={paths.login}>Go to Login</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.resendVerification}>Resend Verification Email</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
