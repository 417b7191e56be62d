/**
 * How typed text becomes comparable: case, accents and punctuation do not matter ("HubSpot, Inc." and
 * "hubspot inc" are the same words), and "&" reads as "and".
 */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The words run together: the form every name is compared in ("Monday.com" → "mondaycom"). */
export const compact = (text: string) => words(text).join('');

/** Legal and generic endings a company name is also known without ("Slack Technologies, LLC" → "slack"). */
const COMPANY_ENDINGS = new Set([
  'inc',
  'incorporated',
  'llc',
  'ltd',
  'limited',
  'corp',
  'corporation',
  'co',
  'company',
  'gmbh',
  'ag',
  'sa',
  'nv',
  'bv',
  'plc',
  'se',
  'sas',
  'ab',
  'as',
  'ou',
  'pbc',
  'sl',
  'lp',
  'pte',
  'pty',
  'pvt',
  'kg',
  'spa',
  'and',
  'holdings',
  'group',
  'technologies',
  'technology',
  'software',
  'solutions',
  'systems',
  'international',
  'labs',
]);

/** The company's name with its legal endings dropped one by one: "Notion Labs, Inc." → notionlabsinc, notionlabs, notion. */
export function companyForms(company: string): string[] {
  const list = words(company);
  const forms = [list.join('')];
  for (;;) {
    const last = list.at(-1);
    const lastTwo = list.slice(-2).join('');
    // "B.V." and "S.A." arrive as two one-letter words.
    if (list.length > 2 && last!.length === 1 && COMPANY_ENDINGS.has(lastTwo)) list.splice(-2, 2);
    else if (list.length > 1 && last && COMPANY_ENDINGS.has(last)) list.pop();
    else break;
    forms.push(list.join(''));
  }
  return forms;
}

export const companyCore = (company: string) => companyForms(company).at(-1)!;

/** Host without "www." and path without trailing slash, or null for text that is not a web address. */
export function webAddress(text: string): { host: string; path: string } | null {
  const trimmed = text.trim();
  if (!/^(https?:\/\/)?[^\s/?#]+\.[a-z]{2,}(:\d+)?([/?#]\S*)?$/i.test(trimmed)) return null;
  try {
    const url = new URL(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    return {
      host: url.hostname.toLowerCase().replace(/^www\./, ''),
      path: url.pathname.replace(/\/+$/, '').toLowerCase(),
    };
  } catch {
    return null;
  }
}
