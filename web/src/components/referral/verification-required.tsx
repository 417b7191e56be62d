import { ERRORS, operations, type User } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MailWarning } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { call } from '@/lib/api-client';
import { failureText } from '@/lib/errors';
import { cn } from '@/lib/utils';
import { currentUserQueryKey } from '@/lib/session';

export const VERIFICATION_REQUIRED_TEXT = ERRORS.EMAIL_NOT_VERIFIED.message;

/**
 * Issue 11: referring and sending need a verified email. Shown where the server refused with
 * EMAIL_NOT_VERIFIED: the spec's message and a way to get a new link (here, or on /resend-verification
 * when the address is not known).
 */
export function VerificationRequired({ className }: { className?: string }) {
  const queryClient = useQueryClient();
  const email = queryClient.getQueryData<User | null>(currentUserQueryKey)?.email;
  const resend = useMutation({
    mutationFn: (address: string) => call(operations.resendVerification, { body: { email: address } }),
  });
  return (
    <div role="alert" className={cn('rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950', className)}>
      <p className="flex items-start gap-2 text-sm">
        <MailWarning className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>{VERIFICATION_REQUIRED_TEXT}</span>
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {resend.isSuccess ? (
          <p role="status" className="text-sm font-medium text-emerald-700">
            Verification email sent! Check your inbox.
          </p>
        ) : email ? (
          <Button size="sm" variant="outline" onClick={() => resend.mutate(email)} disabled={resend.isPending}>
            {resend.isPending ? <Spinner className="size-4 text-current" label="Sending" /> : null}
            Resend Verification Email
          </Button>
        ) : (
          <Button asChild size="sm" variant="outline">
            <Link to={paths.resendVerification}>Resend Verification Email</Link>
          </Button>
        )}
        {resend.isError ? (
          <p className="text-sm text-destructive">
            {failureText(resend.error) || 'Failed to resend verification email'}
          </p>
        ) : null}
      </div>
    </div>
  );
}
