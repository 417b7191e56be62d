import { MailWarning } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { failureText } from '@/lib/errors';
import { useResendVerification } from '../api/resend-verification';

export const BANNER_CONFIRMATION_MS = 5000;

/** Shown above every signed-in page to users who are neither verified nor administrators. */
export function VerificationBanner({ email }: { email: string }) {
  const resend = useResendVerification();
  const [sent, setSent] = useState(false);

  useEffect(() => {
    if (!sent) return;
    const timer = window.setTimeout(() => setSent(false), BANNER_CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [sent]);

  const onResend = () => {
    resend.mutate(
      { email },
      {
        onSuccess: () => setSent(true),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error',
            description: failureText(error) || 'Failed to resend verification email',
          }),
      },
    );
  };

  return (
    <div role="region" aria-label="Email verification" className="border-b border-amber-200 bg-amber-50 text-amber-950">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p className="flex items-start gap-2 text-sm">
          <MailWarning className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            Please verify your email address. We sent a verification link to{' '}
            <strong className="font-semibold break-all">{email}</strong>.
          </span>
        </p>
        {sent ? (
          <p role="status" className="text-sm font-medium text-emerald-700">
            Verification email sent! Check your inbox.
          </p>
        ) : (
          <Button
            size="sm"
            variant="outline"
            className="border-amber-300 bg-white text-amber-950 hover:bg-amber-100"
            onClick={onResend}
            disabled={resend.isPending}
          >
            {resend.isPending ? <Spinner className="size-4 text-current" label="Sending" /> : null}
            Resend Verification Email
          </Button>
        )}
      </div>
    </div>
  );
}
