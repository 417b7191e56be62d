import {
  STATUS_LABELS,
  type Milestone,
  type ReferralListItem as Referral,
  type ReferralList,
  type ReferralStatus,
} from '@app/contracts';
import { milestoneLabel, possessive } from '@app/domain';
import { CheckCircle2, CircleDollarSign, Inbox, Mail, Repeat, Send } from 'lucide-react';
import { useState } from 'react';
import { CommissionList, MilestoneList, RetentionWait, retentionWaits } from '@/components/money/milestones';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { IcpFitList } from '@/components/referral/icp-fit';
import { ReferralTimeline } from '@/components/referral/referral-timeline';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { buildTimeline } from '../utils/timeline';
import { AskConfirmationDialog } from './ask-confirmation-dialog';
import { WithdrawReferral } from './withdraw-referral';
import { bountyText, destinationCompany, formatDate, referredName, STATUS_BADGE } from './format';

/** Spec 4: the Mark Milestone buttons and the status each sets (none sets 'declined'). */
export const MILESTONES: Array<{ label: string; status: ReferralStatus }> = [
  { label: 'Warm Intro', status: 'intro_made' },
  { label: 'Demo Scheduled', status: 'intro_accepted' },
  { label: 'Intro Occurred', status: 'intro_occurred' },
  { label: 'Closed-Won', status: 'became_customer' },
];

export function ReferralSheet({
  referral,
  reciprocity,
  pendingStatus,
  onMark,
  onOpenChange,
}: {
  referral: Referral | null;
  reciprocity: ReferralList['reciprocity'] | undefined;
  /** The milestone being saved, if any. */
  pendingStatus: ReferralStatus | null;
  onMark: (status: ReferralStatus) => void;
  onOpenChange: (open: boolean) => void;
}) {
  // The vendor's decline ends the lead: the server refuses any other stage (REFERRAL_ENDED).
  const declinedBy = referral?.lead?.status === 'declined' ? referral.lead.vendorName : null;
  return (
    <Sheet open={referral !== null} onOpenChange={onOpenChange}>
      {referral ? (
        <SheetContent aria-describedby="referral-sheet-description">
          <SheetHeader>
            <SheetTitle>{referredName(referral)}</SheetTitle>
            <SheetDescription id="referral-sheet-description">
              {[referral.project.productName, destinationCompany(referral)].filter(Boolean).join(' · ')}
            </SheetDescription>
            <div className="mt-2">
              <Badge variant={STATUS_BADGE[referral.status]}>{STATUS_LABELS[referral.status]}</Badge>
            </div>
          </SheetHeader>

          <div className="grid gap-6 p-6">
            <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Email</dt>
              <dd className="break-all">{referral.referredEmail}</dd>
              <dt className="text-muted-foreground">Date Submitted</dt>
              <dd>{formatDate(referral.createdAt)}</dd>
              <dt className="text-muted-foreground">Reference</dt>
              <dd>{`Referral ${referral.id}`}</dd>
              <dt className="text-muted-foreground">Bounty</dt>
              <dd>
                <BountyValue referral={referral} />
              </dd>
              {referral.client ? (
                <>
                  <dt className="text-muted-foreground">Client organization</dt>
                  <dd>{clientText(referral.client)}</dd>
                </>
              ) : null}
              {referral.referralReason ? (
                <>
                  <dt className="text-muted-foreground">Why a good fit</dt>
                  <dd className="whitespace-pre-wrap">{referral.referralReason}</dd>
                </>
              ) : null}
              {referral.notes ? (
                <>
                  <dt className="text-muted-foreground">Your notes</dt>
                  <dd className="whitespace-pre-wrap">{referral.notes}</dd>
                </>
              ) : null}
            </dl>

            <VendorDecision referral={referral} />

            <section aria-labelledby="milestone-heading" className="grid gap-3">
              <h3 id="milestone-heading" className="text-sm font-semibold">
                Mark Milestone
              </h3>
              <p className="text-sm text-muted-foreground">
                {declinedBy
                  ? `${declinedBy} declined this lead: its stage can no longer change.`
                  : 'Stages you mark are for your own tracking. Commissions count once the vendor confirms.'}
              </p>
              <div className="grid grid-cols-2 gap-2">
                {MILESTONES.map(({ label, status }) => {
                  const current = referral.status === status;
                  return (
                    <Button
                      key={status}
                      variant={current ? 'secondary' : 'outline'}
                      disabled={current || pendingStatus !== null || declinedBy !== null}
                      aria-pressed={current}
                      onClick={() => onMark(status)}
                    >
                      {pendingStatus === status ? (
                        <Spinner className="size-4 text-current" label="Saving" />
                      ) : current ? (
                        <CheckCircle2 aria-hidden="true" />
                      ) : null}
                      {label}
                    </Button>
                  );
                })}
              </div>
            </section>

            <MoneyPanel referral={referral} />

            <WithdrawReferral referral={referral} pendingStatus={pendingStatus} onMark={onMark} />

            <section aria-labelledby="timeline-heading" className="grid gap-3">
              <h3 id="timeline-heading" className="text-sm font-semibold">
                Activity
              </h3>
              <ReferralTimeline entries={buildTimeline(referral)} />
            </section>

            <section aria-labelledby="reciprocity-heading" className="grid gap-3">
              <h3 id="reciprocity-heading" className="flex items-center gap-2 text-sm font-semibold">
                <Repeat className="size-4 text-primary" aria-hidden="true" />
                Reciprocity
              </h3>
              {reciprocity ? (
                <dl className="grid grid-cols-3 gap-2 rounded-lg border border-border p-3 text-center">
                  <div>
                    <dt className="text-xs text-muted-foreground">Sent</dt>
                    <dd className="text-lg font-semibold tabular-nums">{reciprocity.sent}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-muted-foreground">Received</dt>
                    <dd className="text-lg font-semibold tabular-nums">{reciprocity.received}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-muted-foreground">Give-get</dt>
                    <dd className="text-lg font-semibold tabular-nums">{`${reciprocity.sent}:${reciprocity.received}`}</dd>
                  </div>
                </dl>
              ) : null}
            </section>

            {/* In Declined an unsent intro is never sent (REFERRAL_DECLINED): nothing to review. */}
            {referral.emailSentAt || referral.status !== 'declined' ? (
              <Button asChild variant="outline">
                <Link to={paths.referralDraft(referral.id)}>
                  <Mail aria-hidden="true" />
                  {referral.emailSentAt ? 'View intro email' : 'Review intro email'}
                </Link>
              </Button>
            ) : null}
          </div>
        </SheetContent>
      ) : null}
    </Sheet>
  );
}

