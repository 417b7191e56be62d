import type { User, Vendor } from '@app/contracts';
import { AlertCircle, ArrowRight, Gift, Inbox, Plus, RefreshCw, Target } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { WorkspacePicker } from '@/components/vendor/workspace';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/errors';
import { chooseVendor, useMyVendors, useVendorParam, withVendor } from '@/lib/my-vendors';
import { CreateWorkspace } from './create-workspace';
import { InvitationsPanel } from './invitations-panel';
import { MembersPanel } from './members-panel';
import { OwedPanel } from './owed-panel';
import { MyInvitations } from './my-invitations';
import { SettingsPanel } from './settings-panel';
import { VerificationPanel, verificationText } from './verification-panel';
import { WebhooksPanel } from './webhooks-panel';

/**
 * /vendor (issue 9): the user's vendor workspaces. Create one; see its verification in plain words and get
 * it verified; members, roles and invitations; the lead inbox address; invitations waiting for the user.
 */
export function VendorPage({ user }: { user: User }) {
  const mine = useMyVendors();
  const [wanted, select] = useVendorParam();
  const [creating, setCreating] = useState(false);

  if (mine.isPending) return <PageSpinner label="Loading your workspaces" />;
  if (mine.isError) {
    return (
      <Page>
        <Card>
          <CardContent className="grid justify-items-center gap-3 py-12 text-center">
            <AlertCircle className="size-8 text-destructive" aria-hidden="true" />
            <p role="alert" className="font-semibold">
              Failed to load your workspaces
            </p>
            <p className="text-sm text-muted-foreground">{errorText(mine.error, 'Please try again.')}</p>
            <Button variant="outline" onClick={() => void mine.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try again
            </Button>
          </CardContent>
        </Card>
      </Page>
    );
  }

  const { vendors, invitations } = mine.data;
  const vendor = chooseVendor(vendors, wanted);
  const opened = (created: Vendor) => {
    setCreating(false);
    select(created.id);
  };

  return (
    <Page>
      <MyInvitations invitations={invitations} onJoined={opened} />
      {!vendor ? (
        <CreateWorkspace email={user.email} company={user.companyName} first onCreated={opened} />
      ) : (
        <>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
            <WorkspacePicker vendors={vendors} value={vendor.id} onChange={select} />
            {!creating ? (
              <Button variant="outline" onClick={() => setCreating(true)} className="sm:ml-auto">
                <Plus aria-hidden="true" />
                New workspace
              </Button>
            ) : null}
          </div>
          {creating ? (
            <CreateWorkspace email={user.email} first={false} onCreated={opened} onCancel={() => setCreating(false)} />
          ) : null}
          <Workspace key={vendor.id} vendor={vendor} user={user} />
        </>
      )}
    </Page>
  );
}

function Page({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto grid w-full max-w-4xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
      <header className="grid gap-2">
        <h1 className="text-3xl font-bold tracking-tight">Vendor Workspace</h1>
        <p className="text-muted-foreground">
          Your company on Referral Hub: verify it, bring your team, and receive the leads referrers send you.
        </p>
      </header>
      {children}
    </section>
  );
}

function Workspace({ vendor, user }: { vendor: Vendor; user: User }) {
  const [, select] = useVendorParam();
  const links = [
    { to: withVendor(paths.vendorLeads, vendor.id), label: 'Lead inbox', Icon: Inbox },
    { to: withVendor(paths.onboarding, vendor.id), label: 'Lead Criteria', Icon: Target },
    { to: withVendor(paths.bounties, vendor.id), label: 'Bounties', Icon: Gift },
  ];
  return (
    <>
      <Card>
        <CardContent className="grid gap-4 p-6">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <h2 className="text-2xl font-semibold tracking-tight wrap-anywhere">{vendor.name}</h2>
            <Badge variant={vendor.verified ? 'success' : 'warning'}>{verificationText(vendor)}</Badge>
          </div>
          <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-muted-foreground">Website</dt>
            <dd className="break-all">{vendor.domain || 'Not set yet'}</dd>
            <dt className="text-muted-foreground">Lead inbox</dt>
            <dd className="break-all">{vendor.leadInbox}</dd>
            <dt className="text-muted-foreground">Your role</dt>
            <dd>{vendor.role === 'owner' ? 'Owner' : 'Member'}</dd>
          </dl>
          {vendor.verified ? (
            <nav aria-label="Workspace" className="flex flex-wrap gap-2">
              {links.map(({ to, label, Icon }) => (
                <Button key={label} asChild variant="outline" size="sm">
                  <Link to={to}>
                    <Icon aria-hidden="true" />
                    {label}
                    <ArrowRight aria-hidden="true" />
                  </Link>
                </Button>
              ))}
            </nav>
          ) : null}
        </CardContent>
      </Card>
      <VerificationPanel vendor={vendor} user={user} />
      <SettingsPanel vendor={vendor} />
      <MembersPanel vendor={vendor} userId={user.id} onLeft={() => select(null)} />
      {vendor.role === 'owner' ? <InvitationsPanel vendor={vendor} /> : null}
      {vendor.verified ? <OwedPanel vendor={vendor} /> : null}
      {vendor.verified ? <WebhooksPanel vendor={vendor} /> : null}
    </>
  );
}
