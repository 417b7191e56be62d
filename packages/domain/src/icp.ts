import { COMPANY_SIZES, COUNTRIES, LeadCriteria, SENIORITY_LEVELS, type IcpFit } from '@app/contracts';
import { fold, plainWords, stem } from './text.ts';

type Criteria = LeadCriteria;

/** What is known of a client; every fact optional (an unknown fact never excludes). */
export interface ClientFacts {
  country?: string | undefined;
  companySize?: string | undefined;
  industry?: string | undefined;
  /** The contact's role or title. */
  role?: string | undefined;
  integrations?: string[] | undefined;
}

/**
 * The ICP against a client: what fits, what clearly fails (any one: the vendor does not want this lead),
 * and which of the vendor's criteria the referral says nothing about.
 */
export type IcpVerdict = IcpFit;

/**
 * Lead criteria as stored, read field by field: an unknown key is ignored and an unreadable field counts as
 * empty (nobody is excluded on a guess); nothing readable at all is no criteria.
 */
export function readCriteria(stored: unknown): Criteria | null {
  if (!stored || typeof stored !== 'object') return null;
  const record = stored as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(LeadCriteria.shape)) {
    const parsed = schema.safeParse(record[key]);
    fields[key] = parsed.success ? parsed.data : schema.parse(undefined);
  }
  return fields as Criteria;
}

/** Folded country name or two-letter code → every form of that country; built once. */
let countryIndex: Map<string, string[]> | null = null;
// Folded, so "U.S." is 'u s' and "Türkiye" 'turkiye'; a leading "the" is dropped before the lookup.
const ALIASES: Array<[string, string[]]> = [
  ['united states', ['usa', 'us', 'u s', 'u s a', 'united states of america', 'america']],
  ['united kingdom', ['uk', 'u k', 'gb', 'great britain', 'england', 'britain']],
  ['united arab emirates', ['uae', 'u a e', 'emirates']],
  ['czech republic', ['czechia']],
  ['netherlands', ['holland']],
  ['south korea', ['korea', 'republic of korea']],
  ['russia', ['russian federation']],
  ['turkey', ['turkiye']],
  ['vietnam', ['viet nam']],
];

/** Every name a country goes by in the options list (name and two-letter code), folded. */
function countryForms(value: string): Set<string> {
  if (!countryIndex) {
    countryIndex = new Map();
    for (const country of COUNTRIES) {
      const forms = [fold(country.name), country.code.toLowerCase()];
      for (const form of forms) countryIndex.set(form, forms);
    }
    for (const [name, aliases] of ALIASES) {
      const forms = [...(countryIndex.get(name) ?? [name]), ...aliases];
      for (const form of forms) countryIndex.set(form, forms);
    }
  }
  const folded = fold(value).replace(/^the /, '');
  return new Set([folded, ...(countryIndex.get(folded) ?? [])]);
}

const stems = (text: string) => new Set(plainWords(text).map(stem));

/**
 * A country, industry or job title of the criteria with what checking it needs, shared by every vendor that
 * names it: Smart Match checks up to 60 vendors per query among thousands, and one object per value (not per
 * vendor) stays in the processor's cache. Read-only; the first values seen are kept, up to a bound.
 */
interface Named {
  name: string;
  words: Set<string>;
}
const SHARED_MAX = 10_000;
const sharedCountries = new Map<string, Named>();
const sharedStems = new Map<string, Named>();
function shared(cache: Map<string, Named>, name: string, words: (name: string) => Set<string>): Named {
  let named = cache.get(name);
  if (named) return named;
  named = { name, words: words(name) };
  if (cache.size < SHARED_MAX) cache.set(name, named);
  return named;
}

/** The seniority a role title clearly states ("VP of Sales" → VP), or null when it does not say. */
export function seniorityOf(role: string): string | null {
  const words = plainWords(role);
  const has = (...candidates: string[]) => candidates.some((c) => words.includes(c));
  if (has('ceo', 'cto', 'cfo', 'coo', 'cmo', 'cio', 'ciso', 'cro', 'cpo', 'chief') || /c-suite|c-level/i.test(role))
    return 'C-suite';
  if (has('vp', 'svp', 'evp') || /vice president/i.test(role)) return 'VP';
  // "Product Owner" or "Partner Manager" say nothing of seniority: only whole titles count for these.
  const whole = words.join(' ');
  if (has('founder', 'cofounder') || ['owner', 'co owner', 'business owner'].includes(whole)) return 'Owner';
  if (['partner', 'managing partner', 'senior partner', 'equity partner'].includes(whole)) return 'Partner';
  if (has('director')) return 'Director';
  if (has('head')) return 'Head';
  if (has('intern', 'trainee')) return 'Intern / Trainee';
  if (has('assistant')) return 'Assistant';
  if (has('manager')) return 'Manager';
  if (has('freelance', 'freelancer')) return 'Freelance';
  if (has('senior', 'sr', 'lead', 'principal')) return 'Senior';
  if (has('junior', 'jr', 'entry', 'graduate')) return 'Entry';
  return null;
}

