import { websiteHost } from '@app/contracts';

/**
 * The vendor a program document names, read without a model: a proposal the administrator confirms when
 * linking the program to a workspace (or creating one), never a link by itself.
 */

/** Words that name the program rather than the company ("Acme Partner Referral Program" -> "Acme"). */
const PROGRAM_WORDS = new Set(
  'program programme programs partner partners partnership referral referrals affiliate affiliates reseller resellers ambassador ambassadors reward rewards network club channel agency bounty bounties incentive incentives'.split(
    ' ',
  ),
);
/** Labels of a host that name a site section, not the company ("partners.hubspot.com"). */
const SECTION_LABELS = new Set(
  'www www2 app apps go get try about partners partner affiliates affiliate referral referrals info blog help support my portal join'.split(
    ' ',
  ),
);
/** Second-level names reserved for examples and tests (RFC 2606, 6761): never a company. */
const RESERVED = new Set(['example', 'test', 'invalid', 'localhost']);
/** Second-level labels under a country code that are part of the suffix ("acme.co.uk"). */
const SUFFIX_LABELS = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ltd', 'plc']);

const COMPANY_LABEL =
  /^(company|company name|vendor|vendor name|provided by|offered by|organi[sz]ation|brand|partner company)$/i;
const LABEL = /^\s*([A-Za-z][A-Za-z ]{1,30}):\s*(.+)$/;

const clean = (name: string) =>
  name
    .replace(/\s+/g, ' ')
    .replace(/^[\s"'“”‘’#*-]+|[\s"'“”‘’:.,;!*-]+$/g, '')
    .trim();

/**
 * A title without its program words ("Northwind Analytics Partner Referral Program" -> "Northwind
 * Analytics"), or '' when it had none: a title that does not name a program may not name a company either.
 */
export function companyOfTitle(title: string): string {
  const words = clean(title).split(' ').filter(Boolean);
  let stripped = false;
  while (words.length) {
    const last = words
      .at(-1)!
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
    if (PROGRAM_WORDS.has(last)) stripped = true;
    else if (!/^(19|20)\d\d$/.test(last) && last !== '' && last !== 'the') break;
    words.pop();
  }
  if (/^the$/i.test(words[0] ?? '')) words.shift();
  const name = clean(words.join(' ').replace(/['’]s$/i, ''));
  if (!stripped || !name || name.length > 80 || name.split(' ').length > 6) return '';
  // "Partner Program" alone, or a name that is still only program words.
  return name.split(' ').every((word) => PROGRAM_WORDS.has(word.toLowerCase())) ? '' : name;
}

/** The label of a website's host that names the company ("https://partners.hubspot.com/x" -> "hubspot"). */
export function companyLabelOfWebsite(website: string): string {
  const host = websiteHost(website);
  if (!host) return '';
  const labels = host.split('.');
  let end = labels.length - 1; // the top-level domain
  if (end >= 2 && labels[end]!.length === 2 && SUFFIX_LABELS.has(labels[end - 1]!)) end--;
  for (let i = end - 1; i >= 0; i--) {
    const label = labels[i]!;
    if (RESERVED.has(label) || (i < end - 1 && SECTION_LABELS.has(label))) continue;
    if (SECTION_LABELS.has(label) && i === end - 1) return '';
    return label;
  }
  return '';
}

const capitalized = (word: string) => /^[A-Z0-9][\w&.'’-]*$/.test(word);

/**
 * How the document writes the company of its website: the run of capitalized words that contains the
 * website's label ("northwind" -> "Northwind Analytics" in "Northwind Analytics builds..."), program words
 * left out; failing that the label itself, capitalized.
 */
function companyOfWebsite(text: string, website: string): string {
  const label = companyLabelOfWebsite(website);
  if (!label) return '';
  for (const line of text.split('\n').slice(0, 40)) {
    const words = line.trim().split(/\s+/);
    const at = words.findIndex((word) => word.toLowerCase().replace(/[^a-z0-9-]/g, '') === label);
    if (at < 0 || !capitalized(words[at]!)) continue;
    let end = at + 1;
    while (end < words.length && end - at < 4 && capitalized(words[end]!) && !/[.,;:!?]$/.test(words[end - 1]!)) end++;
    const run = words.slice(at, end).join(' ');
    const name = companyOfTitle(`${run} program`) || clean(run);
    if (name) return name;
  }
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/**
 * The vendor named by a document: a 'Company:' (or 'Vendor:') line; else the program's name or the title
 * without its program words; else the company of the website as the document writes it; '' when none.
 */
export function findVendorName(text: string, found: { programName: string; website: string; title?: string }): string {
  for (const line of text.split('\n')) {
    const match = LABEL.exec(line);
    if (match?.[1] && COMPANY_LABEL.test(match[1].trim())) {
      const name = clean(match[2]!);
      if (name) return name.slice(0, 200);
    }
  }
  const name =
    companyOfTitle(found.programName) ||
    (found.title ? companyOfTitle(found.title) : '') ||
    companyOfWebsite(text, found.website);
  return name.slice(0, 200);
}