/** Where the referral went and what the vendor decided (issue 9): accepted, declined with its reason, or waiting. */
function VendorDecision({ referral }: { referral: Referral }) {
  const lead = referral.lead;
  const decided = lead?.decidedAt ? ` on ${formatDate(lead.decidedAt)}` : '';
  return (
    <section aria-labelledby="vendor-heading" className="grid gap-3">
      <h3 id="vendor-heading" className="flex items-center gap-2 text-sm font-semibold">
        <Inbox className="size-4 text-primary" aria-hidden="true" />
        Vendor
      </h3>
      {!lead ? (
        <p className="text-sm text-muted-foreground">
          {`${destinationCompany(referral) || 'This vendor'} is not on Referral Hub yet: the intro goes to your client only.`}
        </p>
      ) : lead.status === 'accepted' ? (
        <p className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
          {`${lead.vendorName} accepted this lead${decided}.`}
        </p>
      ) : lead.status === 'declined' ? (
        <div className="grid gap-1 rounded-lg bg-red-50 p-3 text-sm text-red-900">
          <p className="font-medium">{`${lead.vendorName} declined this lead${decided}.`}</p>
          {lead.declineReason ? <p className="whitespace-pre-wrap">{`Reason: ${lead.declineReason}`}</p> : null}
        </div>
      ) : lead.status === 'withdrawn' ? (
        <p className="text-sm text-muted-foreground">
          {`You withdrew this referral: ${lead.vendorName} sees it as withdrawn and has nothing to decide. Moving it out of Declined opens it again.`}
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">
          {`Sent to ${possessive(lead.vendorName)} lead inbox. Waiting for ${lead.vendorName} to accept it.`}
        </p>
      )}
      {referral.fit &&
      (referral.fit.fits.length > 0 || referral.fit.fails.length > 0 || referral.fit.unknown.length > 0) ? (
        <div className="grid gap-2">
          <p className="text-sm font-medium">{`How the client fits ${possessive(lead?.vendorName ?? 'the vendor')} ideal customer profile`}</p>
          <IcpFitList fit={referral.fit} />
        </div>
      ) : null}
    </section>
  );
}

export function BountyValue({ referral }: { referral: Referral }) {
  const bounty = bountyText(referral);
  if (bounty.kind === 'none') return <span className="text-muted-foreground">TBD</span>;
  return (
    <span className="whitespace-nowrap">
      <span className="font-medium tabular-nums">{bounty.text}</span>
      <span className="text-xs text-muted-foreground">{bounty.kind === 'earned' ? ' earned' : ' expected'}</span>
    </span>
  );
}

/**
 * Issue 10: the milestones the vendor confirms (each with its bounty and state) and the commissions they
 * earned the referrer; an open milestone can be asked for ("Ask the vendor to confirm").
 */
function MoneyPanel({ referral }: { referral: Referral }) {
  const [asking, setAsking] = useState<Milestone | null>(null);
  const lead = referral.lead;
  const closed = referral.status === 'declined' || lead?.status === 'declined';
  const canAsk = lead !== null && !closed;
  return (
    <section aria-labelledby="money-heading" className="grid gap-3">
      <h3 id="money-heading" className="flex items-center gap-2 text-sm font-semibold">
        <CircleDollarSign className="size-4 text-primary" aria-hidden="true" />
        Milestones
      </h3>
      <p className="text-sm text-muted-foreground">
        {!lead
          ? 'This vendor is not on Referral Hub, so no one can confirm milestones yet.'
          : closed
            ? 'This referral was declined or withdrawn: its milestones cannot be confirmed.'
            : `${lead.vendorName} confirms each milestone; its bounty becomes your commission then.`}
      </p>
      <MilestoneList
        money={referral.money}
        label="Milestones"
        action={(state) =>
          canAsk && (state.state === 'open' || state.state === 'requested') ? (
            // Not askable before the vendor can confirm it.
            retentionWaits(referral.money.milestones, state) ? (
              <RetentionWait state={state} />
            ) : (
              <Button
                size="sm"
                variant="outline"
                onClick={() => setAsking(state.milestone)}
                aria-label={`Ask the vendor to confirm ${milestoneLabel(state.milestone)}`}
              >
                <Send aria-hidden="true" />
                Ask the vendor to confirm
              </Button>
            )
          ) : null
        }
      />
      <h4 className="text-sm font-semibold">Commissions</h4>
      <CommissionList
        commissions={referral.money.commissions}
        amount="referrer"
        label="Commissions"
        empty="No commission yet."
      />
      <AskConfirmationDialog referral={referral} milestone={asking} onClose={() => setAsking(null)} />
    </section>
  );
}

/** The client organization in one line, as the vendor's lead card shows it: name, size, country, industry, website. */
function clientText(client: NonNullable<Referral['client']>): string {
  return [client.name, client.size, client.country, client.industry, client.website].filter(Boolean).join(' · ');
}
