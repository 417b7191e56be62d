import { COUNTRIES, LeadCriteria, SENIORITY_LEVELS, type IcpFit } from '@app/contracts';
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
const ALIASES: Array<[string, string[]]> = [
  ['united states', ['usa', 'us', 'united states of america', 'america']],
  ['united kingdom', ['uk', 'gb', 'great britain', 'england', 'britain']],
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
  const folded = fold(value);
  return new Set([folded, ...(countryIndex.get(folded) ?? [])]);
}

const stems = (text: string) => new Set(plainWords(text).map(stem));

/** Industries are free text: the client fits one when either name contains the other's words ("Software" in "Computer Software"). */
function industryFits(client: string, industry: string): boolean {
  const a = stems(client);
  const b = stems(industry);
  if (!a.size || !b.size) return false;
  const within = (x: Set<string>, y: Set<string>) => [...x].every((word) => y.has(word));
  return within(a, b) || within(b, a);
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

/**
 * Checks what is known of the client against a vendor's lead criteria. Only facts the client has AND
 * the ICP constrains are compared: an unknown fact, or an empty ICP field, never excludes.
 * Rules that exclude: country not among the ICP's countries; company size not among employeeCount;
 * industry matching none of the industries; a role whose seniority is clearly stated and not among the
 * ICP's seniority levels, unless the role is one of the ICP's job titles. Job titles only add fit (titles are
 * too varied to exclude on).
 */
export function checkIcp(criteria: Criteria | null, client: ClientFacts): IcpVerdict {
  const verdict: IcpVerdict = { fails: [], fits: [], unknown: [] };
  if (!criteria) return verdict;

  if (client.country && criteria.countries.length) {
    const forms = countryForms(client.country);
    const hit = criteria.countries.find((country) => [...countryForms(country)].some((form) => forms.has(form)));
    if (hit) verdict.fits.push(`Serves ${hit}`);
    else
      verdict.fails.push(
        `Does not serve ${client.country} (serves ${criteria.countries.slice(0, 5).join(', ')}${criteria.countries.length > 5 ? '…' : ''})`,
      );
  }
  if (client.companySize && criteria.employeeCount.length) {
    if ((criteria.employeeCount as readonly string[]).includes(client.companySize))
      verdict.fits.push(`Fits company size ${client.companySize}`);
    else verdict.fails.push(`Company size ${client.companySize} is outside ${criteria.employeeCount.join(', ')}`);
  }
  if (client.industry && criteria.industries.length) {
    const hit = criteria.industries.find((industry) => industryFits(client.industry!, industry));
    if (hit) verdict.fits.push(`Targets ${hit}`);
    else
      verdict.fails.push(
        `Industry ${client.industry} is not targeted (${criteria.industries.slice(0, 5).join(', ')}${criteria.industries.length > 5 ? '…' : ''})`,
      );
  }
  if (client.role) {
    const roleWords = stems(client.role);
    // A title fits when all its words are in the role ("Head of Sales" fits "Head of Sales EMEA").
    const title = criteria.jobTitles.find((jobTitle) => {
      const titleWords = stems(jobTitle);
      return titleWords.size > 0 && [...titleWords].every((word) => roleWords.has(word));
    });
    const seniority = seniorityOf(client.role);
    if (seniority && criteria.seniority.length) {
      if ((criteria.seniority as readonly string[]).includes(seniority))
        verdict.fits.push(`Reaches ${seniority} contacts`);
      // A job title the vendor listed is wanted whatever its seniority ("Head of Sales" with seniority VP,
      // Director): the vendor named it.
      else if (!title && (SENIORITY_LEVELS as readonly string[]).includes(seniority))
        verdict.fails.push(`Role ${client.role} is outside the seniority ${criteria.seniority.join(', ')}`);
    }
    if (title) verdict.fits.push(`Targets ${title}`);
  }
  // The vendor's hard criteria this referral says nothing about: shown, never excluding.
  if (!client.country && criteria.countries.length) verdict.unknown.push('Country not given');
  if (!client.companySize && criteria.employeeCount.length) verdict.unknown.push('Company size not given');
  if (!client.industry && criteria.industries.length) verdict.unknown.push('Industry not given');
  if (client.integrations?.length && criteria.techStack.length) {
    const stack = new Set(criteria.techStack.map(fold));
    for (const integration of client.integrations)
      if (stack.has(fold(integration))) verdict.fits.push(`Works with ${integration}`);
  }
  return verdict;
}