/** Lead criteria with what checking them needs worked out once (each country's forms, each name's words). */
export interface PreparedCriteria {
  criteria: Criteria;
  /** Each country with its forms (`words`). */
  countries: Named[];
  industries: Named[];
  jobTitles: Named[];
  techStack: Set<string>;
  /** The company sizes and seniority levels asked for, as bits (`optionBit`): no list to read per client. */
  sizes: number;
  seniorities: number;
  /** The lists as the reasons for an exclusion show them. */
  shown: { countries: string; employeeCount: string; industries: string; seniority: string };
  /** Which criteria are set (`ASKS`): a client's facts are compared with this object alone when none is. */
  asks: number;
}

/** An option's bit (its place in the options list), 0 for a value not in it. */
const optionBit = (options: readonly string[], value: string | null | undefined) => {
  const index = value ? options.indexOf(value) : -1;
  return index < 0 ? 0 : 1 << index;
};
const optionBits = (options: readonly string[], values: readonly string[]) =>
  values.reduce((bits, value) => bits | optionBit(options, value), 0);

/** Bits of `PreparedCriteria.asks`. */
const ASKS = { countries: 1, employeeCount: 2, industries: 4, seniority: 8, techStack: 16 } as const;

/** What is known of a client, worked out once to check against many vendors' criteria. */
export interface PreparedClient {
  facts: ClientFacts;
  countryForms: Set<string> | null;
  industryWords: Set<string> | null;
  roleWords: Set<string> | null;
  seniority: string | null;
  /** The company size's and the seniority's bits (`optionBit`). */
  sizeBit: number;
  seniorityBit: number;
  /** Each integration as given, and folded. */
  integrations: Array<[string, string]>;
}

/**
 * The same list of values, or tech stack, as another vendor's: one object for all of them (vendors pick from
 * the same options, so the lists repeat), for the reason `Named` values are shared. Read-only; bounded.
 */
const sharedLists = new Map<string, Named[]>();
const sharedStacks = new Map<string, Set<string>>();
function sharedList(kind: string, names: readonly string[], named: (name: string) => Named): Named[] {
  const key = JSON.stringify([kind, names]);
  let list = sharedLists.get(key);
  if (list) return list;
  list = names.map(named);
  if (sharedLists.size < SHARED_MAX) sharedLists.set(key, list);
  return list;
}
function sharedStack(techStack: readonly string[]): Set<string> {
  const folded = [...new Set(techStack.map(fold))].sort();
  const key = JSON.stringify(folded);
  let stack = sharedStacks.get(key);
  if (stack) return stack;
  stack = new Set(folded);
  if (sharedStacks.size < SHARED_MAX) sharedStacks.set(key, stack);
  return stack;
}

export function prepareCriteria(criteria: Criteria | null): PreparedCriteria | null {
  if (!criteria) return null;
  return {
    criteria,
    countries: sharedList('countries', criteria.countries, (name) => shared(sharedCountries, name, countryForms)),
    industries: sharedList('industries', criteria.industries, (name) => shared(sharedStems, name, stems)),
    jobTitles: sharedList('jobTitles', criteria.jobTitles, (name) => shared(sharedStems, name, stems)),
    techStack: sharedStack(criteria.techStack),
    sizes: optionBits(COMPANY_SIZES, criteria.employeeCount),
    seniorities: optionBits(SENIORITY_LEVELS, criteria.seniority),
    shown: {
      countries: `${criteria.countries.slice(0, 5).join(', ')}${criteria.countries.length > 5 ? '…' : ''}`,
      employeeCount: criteria.employeeCount.join(', '),
      industries: `${criteria.industries.slice(0, 5).join(', ')}${criteria.industries.length > 5 ? '…' : ''}`,
      seniority: criteria.seniority.join(', '),
    },
    asks:
      (criteria.countries.length ? ASKS.countries : 0) |
      (criteria.employeeCount.length ? ASKS.employeeCount : 0) |
      (criteria.industries.length ? ASKS.industries : 0) |
      (criteria.seniority.length ? ASKS.seniority : 0) |
      (criteria.techStack.length ? ASKS.techStack : 0),
  };
}

/** Whether any of the values is in the set. */
function meets(values: Set<string>, set: Set<string>): boolean {
  for (const value of values) if (set.has(value)) return true;
  return false;
}

