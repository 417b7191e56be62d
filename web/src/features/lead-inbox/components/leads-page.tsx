import { LEAD_STATES, type Lead, type LeadState, type User, type Vendor } from '@app/contracts';
import { AlertCircle, Inbox, RefreshCw } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { WorkspaceNotice, WorkspacePicker } from '@/components/vendor/workspace';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { errorText } from '@/lib/errors';
import { chooseVendor, useMyVendors, useVendorParam, withVendor } from '@/lib/my-vendors';
import { cn } from '@/lib/utils';
import { useAcceptLead } from '../api/accept-lead';
import { useDeclineLead } from '../api/decline-lead';
import { LEADS_PAGE, useLeads } from '../api/list-leads';
import { DeclineDialog } from './decline-dialog';
import { LEAD_STATUS_LABELS, LeadCard, leadTitle } from './lead-card';

/** /vendor/leads (issue 9): the leads routed to the selected verified workspace, to accept or decline. */
/** `user`: the signed-in user, whose own referrals among the leads are shown as theirs (nothing to decide). */
export function LeadsPage({ user }: { user?: User }) {
  const mine = useMyVendors();
  const [wanted, select] = useVendorParam();

  if (mine.isPending) return <PageSpinner label="Loading your workspaces" />;
  if (mine.isError)
    return <LoadFailed text={errorText(mine.error, 'Please try again.')} retry={() => void mine.refetch()} />;
  const vendors = mine.data.vendors;
  const vendor = chooseVendor(vendors, wanted);

  return (
    <Page vendor={vendor}>
      <WorkspacePicker vendors={vendors} value={vendor?.id} onChange={select} />
      {!vendor ? (
        <WorkspaceNotice problem="none" action="receive leads" />
      ) : !vendor.verified ? (
        <WorkspaceNotice problem="unverified" vendor={vendor} action="receive leads" />
      ) : (
        <LeadList key={vendor.id} vendor={vendor} email={user?.email ?? null} />
      )}
    </Page>
  );
}

function Page({ vendor, children }: { vendor: Vendor | null; children: ReactNode }) {
  return (
    <section className="mx-auto grid w-full max-w-4xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
      <header className="grid gap-2">
        <h1 className="text-3xl font-bold tracking-tight">Lead Inbox</h1>
        <p className="text-muted-foreground">
          Clients referrers send {vendor ? `to ${vendor.name}` : 'you'}. Accept the ones you will follow up; decline the
          others with a reason the referrer reads.
        </p>
        {vendor ? (
          <p className="text-sm">
            <Link to={withVendor(paths.vendor, vendor.id)} className="text-primary underline-offset-4 hover:underline">
              Workspace settings
            </Link>
          </p>
        ) : null}
      </header>
      {children}
    </section>
  );
}

function LoadFailed({ text, retry }: { text: string; retry: () => void }) {
  return (
    <Page vendor={null}>
      <Card>
        <CardContent className="grid justify-items-center gap-3 py-12 text-center">
          <AlertCircle className="size-8 text-destructive" aria-hidden="true" />
          <p role="alert" className="font-semibold">
            Failed to load the leads
          </p>
          <p className="text-sm text-muted-foreground">{text}</p>
          <Button variant="outline" onClick={retry}>
            <RefreshCw aria-hidden="true" />
            Try again
          </Button>
        </CardContent>
      </Card>
    </Page>
  );
}

const FILTERS: Array<LeadState | 'all'> = ['all', ...LEAD_STATES];

