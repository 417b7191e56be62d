import { z } from 'zod';
import { text } from './common.ts';

/** POST /api/search: what the user typed (a product, company or website URL). */
export const SearchRequest = z.strictObject({
  query: text({
    label: 'Search text',
    max: 500,
    required: 'Please enter a product, company, or website URL',
    maxMessage: 'Search text must be at most 500 characters',
  }),
});
export type SearchRequest = z.input<typeof SearchRequest>;

/** A product the referrer can pick instead of the answer's main one (a need has several fitting products). */
export const SearchAlternative = z.object({
  product: z.string(),
  company: z.string(),
  description: z.string(),
  website: z.string().nullable(),
});
export type SearchAlternative = z.infer<typeof SearchAlternative>;

/**
 * The answer is shaped like an AI chat completion (spec 3): the web parses `choices[0].message.content`
 * for the labelled lines 'Product:', 'Company:', 'Description:'. `website` and `matchedBy` are extras the
 * labels do not carry.
 */
export const SearchResponse = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z
    .array(
      z.object({
        index: z.number().int(),
        message: z.object({ role: z.literal('assistant'), content: z.string() }),
        finish_reason: z.string(),
      }),
    )
    .min(1),
  /** The product's website when the search knows it (catalogue, program): routes the referral to its vendor. */
  website: z.string().nullable().optional(),
  /** Up to three other products that fit the same need, best first; empty when the text named one product. */
  alternatives: z.array(SearchAlternative).max(3).optional(),
});
export type SearchResponse = z.infer<typeof SearchResponse>;

/** The product a search found, as the web shows it and carries to the referral form. */
export interface ParsedProduct {
  product: string;
  company: string;
  description: string;
  /** The product's website when the answer names one ('Website:' line): how a referral finds its vendor. */
  website: string;
}

export const NOT_FOUND = 'Not found';
export const NO_DESCRIPTION = 'No description available';

/** Spec 3: labelled lines, bold markers removed, case-insensitive, with the defaults it names. */
export function parseSearchContent(content: string): ParsedProduct {
  const result: ParsedProduct = { product: NOT_FOUND, company: NOT_FOUND, description: NO_DESCRIPTION, website: '' };
  let labelled = false;
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.replace(/\*\*/g, '').trim();
    const match = /^(product description|description|product|company|website)\s*:\s*(.*)$/i.exec(line);
    if (!match) continue;
    const label = match[1]!.toLowerCase();
    const value = match[2]!.trim();
    if (label === 'website') {
      result.website = value;
      continue;
    }
    labelled = true;
    if (!value) continue;
    if (label === 'product') result.product = value;
    else if (label === 'company') result.company = value;
    else result.description = value;
  }
  if (!labelled) {
    const first = content
      .split(/\r?\n/)
      .map((line) => line.replace(/\*\*/g, '').trim())
      .find((line) => line && !/learn more/i.test(line));
    if (first) result.product = first;
  }
  return result;
}
