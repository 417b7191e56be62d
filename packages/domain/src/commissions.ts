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

/** `numerator / denominator` rounded half up, in exact integer arithmetic (no floating-point money). */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): number {
  return Number((numerator * 2n + denominator) / (denominator * 2n));
}

/**
 * A bounty's amount as an exact fraction `units / scale` (scale a power of ten), read from the number's
 * shortest decimal form: 0.125 is 125/1000, 250.55 is 25055/100. Never rounded before the one rounding of
 * the commission (rounding it to hundredths first paid 0.125% as 0.13%, $100.005 as $100.00).
 */
function exactAmount(amount: number): { units: bigint; scale: bigint } {
  // Not a finite number: nothing to pay (the contract refuses it; a form may still ask before validating).
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(amount));
  if (!match) return { units: 0n, scale: 1n };
  const [, sign = '', whole = '0', fraction = '', exponent = '0'] = match;
  const decimals = fraction.length - Number(exponent);
  const digits = BigInt(sign + whole + fraction);
  return decimals >= 0
    ? { units: digits, scale: 10n ** BigInt(decimals) }
    : { units: digits * 10n ** BigInt(-decimals), scale: 1n };
}

/**
 * The gross amount of a bounty in cents, or null while it needs a deal value that is not known yet.
 * flat pays `amount` dollars; percentage_arr pays amount% of the deal value (first-year ARR, in cents);
 * percentage_mrr pays amount% of the monthly value (deal value / 12) for its months, as one total,
 * rounded once. An enabled bounty without a type is flat.
 */
export function grossCents(bounty: Bounty, dealValueCents: number | null): number | null {
  const { units, scale } = exactAmount(bounty.amount ?? 0);
  switch (bounty.type ?? 'flat') {
    case 'flat':
      return divideRoundHalfUp(units * 100n, scale);
    case 'percentage_arr':
      return dealValueCents === null ? null : divideRoundHalfUp(units * BigInt(dealValueCents), scale * 100n);
    case 'percentage_mrr': {
      if (dealValueCents === null) return null;
      const months = BigInt(bounty.months ?? DEFAULT_MRR_MONTHS);
      return divideRoundHalfUp(units * BigInt(dealValueCents) * months, scale * 100n * 12n);
    }
  }
}

/**
 * The referrer's share and the platform's fee of a gross amount, in cents: the share rounded half up,
 * the fee the rest, so the two always add up to the gross.
 */
export function splitPayout(gross: number, share: number = REFERRER_SHARE): { referrer: number; fee: number } {
  const referrer = divideRoundHalfUp(BigInt(gross) * BigInt(Math.round(share * 10_000)), 10_000n);
  return { referrer, fee: gross - referrer };
}

/** What a bounty pays now, in cents: null when it pays nothing (disabled, nothing to pay, or waiting for a deal value). */
export function commissionCents(
  bounty: Bounty,
  dealValueCents: number | null,
): { gross: number; referrer: number; fee: number } | null {
  if (!bounty.enabled) return null;
  const gross = grossCents(bounty, dealValueCents);
  if (gross === null || gross <= 0) return null;
  return { gross, ...splitPayout(gross) };
}

/** When a retention bonus is due: its months (else a year) after the referral became Closed-Won, in UTC. */
export function retentionDueAt(closedWonAt: Date, bonus: Bounty): Date {
  const due = new Date(closedWonAt);
  due.setUTCMonth(due.getUTCMonth() + (bonus.months ?? DEFAULT_RETENTION_MONTHS));
  return due;
}

/** A $1,000,000 deal, in cents: where two percentage bounties are compared before a deal value is known. */
const COMPARISON_DEAL_CENTS = 100_000_000;

/** How much a bounty is worth to the referrer at a deal value, for comparing two of them (termsOf). */
function worth(bounty: Bounty | undefined, dealValueCents: number | null): [number, number] {
  if (!bounty?.enabled) return [0, 0];
  const gross = commissionCents(bounty, dealValueCents)?.gross;
  if (gross !== undefined) return [3, gross];
  // A percentage that cannot pay yet grows with the deal, as any other percentage does: two of them compare
  // at one deal value, whichever it is. A flat bounty of nothing is worth the least of the enabled ones.
  if ((bounty.type ?? 'flat') !== 'flat') return [2, grossCents(bounty, COMPARISON_DEAL_CENTS) ?? 0];
  return [1, 0];
}

/**
 * The terms one milestone of a referral pays by: the better for the referrer, at the deal value known (actual,
 * else expected), of the vendor's bounty when the referral was made (`atReferral`) and its bounty now (`now`).
 * A vendor may raise a bounty for the referrals it already has, never lower (or disable) it under them.
 * A bounty that pays at that value beats one that cannot yet (a percentage without a deal value); a tie keeps
 * today's. The retention bonus's months come with the terms chosen.
 */
export function termsOf(
  atReferral: Bounty | undefined,
  now: Bounty | undefined,
  dealValueCents: number | null,
): Bounty | undefined {
  const [old, current] = [worth(atReferral, dealValueCents), worth(now, dealValueCents)];
  const better = old[0] !== current[0] ? old[0] > current[0] : old[1] > current[1];
  return better ? atReferral : now;
}
