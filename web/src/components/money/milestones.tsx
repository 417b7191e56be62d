import type { Commission, MilestoneState, ReferralMoney } from '@app/contracts';
import { formatCents, milestoneLabel } from '@app/domain';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { formatDate } from '@/lib/dates';

/**
 * A referral's money as both sides see it (issue 10): its milestones (confirmed by the vendor or an
 * administrator, asked for by the referrer) and its commissions. Shared by the referrer's detail sheet and
 * the vendor's lead inbox; the actions differ and come from the caller.
 */

export const MILESTONE_STATE_LABELS: Record<MilestoneState['state'], string> = {
  open: 'Open',
  requested: 'Confirmation requested',
  confirmed: 'Confirmed',
  reversed: 'Reversed',
};

const STATE_VARIANT = {
  open: 'secondary',
  requested: 'warning',
  confirmed: 'success',
  reversed: 'destructive',
} as const;

export const COMMISSION_STATE_LABELS: Record<Commission['state'], string> = {
  in_escrow: 'In escrow',
  paid: 'Paid',
  reversed: 'Reversed',
};

const COMMISSION_VARIANT = { in_escrow: 'info', paid: 'success', reversed: 'destructive' } as const;

/** "Confirmed by the vendor on Mar 4, 2026" and the like: what happened to a milestone, in words. */
export function milestoneFacts(state: MilestoneState): string[] {
  const facts: string[] = [];
  if (state.confirmedAt) {
    const by = state.confirmedBy === 'admin' ? 'an administrator for the vendor' : 'the vendor';
    facts.push(`Confirmed by ${by} on ${formatDate(state.confirmedAt)}`);
  }
  if (state.requestedAt && state.state !== 'confirmed') facts.push(`Asked on ${formatDate(state.requestedAt)}`);
  if (state.dueAt && state.state !== 'confirmed') facts.push(`Can be confirmed from ${formatDate(state.dueAt)}`);
  return facts;
}

/**
 * Whether `state` is the retention bonus and cannot be confirmed (nor so asked for) yet: it can be once
 * Closed-Won is and its date has come (the server's rule, shown).
 */
export function retentionWaits(milestones: MilestoneState[], state: MilestoneState): boolean {
  if (state.milestone !== 'retentionBonus') return false;
  const closedWon = milestones.find((m) => m.milestone === 'closedWon');
  if (closedWon?.state !== 'confirmed') return true;
  return state.dueAt !== null && new Date(state.dueAt).getTime() > Date.now();
}

/**
 * In place of a retention bonus's action while it waits (no button that can only fail): nothing once its
 * card says from when, else that it comes after Closed-Won.
 */
export function RetentionWait({ state }: { state: MilestoneState }) {
  return state.dueAt ? null : <span className="text-xs text-muted-foreground">After Closed-Won</span>;
}

/** The milestones of a referral in order, each with its bounty, state and what the caller lets one do. */
export function MilestoneList({
  money,
  label,
  action,
}: {
  money: ReferralMoney;
  /** The list's accessible name. */
  label: string;
  action?: (state: MilestoneState) => ReactNode;
}) {
  return (
    <ul className="grid gap-2" aria-label={label}>
      {money.milestones.map((state) => {
        const name = milestoneLabel(state.milestone);
        const facts = milestoneFacts(state);
        const rendered = action?.(state);
        return (
          <li
            key={state.milestone}
            aria-label={name}
            className="grid gap-2 rounded-lg border border-border p-3 text-sm sm:grid-cols-[1fr_auto] sm:items-center"
          >
            <div className="grid min-w-0 gap-1">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{name}</span>
                <Badge variant={STATE_VARIANT[state.state]}>{MILESTONE_STATE_LABELS[state.state]}</Badge>
              </div>
              <p className="text-muted-foreground">{state.bounty ? `Bounty: ${state.bounty}` : 'No bounty'}</p>
              {facts.map((fact) => (
                <p key={fact} className="text-muted-foreground">
                  {fact}
                </p>
              ))}
            </div>
            {rendered ? <div className="flex flex-wrap gap-2 sm:justify-end">{rendered}</div> : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The commissions of a referral: the referrer sees their share, the vendor the gross amount (what it owes).
 * Empty: the caller's own text.
 */
export function CommissionList({
  commissions,
  amount,
  label,
  empty,
}: {
  commissions: Commission[];
  amount: 'referrer' | 'gross';
  label: string;
  empty: string;
}) {
  if (commissions.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className="grid gap-2" aria-label={label}>
      {commissions.map((c) => (
        <li key={c.id} className="grid gap-1 rounded-lg border border-border p-3 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-medium">{milestoneLabel(c.milestone)}</span>
            <span className="font-semibold tabular-nums">
              {formatCents(amount === 'gross' ? c.grossCents : c.referrerCents, c.currency)}
            </span>
          </div>
          <div className="flex flex-wrap items-center gap-2 text-muted-foreground">
            <Badge variant={COMMISSION_VARIANT[c.state]}>{COMMISSION_STATE_LABELS[c.state]}</Badge>
            <span>{commissionDates(c)}</span>
          </div>
          {c.state === 'reversed' && c.reversalReason ? (
            <p className="text-muted-foreground">{`Reason: ${c.reversalReason}`}</p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** "Earned Mar 4, 2026 · Paid Mar 20, 2026 (PAY-7)". */
export function commissionDates(c: Commission): string {
  const parts = [`Earned ${formatDate(c.earnedAt)}`];
  if (c.paidAt) parts.push(`Paid ${formatDate(c.paidAt)}${c.payoutReference ? ` (${c.payoutReference})` : ''}`);
  if (c.reversedAt) parts.push(`Reversed ${formatDate(c.reversedAt)}`);
  return parts.join(' · ');
}
