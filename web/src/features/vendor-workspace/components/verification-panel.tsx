import type { Vendor } from '@app/contracts';
import { emailOnDomain } from '@app/domain';
import { BadgeCheck, Loader2, RefreshCw, ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/hooks/use-toast';
import { formatDate } from '@/lib/dates';
import { errorText } from '@/lib/errors';
import { useCheckVerification } from '../api/check-verification';

/** What verification means for this workspace, in plain words, and how to get there. */
export function verificationText(vendor: Vendor): string {
  if (!vendor.verified) return vendor.revokedAt ? 'Verification revoked' : 'Not verified';
  return vendor.verification === 'admin' ? 'Verified by an administrator' : 'Verified by domain';
}

/**
 * The workspace's verification (issue 9): verified by domain or by an administrator, or how to get verified,
 * with 'Check again' (a member's address on the domain may have been confirmed since).
 */
export function VerificationPanel({
  vendor,
  user,
}: {
  vendor: Vendor;
  user: { email: string; emailVerified: boolean };
}) {
  const check = useCheckVerification();
  const since = vendor.verifiedAt ? ` since ${formatDate(vendor.verifiedAt)}` : '';

  const checkAgain = () =>
    check.mutate(vendor.id, {
      onSuccess: (checked) =>
        toast(
          checked.verified
            ? { title: 'Workspace verified', description: `${checked.name} now receives the leads referrers send it.` }
            : {
                title: 'Not verified yet',
                description: checked.domain
                  ? `No member has a confirmed address at ${checked.domain} yet.`
                  : 'Add your company website first.',
              },
        ),
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to check again') }),
    });

  if (vendor.verified) {
    return (
      <VerificationCard verified title={verificationText(vendor)}>
        {vendor.verification === 'admin'
          ? `A Referral Hub administrator approved ${vendor.name}${since}.`
          : `A member has a confirmed address at ${vendor.domain}${since}.`}{' '}
        Leads referrers send to {vendor.name} come to this workspace, and its lead criteria and bounties apply.
      </VerificationCard>
    );
  }

  if (vendor.revokedAt) {
    return (
      <VerificationCard title="Verification revoked">
        {`A Referral Hub administrator revoked the verification of ${vendor.name} on ${formatDate(vendor.revokedAt)}. Until an administrator approves it again, it receives no new leads, and its lead criteria and bounties do not apply; an address at its domain no longer verifies it. The leads it already received stay in its inbox.`}
      </VerificationCard>
    );
  }

  const unverified = `Until it is verified, ${vendor.name} receives no leads, and its lead criteria and bounties cannot be set.`;
  if (vendor.domainRevoked) {
    return (
      <VerificationCard title="Not verified yet">
        {`${unverified} A Referral Hub administrator revoked the verification of a workspace of ${vendor.domain}: an address at ${vendor.domain} does not verify a workspace of it any more. Ask an administrator to approve it.`}
      </VerificationCard>
    );
  }

  const yours = vendor.domain !== '' && emailOnDomain(user.email, vendor.domain);
  const yourAddress = !yours
    ? `Yours, ${user.email}, is not: invite a colleague who has one.`
    : user.emailVerified
      ? `Yours, ${user.email}, is: select Check again.`
      : `Yours, ${user.email}, is: confirm it with the link we emailed you, then select Check again.`;
  return (
    <VerificationCard
      title="Not verified yet"
      details={
        <CardContent className="grid gap-4">
          <div className="grid gap-2 text-sm">
            <p className="font-medium">To verify it, either:</p>
            <ul className="grid list-disc gap-1 pl-5">
              <li>
                {vendor.domain
                  ? `Sign in with an address at ${vendor.domain}.`
                  : 'Add your company website below, then sign in with an address on it.'}
                {vendor.domain ? <span className="block text-muted-foreground">{yourAddress}</span> : null}
              </li>
              <li>Ask an administrator to approve it.</li>
            </ul>
          </div>
          <div>
            <Button variant="outline" onClick={checkAgain} disabled={check.isPending}>
              {check.isPending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <RefreshCw aria-hidden="true" />
              )}
              Check again
            </Button>
          </div>
        </CardContent>
      }
    >
      {unverified}
    </VerificationCard>
  );
}

/** The panel's card: verified (a check) or not (a warning), its title, what it means, and any ways forward below. */
function VerificationCard({
  verified = false,
  title,
  children,
  details,
}: {
  verified?: boolean;
  title: string;
  children: ReactNode;
  details?: ReactNode;
}) {
  const Icon = verified ? BadgeCheck : ShieldAlert;
  return (
    <Card role="region" aria-labelledby="verification-title">
      <CardHeader className="flex-row items-start gap-3">
        <Icon className={`size-6 shrink-0 ${verified ? 'text-emerald-600' : 'text-amber-600'}`} aria-hidden="true" />
        <div className="grid gap-1">
          <CardTitle id="verification-title" className="text-lg">
            {title}
          </CardTitle>
          <p className="text-sm text-muted-foreground">{children}</p>
        </div>
      </CardHeader>
      {details}
    </Card>
  );
}
