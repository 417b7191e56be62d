import {
  AdminConfirmMilestoneRequest,
  ERRORS,
  MILESTONES,
  MilestoneName,
  PAYOUT_METHOD_LABELS,
  PAYOUT_METHODS,
  RecordPayoutRequest,
  ReverseDealRequest,
  type ErrorCode,
  type PayoutDue,
} from '@app/contracts';
import { formatCents, milestoneLabel, possessive } from '@app/domain';
import { AlertCircle, ArrowDownToLine, Loader2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { Form, FormInput, FormSelect, FormTextarea } from '@/components/ui/form';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { errorText } from '@/lib/errors';
import { optionalDollarsToCents } from '@/lib/money-form';
import {
  payoutExportHref,
  useAdminConfirmMilestone,
  useAdminReverseDeal,
  usePayouts,
  usePayoutsDue,
  useRecordPayout,
} from '../api/payouts';
import { ReferralLookup, referralIdField } from './referral-lookup';

/** The refusals of the money administration, said with the server's texts (chosen by code). */
const CODES: ErrorCode[] = [
  'PAYOUT_CONFLICT',
  'PAYOUT_REFERENCE_TAKEN',
  'REFERRAL_NOT_FOUND',
  'REFERRAL_NOT_ROUTED',
  'VENDOR_NOT_VERIFIED',
  'LEAD_DECLINED',
  'MILESTONE_ALREADY_CONFIRMED',
  'MILESTONE_NEEDS_CLOSED_WON',
  'RETENTION_NOT_DUE',
  'DEAL_VALUE_REQUIRED',
  'DEAL_VALUE_NOT_EXPECTED',
  'DEAL_VALUE_TOO_LARGE',
  'NOTHING_TO_REVERSE',
];
const refusalText = (error: unknown, fallback: string) => {
  const code = CODES.find((c) => isApiError(error, c));
  return code ? ERRORS[code].message : errorText(error, fallback);
};

function Failure({ text }: { text: string | null }) {
  return text ? (
    <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
      {text}
    </p>
  ) : null;
}

/** A moment's date in the browser's time zone: what "Paid on" means to the administrator (UTC's date is tomorrow's in a US evening). */
const localDate = (at: Date) => new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
const today = () => localDate(new Date());
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Admin → Payouts (issue 10): what is due per referrer, recording a payout, the payouts made, and corrections. */
export function PayoutsPanel() {
  return (
    <div className="grid gap-8">
      <PayoutsDue />
      <PayoutsMade />
      <div className="grid gap-8 lg:grid-cols-2">
        <RecordMilestone />
        <ReverseDeal />
      </div>
    </div>
  );
}

const PayoutForm = RecordPayoutRequest.pick({ reference: true, method: true, paidOn: true });

function PayoutsDue() {
  const due = usePayoutsDue();
  const record = useRecordPayout();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);

  const groups = due.data ?? [];
  const all = groups.flatMap((group) => group.commissions);
  // Only commissions still listed count (a reload may have dropped some).
  const selected = all.filter((c) => chosen.has(c.id));
  const currency = groups[0]?.currency ?? 'USD';
  // A payout cannot predate what it pays (PAYOUT_BEFORE_EARNED): the picker starts at the last one earned.
  const earliest = selected.length
    ? localDate(new Date(Math.max(...selected.map((c) => Date.parse(c.earnedAt)))))
    : undefined;
  const toggle = (ids: string[], on: boolean) => {
    // A new choice answers the last failure ("Please choose the commissions paid", a conflict): it goes.
    setFailure(null);
    setChosen((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Payouts due</CardTitle>
        <CardDescription>
          Commissions in escrow, per referrer. Choose the ones you paid, then record the payment.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {due.isError ? (
          <div className="grid justify-items-start gap-2">
            <p role="alert" className="flex items-center gap-2 font-semibold">
              <AlertCircle className="size-4 text-destructive" aria-hidden="true" />
              Failed to load the payouts due
            </p>
            <p className="text-sm text-muted-foreground">{errorText(due.error, 'Please try again.')}</p>
            <Button variant="outline" size="sm" onClick={() => void due.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : due.isPending ? (
          <Spinner className="size-6" label="Loading the payouts due" />
        ) : groups.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing is due: no commission is in escrow.</p>
        ) : (
          <div className="grid gap-4">
            {groups.map((group) => (
              <ReferrerDue key={group.referrer.userId} group={group} chosen={chosen} onToggle={toggle} />
            ))}
          </div>
        )}

        {/* Nothing to choose, nothing to record: the form comes with the commissions due. */}
        {groups.length === 0 ? null : (
          <Form
            schema={PayoutForm}
            defaultValues={{ reference: '', method: 'bank_transfer', paidOn: today() }}
            aria-label="Record payout"
            className="grid gap-4 rounded-lg border border-border p-4"
            onSubmit={async (values, form) => {
              setFailure(null);
              if (selected.length === 0) {
                setFailure('Please choose the commissions paid');
                return;
              }
              const payout = await record.mutateAsync({ ...values, commissionIds: selected.map((c) => c.id) });
              setChosen(new Set());
              form.reset({ reference: '', method: values.method, paidOn: values.paidOn });
              toast({
                title: 'Payout recorded',
                description: `${payout.reference}: ${formatCents(payout.totalCents, payout.currency)} to ${payout.referrers.length} referrer${payout.referrers.length === 1 ? '' : 's'}.`,
              });
            }}
            onError={(error) =>
              // The list is read again after every refusal (useMoneyMutation): say so, not "Reload the list".
              setFailure(
                isApiError(error, 'PAYOUT_CONFLICT')
                  ? 'Some of these commissions are already paid, reversed or unknown. The list is up to date now: choose again.'
                  : refusalText(error, 'Failed to record the payout'),
              )
            }
          >
            {({ formState }) => (
              <>
                <h3 className="text-base font-semibold">Record payout</h3>
                <p className="text-sm" aria-live="polite">
                  {`${selected.length} commission${selected.length === 1 ? '' : 's'} chosen, ${formatCents(
                    sum(selected.map((c) => c.referrerCents)),
                    currency,
                  )} in total`}
                </p>
                <div className="grid gap-4 sm:grid-cols-3">
                  <FormInput name="reference" id="payout-reference" label="Payment reference" autoComplete="off" />
                  <FormSelect name="method" id="payout-method" label="Method">
                    {PAYOUT_METHODS.map((method) => (
                      <option key={method} value={method}>
                        {PAYOUT_METHOD_LABELS[method]}
                      </option>
                    ))}
                  </FormSelect>
                  <FormInput
                    name="paidOn"
                    id="payout-paid-on"
                    label="Paid on"
                    type="date"
                    min={earliest}
                    max={today()}
                  />
                </div>
                <Failure text={failure} />
                <div>
                  <Button type="submit" disabled={formState.isSubmitting}>
                    {formState.isSubmitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                    Record payout
                  </Button>
                </div>
              </>
            )}
          </Form>
        )}
      </CardContent>
    </Card>
  );
}

function ReferrerDue({
  group,
  chosen,
  onToggle,
}: {
  group: PayoutDue;
  chosen: Set<string>;
  onToggle: (ids: string[], on: boolean) => void;
}) {
  const ids = group.commissions.map((c) => c.id);
  const allChosen = ids.length > 0 && ids.every((id) => chosen.has(id));
  const key = group.referrer.userId;
  return (
    <fieldset className="grid gap-2 rounded-lg border border-border p-3">
      {/* Floated, the legend sits inside the box as a heading: in the border it wrapped across it on a phone. */}
      <legend className="float-left w-full text-sm font-semibold wrap-anywhere">
        {`${group.referrer.name} (${group.referrer.email}): ${formatCents(group.totalCents, group.currency)} due`}
      </legend>
      <CheckboxField
        id={`due-all-${key}`}
        label={`All of ${possessive(group.referrer.name)} commissions`}
        checked={allChosen}
        onChange={(event) => onToggle(ids, event.target.checked)}
      />
      <ul className="grid gap-2 pl-4" aria-label={`Commissions due to ${group.referrer.name}`}>
        {group.commissions.map((c) => (
          <li key={c.id}>
            <CheckboxField
              id={`due-${c.id}`}
              label={`${formatCents(c.referrerCents, c.currency)}: ${milestoneLabel(c.milestone)}, ${c.contact} at ${c.partner}`}
              hint={`Referral ${c.referralId} · earned ${formatDate(c.earnedAt)} · gross ${formatCents(c.grossCents, c.currency)}`}
              checked={chosen.has(c.id)}
              onChange={(event) => onToggle([c.id], event.target.checked)}
            />
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

function PayoutsMade() {
  const payouts = usePayouts();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recorded payouts</CardTitle>
        <CardDescription>Newest first. Export a payout as CSV for your accounting.</CardDescription>
      </CardHeader>
      <CardContent>
        {payouts.isError ? (
          <p role="alert" className="text-sm">
            {`Failed to load the payouts. ${errorText(payouts.error, 'Please try again.')}`}
          </p>
        ) : payouts.isPending ? (
          <Spinner className="size-6" label="Loading the payouts" />
        ) : payouts.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No payout recorded yet.</p>
        ) : (
          <div className="overflow-x-auto" role="region" aria-label="Recorded payouts" tabIndex={0}>
            <table className="stack-table w-full text-left text-sm sm:min-w-[36rem]">
              <thead>
                <tr className="border-b border-border text-muted-foreground">
                  {['Reference', 'Method', 'Paid on', 'Referrers', 'Total', 'Export'].map((header) => (
                    <th key={header} scope="col" className="py-2 pr-3 font-medium">
                      {header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {payouts.data.map((payout) => (
                  <tr key={payout.id} className="border-b border-border/50 align-top">
                    <th scope="row" className="py-2 pr-3 font-medium" data-label="Reference">
                      {payout.reference}
                    </th>
                    <td className="py-2 pr-3" data-label="Method">
                      {PAYOUT_METHOD_LABELS[payout.method]}
                    </td>
                    <td className="py-2 pr-3 sm:whitespace-nowrap" data-label="Paid on">
                      {formatDate(`${payout.paidOn}T12:00:00Z`)}
                    </td>
                    <td className="py-2 pr-3" data-label="Referrers">
                      {payout.referrers.map((r) => r.name).join(', ')}
                    </td>
                    <td className="py-2 pr-3 tabular-nums" data-label="Total">
                      {formatCents(payout.totalCents, payout.currency)}
                    </td>
                    <td className="py-2" data-label="Export">
                      <a
                        href={payoutExportHref(payout)}
                        download
                        className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline"
                        aria-label={`Export CSV of payout ${payout.reference}`}
                      >
                        <ArrowDownToLine className="size-4" aria-hidden="true" />
                        Export CSV
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

const MilestoneForm = z.object({
  referralId: referralIdField,
  milestone: MilestoneName,
  dealValueCents: optionalDollarsToCents,
  note: AdminConfirmMilestoneRequest.shape.note,
});

function RecordMilestone() {
  const confirm = useAdminConfirmMilestone();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Record a milestone for a vendor</CardTitle>
        <CardDescription>
          When a vendor cannot confirm it themselves. Your note and your name go into the ledger.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          schema={MilestoneForm}
          defaultValues={{ referralId: '', milestone: 'qualifiedLead', dealValueCents: '', note: '' }}
          aria-label="Record a milestone for a vendor"
          className="grid gap-4"
          onSubmit={async ({ referralId, milestone, dealValueCents, note }, form) => {
            setFailure(null);
            await confirm.mutateAsync({
              id: Number(referralId),
              body: { milestone, note, ...(dealValueCents !== undefined ? { dealValueCents } : {}) },
            });
            form.reset();
            toast({
              title: 'Milestone recorded',
              description: `${milestoneLabel(milestone)} of referral ${referralId}.`,
            });
          }}
          onError={(error) => setFailure(refusalText(error, 'Failed to record the milestone'))}
        >
          {({ formState }) => (
            <>
              <div className="grid gap-2">
                <FormInput
                  name="referralId"
                  id="admin-milestone-referral"
                  label="Referral id or link"
                  autoComplete="off"
                  placeholder="e.g. 1042, or the referral's link"
                />
                <ReferralLookup name="referralId" />
              </div>
              <FormSelect name="milestone" id="admin-milestone" label="Milestone">
                {MILESTONES.map((m) => (
                  <option key={m} value={m}>
                    {milestoneLabel(m)}
                  </option>
                ))}
              </FormSelect>
              <FormInput
                name="dealValueCents"
                id="admin-milestone-value"
                label="Deal value (USD; expected at Opportunity, actual at Closed-Won)"
                inputMode="decimal"
                autoComplete="off"
                placeholder="e.g. 24,000"
              />
              <FormTextarea name="note" id="admin-milestone-note" label="Note (required)" rows={2} />
              <Failure text={failure} />
              <div>
                <Button type="submit" disabled={formState.isSubmitting}>
                  Record milestone
                </Button>
              </div>
            </>
          )}
        </Form>
      </CardContent>
    </Card>
  );
}

const ReverseForm = z.object({ referralId: referralIdField, reason: ReverseDealRequest.shape.reason });

function ReverseDeal() {
  const reverse = useAdminReverseDeal();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Reverse a deal</CardTitle>
        <CardDescription>Every unpaid commission of the referral is reversed; paid ones stay paid.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          schema={ReverseForm}
          defaultValues={{ referralId: '', reason: '' }}
          aria-label="Reverse a deal"
          className="grid gap-4"
          onSubmit={async ({ referralId, reason }, form) => {
            setFailure(null);
            await reverse.mutateAsync({ id: Number(referralId), reason });
            form.reset();
            toast({ title: 'Deal reversed', description: `Referral ${referralId}: unpaid commissions reversed.` });
          }}
          onError={(error) => setFailure(refusalText(error, 'Failed to reverse the deal'))}
        >
          {({ formState }) => (
            <>
              <div className="grid gap-2">
                <FormInput
                  name="referralId"
                  id="admin-reverse-referral"
                  label="Referral id or link"
                  autoComplete="off"
                  placeholder="e.g. 1042, or the referral's link"
                />
                <ReferralLookup name="referralId" />
              </div>
              <FormTextarea name="reason" id="admin-reverse-reason" label="Reason" rows={2} />
              <Failure text={failure} />
              <div>
                <Button type="submit" variant="destructive" disabled={formState.isSubmitting}>
                  Reverse deal
                </Button>
              </div>
            </>
          )}
        </Form>
      </CardContent>
    </Card>
  );
}