function LeadList({ vendor, email }: { vendor: Vendor; email: string | null }) {
  const [status, setStatus] = useState<LeadState | 'all'>('all');
  // The pages turned so far: the last lead of each page before this one (none on the first page).
  const [cursors, setCursors] = useState<number[]>([]);
  const leads = useLeads(vendor.id, { status: status === 'all' ? undefined : status, before: cursors.at(-1) });
  const shown = leads.data?.slice(0, LEADS_PAGE) ?? [];
  const older = (leads.data?.length ?? 0) > LEADS_PAGE;
  const turn = (next: number[]) => {
    setCursors(next);
    window.scrollTo?.({ top: 0 });
  };
  const accept = useAcceptLead(vendor.id);
  const decline = useDeclineLead(vendor.id);
  const [declining, setDeclining] = useState<Lead | null>(null);

  const onAccept = (lead: Lead) =>
    accept.mutate(lead.referralId, {
      onSuccess: () =>
        toast({
          title: 'Lead accepted',
          description: `${lead.referrer.name || 'The referrer'} will be told by email.`,
        }),
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to accept the lead') }),
    });

  const onDecline = async (reason: string) => {
    if (!declining) return;
    const lead = declining;
    try {
      await decline.mutateAsync({ referralId: lead.referralId, reason });
      setDeclining(null);
      toast({ title: 'Lead declined', description: `${lead.referrer.name || 'The referrer'} will be told why.` });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: errorText(error, 'Failed to decline the lead') });
      throw error;
    }
  };

  return (
    <>
      <div role="group" aria-label="Show leads" className="flex flex-wrap gap-2">
        {FILTERS.map((filter) => (
          <Button
            key={filter}
            size="sm"
            variant={status === filter ? 'secondary' : 'ghost'}
            aria-pressed={status === filter}
            onClick={() => {
              setStatus(filter);
              setCursors([]);
            }}
            className={cn(status === filter && 'ring-1 ring-border')}
          >
            {filter === 'all' ? 'All' : LEAD_STATUS_LABELS[filter]}
          </Button>
        ))}
      </div>

      <div aria-busy={leads.isFetching} className="grid gap-4">
        {leads.isError ? (
          <Card>
            <CardContent className="grid justify-items-center gap-3 py-12 text-center">
              <AlertCircle className="size-8 text-destructive" aria-hidden="true" />
              <p role="alert" className="font-semibold">
                Failed to load the leads
              </p>
              <p className="text-sm text-muted-foreground">{errorText(leads.error, 'Please try again.')}</p>
              <Button variant="outline" onClick={() => void leads.refetch()}>
                <RefreshCw aria-hidden="true" />
                Try again
              </Button>
            </CardContent>
          </Card>
        ) : leads.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner className="size-8" label="Loading leads" />
          </div>
        ) : shown.length === 0 ? (
          <Card>
            <CardContent className="grid justify-items-center gap-2 py-12 text-center">
              <Inbox className="size-10 text-muted-foreground" aria-hidden="true" />
              <h2 className="text-lg font-semibold">
                {status === 'all' ? 'No leads yet' : `No ${LEAD_STATUS_LABELS[status].toLowerCase()} leads`}
              </h2>
              <p className="max-w-md text-sm text-muted-foreground">
                {status === 'all'
                  ? `When a referrer sends ${vendor.name} a client who fits your lead criteria, it shows here and ${vendor.leadInbox} gets an email.`
                  : 'Choose All to see every lead.'}
              </p>
            </CardContent>
          </Card>
        ) : (
          <ul className="grid gap-4" aria-label="Leads">
            {shown.map((lead) => (
              <li key={lead.referralId}>
                <LeadCard
                  vendorId={vendor.id}
                  lead={lead}
                  own={email !== null && lead.referrer.email.toLowerCase() === email.toLowerCase()}
                  busy={(accept.isPending && accept.variables === lead.referralId) || decline.isPending}
                  onAccept={() => onAccept(lead)}
                  onDecline={() => setDeclining(lead)}
                />
              </li>
            ))}
          </ul>
        )}
      </div>

      {cursors.length > 0 || older ? (
        <nav aria-label="Lead pages" className="flex flex-wrap items-center justify-between gap-2">
          <Button variant="outline" disabled={cursors.length === 0} onClick={() => turn(cursors.slice(0, -1))}>
            Newer leads
          </Button>
          <span className="text-sm text-muted-foreground">Page {cursors.length + 1}</span>
          <Button
            variant="outline"
            disabled={!older || leads.isPlaceholderData}
            onClick={() => turn([...cursors, shown.at(-1)!.referralId])}
          >
            Older leads
          </Button>
        </nav>
      ) : null}

      <DeclineDialog
        client={declining ? leadTitle(declining) : ''}
        open={declining !== null}
        onCancel={() => setDeclining(null)}
        onDecline={onDecline}
      />
    </>
  );
}
