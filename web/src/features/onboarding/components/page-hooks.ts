import type { User, Vendor } from '@app/contracts';
import { useEffect, useRef } from 'react';
import type { WorkspaceProblem } from '@/components/vendor/workspace';
import { toast, useToast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { chooseVendor, useMyVendors, useVendorParam } from '@/lib/my-vendors';

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

export interface WorkspaceChoice {
  /** False while the user's workspaces are being read. */
  ready: boolean;
  vendors: Vendor[];
  /** The workspace the page works on; null when there is none (or it is not known: signed out, read failed). */
  vendor: Vendor | null;
  select: (vendorId: string) => void;
  /** What keeps the page from saving, known before any save. */
  problem: WorkspaceProblem | null;
}

/**
 * The vendor workspace whose lead criteria or bounties the page edits (issue 9): `?vendorId=` when it is one
 * of the user's, else their first verified one. Signed out, or when the list cannot be read, the page asks
 * the server without naming one (and learns from its answer).
 */
export function useWorkspace(user: User | null | undefined): WorkspaceChoice {
  const mine = useMyVendors({ enabled: !!user });
  const [wanted, select] = useVendorParam();
  if (!user || mine.isError) return { ready: true, vendors: [], vendor: null, select, problem: null };
  if (mine.isPending) return { ready: false, vendors: [], vendor: null, select, problem: null };
  const vendors = mine.data.vendors;
  const vendor = chooseVendor(vendors, wanted);
  const problem: WorkspaceProblem | null = !vendor ? 'none' : vendor.verified ? null : 'unverified';
  return { ready: true, vendors, vendor, select, problem };
}

/** The workspace problem a server answer names, if any. */
export function workspaceProblem(error: unknown): WorkspaceProblem | null {
  if (isApiError(error, 'NO_WORKSPACE')) return 'none';
  if (isApiError(error, 'WORKSPACE_NOT_VERIFIED')) return 'unverified';
  if (isApiError(error, 'NOT_A_MEMBER') || isApiError(error, 'VENDOR_NOT_FOUND')) return 'not-member';
  return null;
}
