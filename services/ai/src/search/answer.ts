import { randomUUID } from 'node:crypto';
import { NO_DESCRIPTION, NOT_FOUND, type SearchAlternative, type SearchResponse } from '@app/contracts';

/** The model name of answers that come from local knowledge (catalogue, known products), not a language model. */
export const LOCAL_MODEL = 'local-catalogue';

export interface Answer {
  product: string;
  company: string;
  description: string;
  website?: string | null;
}

/** One line of text, however the value arrived: labels are line-based, so a newline must not start a new one. */
const oneLine = (value: string, max: number) => value.replace(/\s+/g, ' ').trim().slice(0, max);

/** The labelled lines the web's parseSearchContent reads (spec 3), plus Website, which it ignores. */
export function labelledLines(answer: Answer): string {
  const lines = [
    `Product: ${oneLine(answer.product, 200) || NOT_FOUND}`,
    `Company: ${oneLine(answer.company, 200) || NOT_FOUND}`,
    `Description: ${oneLine(answer.description, 1000) || NO_DESCRIPTION}`,
  ];
  if (answer.website) lines.push(`Website: ${oneLine(answer.website, 500)}`);
  return lines.join('\n');
}

export const notFound: Answer = { product: NOT_FOUND, company: NOT_FOUND, description: NO_DESCRIPTION };

/** How the answer was found: a kind of local match, the language model, or nothing ('none'). */
export type FoundBy = 'name' | 'alias' | 'company' | 'domain' | 'url' | 'similar' | 'need' | 'llm' | 'none';

const alternative = (product: Answer): SearchAlternative => ({
  product: oneLine(product.product, 200),
  company: oneLine(product.company, 200) || NOT_FOUND,
  description: oneLine(product.description, 1000) || NO_DESCRIPTION,
  website: product.website ?? null,
});

/**
 * POST /api/search answers in the chat-completion shape the web expects (spec 3 and 7), plus extras the
 * labelled lines do not carry for the web: the product's website, how it was found, and the products
 * the referrer may pick instead (for a need).
 */
export function completion(
  answer: Answer,
  model: string,
  matchedBy: FoundBy,
  alternatives: readonly Answer[] = [],
): SearchResponse & { website: string | null; matchedBy: FoundBy; alternatives: SearchAlternative[] } {
  return {
    id: `search-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: labelledLines(answer) }, finish_reason: 'stop' }],
    website: answer.website ?? null,
    matchedBy,
    alternatives: alternatives.map(alternative),
  };
}
