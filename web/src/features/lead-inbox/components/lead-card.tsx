import type { Lead, LeadState } from '@app/contracts';
import { Check, Loader2, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { FIT_LABELS, fitVerdict, IcpFitList } from '@/components/referral/icp-fit';
import { ReferralTimeline } from '@/components/referral/referral-timeline';
import { formatDate, formatDateTime } from '@/lib/dates';
import { LeadMoney } from './lead-money';

export const LEAD_STATUS_LABELS: Record<LeadState, string> = {
  new: 'New',
  accepted: 'Accepted',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
};

const STATUS_VARIANT = { new: 'info', accepted: 'success', declined: 'destructive', withdrawn: 'secondary' } as const;
const FIT_VARIANT = { fits: 'success', fails: 'destructive', unknown: 'warning', none: 'secondary' } as const;

/** The client organization's name, else the contact's. */
export const leadTitle = (lead: Lead) =>
  lead.client?.name || `${lead.contact.firstName} ${lead.contact.lastName}`.trim() || lead.contact.email;

/**
 * One lead: the client and its contact, who referred it and why, the ICP fit in plain words, the intro email
 * (the draft until the referrer sends it), its timeline, and Accept / Decline while it is new.
 */
export function LeadCard({
  vendorId,
  lead,
  own = false,
  busy,
  onAccept,
  onDecline,
}: {
  vendorId: string;
  lead: Lead;
  /** The signed-in member referred it: another member decides it and confirms its milestones (OWN_LEAD). */
  own?: boolean;
  /** 'accept' while this lead's acceptance is being saved. */
  busy: boolean;
  onAccept: () => void;
  onDecline: () => void;
}) {
  const title = leadTitle(lead);
  const titleId = `lead-${lead.referralId}-title`;
  // Deciding removes Accept and Decline: the keyboard lands on the lead's title, not back at the page's top.
  const titleRef = useRef<HTMLHeadingElement>(null);
  const decidedFrom = useRef(lead.status);
  useEffect(() => {
    const wasNew = decidedFrom.current === 'new';
    decidedFrom.current = lead.status;
    if (!wasNew || lead.status === 'new') return;
    const active = document.activeElement;
    if (!active || active === document.body) titleRef.current?.focus();
  }, [lead.status]);
  const contact = `${lead.contact.firstName} ${lead.contact.lastName}`.trim();
  const client = lead.client;
  const facts = client ? [client.size, client.country, client.industry].filter(Boolean).join(' · ') : '';
  const verdict = fitVerdict(lead.fit);

  return (
    <Card role="article" aria-labelledby={titleId} className="wrap-anywhere">
      <CardHeader className="gap-2 pb-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 id={titleId} ref={titleRef} tabIndex={-1} className="text-lg font-semibold wrap-anywhere outline-none">
              {title}
            </h2>
            {facts ? <p className="text-sm text-muted-foreground">{facts}</p> : null}
            {client?.website ? <p className="text-sm break-all text-muted-foreground">{client.website}</p> : null}
          </div>
          <Badge variant={STATUS_VARIANT[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</Badge>
        </div>
      </CardHeader>
      <CardContent className="grid gap-5">
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[9rem_1fr]">
          <dt className="text-muted-foreground">Contact</dt>
          <dd className="wrap-anywhere">
            {contact ? `${contact} · ` : null}
            <a className="text-primary underline underline-offset-4" href={`mailto:${lead.contact.email}`}>
              {lead.contact.email}
            </a>
          </dd>
          <dt className="text-muted-foreground">Referred by</dt>
          <dd className="wrap-anywhere">
            {[lead.referrer.name, lead.referrer.company].filter(Boolean).join(', ')}
            {lead.referrer.email ? ` (${lead.referrer.email})` : null}
          </dd>
          <dt className="text-muted-foreground">Product</dt>
          <dd>{lead.productName}</dd>
          <dt className="text-muted-foreground">Received</dt>
          <dd>
            <time dateTime={lead.createdAt}>{formatDate(lead.createdAt)}</time>
          </dd>
          <dt className="text-muted-foreground">Reference</dt>
          <dd>{`Referral ${lead.referralId}`}</dd>
          <dt className="text-muted-foreground">Why a good fit</dt>
          <dd className="whitespace-pre-wrap wrap-anywhere">{lead.reason}</dd>
          {lead.notes ? (
            <>
              <dt className="text-muted-foreground">Notes</dt>
              <dd className="whitespace-pre-wrap wrap-anywhere">{lead.notes}</dd>
            </>
          ) : null}
        </dl>

        <section aria-labelledby={`${titleId}-fit`} className="grid gap-2 rounded-lg border border-border p-3">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={`${titleId}-fit`} className="text-sm font-semibold">
              Ideal customer fit
            </h3>
            <Badge variant={FIT_VARIANT[verdict]}>{FIT_LABELS[verdict]}</Badge>
          </div>
          {lead.fit && verdict !== 'none' ? (
            <IcpFitList fit={lead.fit} />
          ) : (
            <p className="text-sm text-muted-foreground">Set your lead criteria to see how each lead fits.</p>
          )}
        </section>

        {lead.status === 'declined' && lead.declineReason ? (
          <p className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
            <span className="font-medium">Declined{lead.decidedAt ? ` on ${formatDate(lead.decidedAt)}` : ''}: </span>
            {lead.declineReason}
          </p>
        ) : null}
        {lead.status === 'withdrawn' ? (
          <p className="rounded-lg bg-muted p-3 text-sm">
            {`${lead.referrer.name || 'The referrer'} withdrew this referral: there is nothing to accept, decline or confirm.`}
          </p>
        ) : null}
        {lead.status === 'accepted' ? (
          <p className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
            Accepted{lead.decidedAt ? ` on ${formatDate(lead.decidedAt)}` : ''}. The referrer has been told.
          </p>
        ) : null}

        <LeadMoney vendorId={vendorId} lead={lead} title={title} own={own} />

        <details className="group rounded-lg border border-border">
          <summary className="cursor-pointer rounded-lg p-3 text-sm font-semibold focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            {lead.introEmail?.sentAt
              ? `Intro email, sent ${formatDateTime(lead.introEmail.sentAt)}`
              : 'Intro email (draft, not sent yet)'}
          </summary>
          <div className="grid gap-2 border-t border-border p-3 text-sm">
            {lead.introEmail ? (
              <>
                <p className="font-medium wrap-anywhere">{lead.introEmail.subject}</p>
                <p className="whitespace-pre-wrap wrap-anywhere text-muted-foreground">{lead.introEmail.body}</p>
              </>
            ) : (
              <p className="text-muted-foreground">The referrer's intro email is still being prepared.</p>
            )}
          </div>
        </details>

        <details className="rounded-lg border border-border">
          <summary className="cursor-pointer rounded-lg p-3 text-sm font-semibold focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            Timeline
          </summary>
          <div className="border-t border-border p-3 pl-6">
            <ReferralTimeline entries={lead.timeline} label={`Timeline of ${title}`} />
          </div>
        </details>

        {lead.status === 'new' && own ? (
          <p className="rounded-lg bg-muted p-3 text-sm">
            This is your own referral: another member of the workspace accepts or declines it.
          </p>
        ) : lead.status === 'new' ? (
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onDecline} disabled={busy} aria-label={`Decline ${title}`}>
              <X aria-hidden="true" />
              Decline
            </Button>
            <Button onClick={onAccept} disabled={busy} aria-label={`Accept ${title}`}>
              {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Check aria-hidden="true" />}
              Accept
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
