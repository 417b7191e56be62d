import type { User } from '@app/contracts';
import { useEffect, useRef } from 'react';
import { toast, useToast } from '@/hooks/use-toast';

export const VERIFICATION_TOAST = {
  title: 'Email Verification Required',
  description: 'Please verify your email address before proceeding.',
  duration: 5000,
} as const;

/**
 * Spec 6: unverified users (administrators excepted) are told on the ICP and bounty pages, once per visit.
 * Only one toast shows at a time (spec 9), so a toast already showing on arrival (the 'Set Up Your Profile'
 * toast right after registering) is not displaced: this one follows when it closes.
 */
export function useVerificationToast(user: User | null | undefined) {
  const shown = useRef(false);
  const { toasts } = useToast();
  const busy = toasts.some((t) => t.open);
  const needsToast = !!user && !user.emailVerified && !user.isAdmin;
  useEffect(() => {
    if (!needsToast || busy || shown.current) return;
    shown.current = true;
    toast({ ...VERIFICATION_TOAST });
  }, [needsToast, busy]);
}

/** Logs a failed read once (spec 7: other failures of the profile reads are only logged). */
export function useLogFailure(error: unknown, what: string) {
  useEffect(() => {
    if (error) console.error(what, error);
  }, [error, what]);
}
