import { createHash } from 'node:crypto';
import { stripLegalSuffixes } from '@app/contracts';

/** What the AI search answers when it found no company (spec 3): no company to match anyone with. */
const NOT_FOUND = 'not found';

const collapse = (value: string) => value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * A company name as it is compared: lowercased, without legal suffixes ("Acme Inc." and "ACME" match).
 * Used for projects (one project per company and product) and for reciprocity (received referrals).
 */
export function companyKey(companyName: string): string {
  const key = collapse(stripLegalSuffixes(collapse(companyName)));
  return key === NOT_FOUND ? '' : key;
}

/**
 * The project id for a product of a company: a readable slug of the normalized names plus a short hash
 * of them ("salesforce-slack-1f2e3d4c"), so "Slack" by "Salesforce, Inc." and "slack" by "Salesforce" are
 * one project, and names that slug alike ("A B"/"C" and "A"/"B C", or other scripts) stay apart.
 */
export function projectIdFor(productName: string, companyName: string): string {
  const key = `${companyKey(companyName)}|${collapse(productName)}`;
  const slug = key
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join('-')
    .slice(0, 80)
    .replace(/-+$/, '');
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return slug ? `${slug}-${hash}` : hash;
}

/** The lowercased text the dashboard search runs over (see Referral.searchText in the schema). */
export function searchTextOf(fields: {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  projectCompanyName: string;
  reason: string;
}): string {
  // The unit separator keeps a search from matching across two fields.
  return [
    `${fields.firstName} ${fields.lastName}`,
    fields.email,
    fields.company,
    fields.projectCompanyName,
    fields.reason,
  ]
    .join('\u001f')
    .toLowerCase();
}

/** A LIKE pattern that finds `term` anywhere, with LIKE's own wildcards taken literally. */
export const containsPattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
