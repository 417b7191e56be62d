import { createHash } from 'node:crypto';
import { companyKey } from '@app/domain';

/**
 * A product name as it is compared: NFKC, spaces collapsed, lower case. Unlike `companyKey` (@app/domain)
 * it keeps legal suffixes on purpose: it normalizes a product's name ("Notion", "Acme Inc" the product),
 * not a company's, and matches a program's name to a product's.
 */
export const productKey = (name: string) => name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The project id for a product of a company: a readable slug of the normalized names plus a short hash
 * of them ("salesforce-slack-1f2e3d4c"), so "Slack" by "Salesforce, Inc." and "slack" by "Salesforce" are
 * one project, and names that slug alike ("A B"/"C" and "A"/"B C", or other scripts) stay apart.
 */
export function projectIdFor(productName: string, companyName: string): string {
  const key = `${companyKey(companyName)}|${productKey(productName)}`;
  const slug = key
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join('-')
    .slice(0, 80)
    .replace(/-+$/, '');
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return slug ? `${slug}-${hash}` : hash;
}
