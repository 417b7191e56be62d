import { normalizeRecipients } from '@app/contracts';

/** Recipient text fields: comma-separated, trimmed, empties dropped (spec 5). */
export const parseRecipients = (text: unknown): string[] => normalizeRecipients(text);
export const recipientsText = (list: readonly string[]): string => list.join(', ');
