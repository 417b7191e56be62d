import {
  ConfirmMilestoneRequest,
  ERRORS,
  ReverseDealRequest,
  type ErrorCode,
  type Lead,
  type Milestone,
} from '@app/contracts';
import {
  bountyWords,
  commissionCents,
  DEAL_VALUE_AT,
  formatCents,
  milestoneLabel,
  parseDollarsToCents,
  termsOf,
} from '@app/domain';
import { CheckCircle2, CircleDollarSign, Loader2, Undo2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { z } from 'zod';
import { CommissionList, MilestoneList, RetentionWait, retentionWaits } from '@/components/money/milestones';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form, FormInput, FormTextarea } from '@/components/ui/form';
import { toast } from '@/hooks/use-toast';
import { isApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { dollarsToCents } from '@/lib/money-form';
import { useConfirmMilestone, useReverseDeal, useSetExpectedValue } from '../api/lead-money';

/** The refusals of the money actions, said with the server's texts (chosen by code). */
const MONEY_CODES: ErrorCode[] = [
  'LEAD_DECLINED',
  'MILESTONE_ALREADY_CONFIRMED',
  'MILESTONE_NEEDS_CLOSED_WON',
  'RETENTION_NOT_DUE',
  'DEAL_VALUE_REQUIRED',
  'DEAL_VALUE_NOT_EXPECTED',
  'DEAL_VALUE_TOO_LARGE',
  'NOTHING_TO_REVERSE',
  'LEAD_NOT_FOUND',
  'NOT_A_MEMBER',
  'WORKSPACE_NOT_VERIFIED',
];

export function moneyErrorText(error: unknown, fallback: string): string {
  const code = MONEY_CODES.find((c) => isApiError(error, c));
  return code ? ERRORS[code].message : errorText(error, fallback);
}

const noteField = ConfirmMilestoneRequest.shape.note;
const ConfirmForm = z.object({ note: noteField });
const ConfirmWithValueForm = z.object({
  dealValueCents: dollarsToCents('Please enter the deal value'),
  note: noteField,
});
const ExpectedValueForm = z.object({ expectedValueCents: dollarsToCents('Please enter the expected deal value') });

type Action = { kind: 'confirm'; milestone: Milestone } | { kind: 'expected' } | { kind: 'reverse' };

/**
 * Issue 10, the vendor's side of a lead's money: its milestones with Confirm (the commission is earned from
 * the bounties now; opportunity asks the expected deal value, Closed-Won the actual one), the expected value,
 * Reverse deal, and the lead's commissions at their gross amount (what the vendor owes).
 */
export function LeadMoney({
  vendorId,
  lead,
  title,
  own = false,
}: {
  vendorId: string;
  lead: Lead;
  title: string;
  /** The signed-in member's own referral: its money is another member's to confirm. */
  own?: boolean;
}) {
  const [action, setAction] = useState<Action | null>(null);
  const money = lead.money;
  const ended = lead.status === 'declined' || lead.stage === 'declined';
  const open = !ended && !own;
  const reversible = money.commissions.some((c) => c.state === 'in_escrow');
  const headingId = `lead-${lead.referralId}-money`;
  const close = () => setAction(null);

  return (
    <section aria-labelledby={headingId} className="grid gap-3 rounded-lg border border-border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="flex items-center gap-2 text-sm font-semibold">
          <CircleDollarSign className="size-4 text-primary" aria-hidden="true" />
          Milestones and commissions
        </h3>
        {open ? (
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" onClick={() => setAction({ kind: 'expected' })}>
              Set expected value
            </Button>
            {reversible ? (
              <Button size="sm" variant="outline" onClick={() => setAction({ kind: 'reverse' })}>
                <Undo2 aria-hidden="true" />
                Reverse deal
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[9rem_1fr]">
        <dt className="text-muted-foreground">Expected value</dt>
        <dd>{money.expectedValueCents !== null ? formatCents(money.expectedValueCents, money.currency) : 'Not set'}</dd>
        <dt className="text-muted-foreground">Deal value</dt>
        <dd>{money.dealValueCents !== null ? formatCents(money.dealValueCents, money.currency) : 'Not known yet'}</dd>
      </dl>
      <p className="text-sm text-muted-foreground">
        {ended
          ? 'This lead was declined or withdrawn: its milestones cannot be confirmed.'
          : own
            ? 'This is your own referral: another member of the workspace confirms its milestones and deal values.'
            : 'Confirm each milestone when it happens: its bounty becomes the referrer’s commission, which you owe.'}
      </p>
      <MilestoneList
        money={money}
        label={`Milestones of ${title}`}
        action={(state) =>
          open && (state.state === 'open' || state.state === 'requested') ? (
            retentionWaits(money.milestones, state) ? (
              <RetentionWait state={state} />
            ) : (
              <Button
                size="sm"
                onClick={() => setAction({ kind: 'confirm', milestone: state.milestone })}
                aria-label={`Confirm ${milestoneLabel(state.milestone)}`}
              >
                <CheckCircle2 aria-hidden="true" />
                Confirm
              </Button>
            )
          ) : null
        }
      />
      <h4 className="text-sm font-semibold">Commissions (what you owe)</h4>
      <CommissionList
        commissions={money.commissions}
        amount="gross"
        label={`Commissions of ${title}`}
        empty="No commission yet."
      />

      <Dialog open={action !== null} onOpenChange={(next) => !next && close()}>
        {action?.kind === 'confirm' ? (
          <ConfirmDialog vendorId={vendorId} lead={lead} milestone={action.milestone} onDone={close} />
        ) : action?.kind === 'expected' ? (
          <ExpectedValueDialog vendorId={vendorId} lead={lead} onDone={close} />
        ) : action?.kind === 'reverse' ? (
          <ReverseDialog vendorId={vendorId} lead={lead} onDone={close} />
        ) : null}
      </Dialog>
    </section>
  );
}

/**
 * What confirming will record, at the deal value typed (or known): the milestone's terms (the better of the
 * vendor's bounty when the referral was made and today's, as the server decides) and the amount owed.
 */
function OwedPreview({ lead, milestone, typed }: { lead: Lead; milestone: Milestone; typed: string }) {
  const state = lead.money.milestones.find((m) => m.milestone === milestone);
  if (!state) return null;
  const valueAt = DEAL_VALUE_AT[milestone];
  const entered = valueAt ? parseDollarsToCents(typed.trim()) : null;
  const known = lead.money.dealValueCents ?? lead.money.expectedValueCents;
  // The deal value the server will use: the actual one given at Closed-Won, the actual one else the expected.
  const deal = valueAt === 'actual' ? entered : valueAt === 'expected' ? (lead.money.dealValueCents ?? entered) : known;
  const terms = termsOf(state.termsAtReferral ?? undefined, state.termsNow ?? undefined, deal);
  const words = terms ? bountyWords(terms, lead.money.currency) : null;
  const owed = terms ? commissionCents(terms, deal) : null;
  const text = !words
    ? 'No bounty applies: confirming records the milestone without a commission.'
    : owed
      ? `Bounty: ${words}. You will owe ${formatCents(owed.gross, lead.money.currency)}.`
      : valueAt && entered === null
        ? `Bounty: ${words}. Enter the deal value to see what you will owe.`
        : `Bounty: ${words}. It pays nothing at this deal value.`;
  return (
    <p className="rounded-lg bg-muted p-3 text-sm" aria-live="polite">
      {text}
    </p>
  );
}

function Failure({ text }: { text: string | null }) {
  return text ? (
    <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
      {text}
    </p>
  ) : null;
}

function Footer({ submitting, label, variant }: { submitting: boolean; label: string; variant?: 'destructive' }) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button variant="outline" disabled={submitting}>
          Cancel
        </Button>
      </DialogClose>
      <Button type="submit" variant={variant} disabled={submitting}>
        {submitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
        {label}
      </Button>
    </DialogFooter>
  );
}

function MoneyDialog({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <DialogContent>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      {children}
    </DialogContent>
  );
}

function ConfirmDialog({
  vendorId,
  lead,
  milestone,
  onDone,
}: {
  vendorId: string;
  lead: Lead;
  milestone: Milestone;
  onDone: () => void;
}) {
  const confirm = useConfirmMilestone(vendorId);
  const [failure, setFailure] = useState<string | null>(null);
  const valueAt = DEAL_VALUE_AT[milestone];
  const label = milestoneLabel(milestone);
  const currency = lead.money.currency;
  const send = async (body: ConfirmMilestoneRequest) => {
    setFailure(null);
    await confirm.mutateAsync({ referralId: lead.referralId, body });
    toast({ title: 'Milestone confirmed', description: `${label} is confirmed. The referrer is told by email.` });
    onDone();
  };
  const onError = (error: unknown) => setFailure(moneyErrorText(error, 'Failed to confirm the milestone'));
  const description =
    'Confirming records what you owe the referrer now; it cannot be undone, only reversed if the deal falls through.';
  const note = <FormTextarea name="note" id="confirm-note" label="Note (optional)" rows={2} />;

  return (
    <MoneyDialog title={`Confirm ${label}`} description={description}>
      {valueAt ? (
        <Form
          schema={ConfirmWithValueForm}
          defaultValues={{ dealValueCents: '', note: '' }}
          aria-label={`Confirm ${label}`}
          className="grid gap-4"
          onSubmit={({ dealValueCents, note: text }) =>
            send({ milestone, dealValueCents, ...(text ? { note: text } : {}) })
          }
          onError={onError}
        >
          {({ formState, watch }) => (
            <>
              <FormInput
                name="dealValueCents"
                id="confirm-deal-value"
                label={`${valueAt === 'expected' ? 'Expected deal value' : 'Deal value'} (first-year ARR, ${currency})`}
                inputMode="decimal"
                autoComplete="off"
                placeholder="e.g. 24,000"
                required
                aria-required="true"
              />
              <OwedPreview lead={lead} milestone={milestone} typed={watch('dealValueCents')} />
              {note}
              <Failure text={failure} />
              <Footer submitting={formState.isSubmitting} label="Confirm" />
            </>
          )}
        </Form>
      ) : (
        <Form
          schema={ConfirmForm}
          defaultValues={{ note: '' }}
          aria-label={`Confirm ${label}`}
          className="grid gap-4"
          onSubmit={({ note: text }) => send({ milestone, ...(text ? { note: text } : {}) })}
          onError={onError}
        >
          {({ formState }) => (
            <>
              <OwedPreview lead={lead} milestone={milestone} typed="" />
              {note}
              <Failure text={failure} />
              <Footer submitting={formState.isSubmitting} label="Confirm" />
            </>
          )}
        </Form>
      )}
    </MoneyDialog>
  );
}

function ExpectedValueDialog({ vendorId, lead, onDone }: { vendorId: string; lead: Lead; onDone: () => void }) {
  const setValue = useSetExpectedValue(vendorId);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <MoneyDialog
      title="Set expected value"
      description="The deal's expected first-year ARR: the referrer sees it as pipeline value. It earns nothing by itself."
    >
      <Form
        schema={ExpectedValueForm}
        defaultValues={{ expectedValueCents: '' }}
        aria-label="Set expected value"
        className="grid gap-4"
        onSubmit={async ({ expectedValueCents }) => {
          setFailure(null);
          await setValue.mutateAsync({ referralId: lead.referralId, cents: expectedValueCents });
          toast({ title: 'Expected value saved' });
          onDone();
        }}
        onError={(error) => setFailure(moneyErrorText(error, 'Failed to save the expected value'))}
      >
        {({ formState }) => (
          <>
            <FormInput
              name="expectedValueCents"
              id="expected-value"
              label={`Expected deal value (first-year ARR, ${lead.money.currency})`}
              inputMode="decimal"
              autoComplete="off"
              placeholder="e.g. 24,000"
              required
              aria-required="true"
            />
            <Failure text={failure} />
            <Footer submitting={formState.isSubmitting} label="Save" />
          </>
        )}
      </Form>
    </MoneyDialog>
  );
}

function ReverseDialog({ vendorId, lead, onDone }: { vendorId: string; lead: Lead; onDone: () => void }) {
  const reverse = useReverseDeal(vendorId);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <MoneyDialog
      title="Reverse deal"
      description="The deal fell through: every commission of this lead not paid yet is reversed. Paid commissions stay paid."
    >
      <Form
        schema={ReverseDealRequest}
        defaultValues={{ reason: '' }}
        aria-label="Reverse deal"
        className="grid gap-4"
        onSubmit={async ({ reason }) => {
          setFailure(null);
          await reverse.mutateAsync({ referralId: lead.referralId, reason });
          toast({ title: 'Deal reversed', description: 'The unpaid commissions are reversed.' });
          onDone();
        }}
        onError={(error) => setFailure(moneyErrorText(error, 'Failed to reverse the deal'))}
      >
        {({ formState }) => (
          <>
            <FormTextarea
              name="reason"
              id="reverse-reason"
              label="Why is the deal reversed?"
              rows={3}
              required
              aria-required="true"
            />
            <Failure text={failure} />
            <Footer submitting={formState.isSubmitting} label="Reverse deal" variant="destructive" />
          </>
        )}
      </Form>
    </MoneyDialog>
  );
}
