import { UpdateStatusRequest } from '@app/contracts';
import { z } from 'zod';

/**
 * '1,250.50', '$1250' or '1 250' → 1250.5; blank → undefined (the value is optional); anything else → NaN
 * (reported by the schema as not a number).
 */
export function parseDealValue(text: string): number | undefined {
  const cleaned = text.replace(/[\s,$]/g, '');
  if (cleaned === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

/** The Closed-Won dialog: the deal value as typed, checked with the status update's own rule. */
export const DealValueForm = z.object({
  dealValue: z.string().transform(parseDealValue).pipe(UpdateStatusRequest.shape.dealValue),
});
