import { DealValueCents } from '@app/contracts';
import { parseDollarsToCents } from '@app/domain';
import { z } from 'zod';

/**
 * Amounts typed in dollars ("24,000", "$24,000.50") read as integer cents for the contracts' cents fields,
 * parsed from the text (never through floating point). The form's field is named like the request's cents
 * field, so a server error on that field (e.g. DEAL_VALUE_TOO_LARGE on dealValueCents) lands next to it.
 */
export const DOLLARS_MESSAGE = 'Please enter an amount in dollars, e.g. 24,000 or 24,000.50';

export const dollarsToCents = (required: string) =>
  z
    .string()
    .trim()
    .min(1, required)
    .refine((text) => parseDollarsToCents(text) !== null, DOLLARS_MESSAGE)
    .transform((text) => parseDollarsToCents(text)!)
    .pipe(DealValueCents);

/** Blank is "not given" (undefined); anything else must be an amount. */
export const optionalDollarsToCents = z
  .string()
  .trim()
  .refine((text) => text === '' || parseDollarsToCents(text) !== null, DOLLARS_MESSAGE)
  .transform((text) => (text === '' ? undefined : parseDollarsToCents(text)!))
  .pipe(DealValueCents.optional());
