import { PLAN_SHARES, type Bounty } from '@app/contracts';

/**
 * Months an MRR bounty pays when it names none: 12, the one default of server and web. It is what the
 * bounties form has always told vendors (the Months field's placeholder is 12, the summary line reads
 * "…% of MRR for 12 months" while the field is empty, and the form then sends 12). The server used to
 * assume 1 but never met the case: the contract (`Bounties`) requires months for an enabled
 * percentage_mrr bounty, so every stored one carries its own.
 */
export const DEFAULT_MRR_MONTHS = 12;

/** How long a customer must stay Closed-Won before a retention bonus that names no months is due: a year. */
export const DEFAULT_RETENTION_MONTHS = 12;

/** The referrer's share of every payout: everyone is on Starter until plans are sold (spec 9). */
export const REFERRER_SHARE = PLAN_SHARES.starter;

/**
 * The gross amount of a bounty in cents, or null while it needs a deal value that is not known yet.
 * flat pays `amount` dollars; percentage_arr pays amount% of the deal value (first-year ARR);
 * percentage_mrr pays amount% of the monthly value (deal value / 12) for its months, as one total.
 * An enabled bounty without a type is flat.
 */
export function grossCents(bounty: Bounty, dealValue: number | null): number | null {
  const amount = bounty.amount ?? 0;
  switch (bounty.type ?? 'flat') {
    case 'flat':
      return Math.round(amount * 100);
    case 'percentage_arr':
      return dealValue === null ? null : Math.round(amount * dealValue);
    case 'percentage_mrr':
      return dealValue === null
        ? null
        : Math.round(((amount * dealValue) / 12) * (bounty.months ?? DEFAULT_MRR_MONTHS));
  }
}

/**
 * The referrer's share and the platform's fee of a gross amount, in cents: the share rounded half up,
 * the fee the rest, so the two always add up to the gross.
 */
export function splitPayout(gross: number, share: number = REFERRER_SHARE): { referrer: number; fee: number } {
  const referrer = Math.round(gross * share);
  return { referrer, fee: gross - referrer };
}

/** What a bounty pays now, in cents: null when it pays nothing (disabled, nothing to pay, or waiting for a deal value). */
export function commissionCents(
  bounty: Bounty,
  dealValue: number | null,
): { gross: number; referrer: number; fee: number } | null {
  if (!bounty.enabled) return null;
  const gross = grossCents(bounty, dealValue);
  if (gross === null || gross <= 0) return null;
  return { gross, ...splitPayout(gross) };
}

/** When a retention bonus is due: its months (else a year) after the referral became Closed-Won, in UTC. */
export function retentionDueAt(closedWonAt: Date, bonus: Bounty): Date {
  const due = new Date(closedWonAt);
  due.setUTCMonth(due.getUTCMonth() + (bonus.months ?? DEFAULT_RETENTION_MONTHS));
  return due;
}