/** Whether every one of the values is in the set. */
function within(values: Set<string>, set: Set<string>): boolean {
  for (const value of values) if (!set.has(value)) return false;
  return true;
}

export function prepareClient(client: ClientFacts): PreparedClient {
  const seniority = client.role ? seniorityOf(client.role) : null;
  return {
    facts: client,
    countryForms: client.country ? countryForms(client.country) : null,
    industryWords: client.industry ? stems(client.industry) : null,
    roleWords: client.role ? stems(client.role) : null,
    seniority,
    sizeBit: optionBit(COMPANY_SIZES, client.companySize),
    seniorityBit: optionBit(SENIORITY_LEVELS, seniority),
    integrations: (client.integrations ?? []).map((integration) => [integration, fold(integration)]),
  };
}

/** Industries are free text: the client fits one when either name contains the other's words ("Software" in "Computer Software"). */
function industryFits(a: Set<string>, b: Set<string>): boolean {
  if (!a.size || !b.size) return false;
  return within(a, b) || within(b, a);
}

/**
 * Checks what is known of the client against a vendor's lead criteria. Only facts the client has AND
 * the ICP constrains are compared: an unknown fact, or an empty ICP field, never excludes.
 * Rules that exclude: country not among the ICP's countries; company size not among employeeCount;
 * industry matching none of the industries; a role whose seniority is clearly stated and not among the
 * ICP's seniority levels, unless the role is one of the ICP's job titles. Job titles only add fit (titles are
 * too varied to exclude on).
 */
export function checkIcp(criteria: Criteria | null, client: ClientFacts): IcpVerdict {
  return checkPrepared(prepareCriteria(criteria), prepareClient(client));
}

/**
 * `checkIcp` with both sides prepared beforehand: Smart Match checks one client against up to 60 vendors
 * per query, each vendor's criteria prepared once when saved.
 */
export function checkPrepared(prepared: PreparedCriteria | null, prepClient: PreparedClient): IcpVerdict {
  const verdict: IcpVerdict = { fails: [], fits: [], unknown: [] };
  if (!prepared) return verdict;
  const { asks } = prepared;
  const client = prepClient.facts;

  if (client.country && asks & ASKS.countries) {
    const forms = prepClient.countryForms!;
    const hit = prepared.countries.find((country) => meets(country.words, forms))?.name;
    if (hit) verdict.fits.push(`Serves ${hit}`);
    else verdict.fails.push(`Does not serve ${client.country} (serves ${prepared.shown.countries})`);
  }
  if (client.companySize && asks & ASKS.employeeCount) {
    if (prepared.sizes & prepClient.sizeBit) verdict.fits.push(`Fits company size ${client.companySize}`);
    else verdict.fails.push(`Company size ${client.companySize} is outside ${prepared.shown.employeeCount}`);
  }
  if (client.industry && asks & ASKS.industries) {
    const industryWords = prepClient.industryWords!;
    const hit = prepared.industries.find((industry) => industryFits(industryWords, industry.words))?.name;
    if (hit) verdict.fits.push(`Targets ${hit}`);
    else verdict.fails.push(`Industry ${client.industry} is not targeted (${prepared.shown.industries})`);
  }
  if (client.role) {
    const roleWords = prepClient.roleWords!;
    // A title fits when all its words are in the role ("Head of Sales" fits "Head of Sales EMEA").
    const title = prepared.jobTitles.find(
      (jobTitle) => jobTitle.words.size > 0 && within(jobTitle.words, roleWords),
    )?.name;
    const seniority = prepClient.seniority;
    if (seniority && asks & ASKS.seniority) {
      if (prepared.seniorities & prepClient.seniorityBit) verdict.fits.push(`Reaches ${seniority} contacts`);
      // A job title the vendor listed is wanted whatever its seniority ("Head of Sales" with seniority VP,
      // Director): the vendor named it.
      else if (!title && prepClient.seniorityBit)
        verdict.fails.push(`Role ${client.role} is outside the seniority ${prepared.shown.seniority}`);
    }
    if (title) verdict.fits.push(`Targets ${title}`);
  }
  // The vendor's hard criteria this referral says nothing about: shown, never excluding.
  if (!client.country && asks & ASKS.countries) verdict.unknown.push('Country not given');
  if (!client.companySize && asks & ASKS.employeeCount) verdict.unknown.push('Company size not given');
  if (!client.industry && asks & ASKS.industries) verdict.unknown.push('Industry not given');
  if (client.integrations?.length && asks & ASKS.techStack) {
    for (const [integration, folded] of prepClient.integrations)
      if (prepared.techStack.has(folded)) verdict.fits.push(`Works with ${integration}`);
  }
  return verdict;
}
