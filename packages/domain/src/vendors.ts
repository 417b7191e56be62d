import { stripLegalSuffixes } from '@app/contracts';

const collapse = (value: string) => value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** What an AI search answers when it found no company (spec 3): no company to match anyone with. */
const NOT_FOUND = 'not found';

/**
 * A company name as it is compared: lower case, spaces collapsed, legal suffixes stripped ("Acme GmbH",
 * "ACME" and "Acme, Inc." are one company). '' for no company. Only a matching hint: a vendor is
 * identified by its id once it has a workspace.
 */
export function companyKey(companyName: string | null | undefined): string {
  if (!companyName?.trim()) return '';
  const key = collapse(stripLegalSuffixes(collapse(companyName)));
  return key === NOT_FOUND ? '' : key;
}
