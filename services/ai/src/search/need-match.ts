import { compact, companyForms, words } from './normalize.ts';
import type { Product } from './product.ts';
import { editDistance } from './similarity.ts';

/** A kind of software a need can ask for, with the words people use for it and its products, best first. */
export interface Category {
  id: string;
  name: string;
  /** What people type when they need it ("run payroll", "hire abroad"). */
  phrases: string[];
  /** Catalogue product names, the usual choice of small companies first. */
  products: string[];
}

/** Words that say nothing about the kind of software ("team", "remote", "software", "for"). */
const STOP = new Set(
  (
    'a an the and or of in on at by to for from into with without within our my we i me you your their it its this that ' +
    'these those is are be been can could should would will need needs want wants looking look best good great better ' +
    'simple simpler easy easily quick quickly cheap affordable free new all one place some any help helps way ' +
    'software tool tools app apps application platform system solution solutions service program programs product ' +
    'team teams company companies business businesses small smb startup startups growing scale up scaleup ' +
    'remote distributed hybrid office people person use using used make build create get set run work works working ' +
    'like also just more most other so up via per what which who how do does something thing things'
  ).split(' '),
);

/** Words that only narrow a choice within a kind of software: sizes, places, audiences. */
const WEAK = new Set(
  (
    'uk us usa america american europe european eu germany german france french spain netherlands ireland irish ' +
    'canada australia india london global international local online cloud employee employees staff user users ' +
    'customer customers client clients enterprise large mid sized medium agency agencies freelancer freelancers'
  ).split(' '),
);

/**
 * A light stem so "meetings", "meeting" and "meet", "invoicing" and "invoices", "payments" and "pay",
 * "automation" and "automated", "scheduler" and "schedule" meet.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 5 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 6 && w.endsWith('ment')) w = w.slice(0, -4);
  else if (w.length > 6 && w.endsWith('tion')) w = w.slice(0, -3);
  else if (w.length > 5 && w.endsWith('er') && !w.endsWith('eer')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Numbers are sizes ("10-person", "500 attendees", "5,000 subscribers"): weak like the other sizes. */
const weightOf = (word: string) =>
  word.length < 2 || STOP.has(word) ? 0 : WEAK.has(word) || /^\d/.test(word) ? 0.3 : 1;

/** Stop words that still carry meaning next to another word ("team chat", "remote access", "small business"). */
const PAIRABLE = new Set(
  'team teams remote office business company software online cloud app apps service system people'.split(' '),
);

interface Term {
  term: string;
  weight: number;
  /** The word as typed, for a single term. */
  word?: string;
}

/**
 * Everyday words for the same need, at word level: a need worded differently from a category's phrases
 * ("payslips", "rota", "books") also reads as the usual wording. General English and trade jargon, not
 * any need set's phrases; the need's own word is kept and the alias counts a little less.
 */
const ALIASES: Record<string, string> = {
  invoice: 'invoicing accounting',
  bookkeeping: 'accounting',
  books: 'accounting',
  ledger: 'accounting',
  payslip: 'payroll',
  paystub: 'payroll',
  paycheck: 'payroll',
  salary: 'payroll',
  salaries: 'payroll',
  wages: 'payroll',
  hr: 'human resources hris',
  staff: 'employees',
  workforce: 'employees',
  personnel: 'employees',
  hire: 'hiring recruiting',
  applicant: 'recruiting candidates',
  candidate: 'recruiting',
  ats: 'applicant tracking recruiting',
  eor: 'employer of record',
  contractor: 'contractors international hiring',
  rota: 'shift scheduling',
  roster: 'shift scheduling',
  shifts: 'shift scheduling',
  lms: 'learning management training',
  course: 'training learning',
  reimburse: 'expenses reimbursement',
  receipt: 'expenses',
  supplier: 'vendor bills payables',
  payable: 'bills pay vendors',
  cfo: 'finance',
  budget: 'budgeting planning forecasting',
  forecast: 'forecasting planning',
  currency: 'multi currency banking',
  currencies: 'multi currency banking',
  fx: 'foreign exchange multi currency',
  euro: 'currency banking',
  dollar: 'currency banking',
  checkout: 'payments',
  sign: 'e-signature signature',
  signing: 'e-signature signature',
  signature: 'e-signature',
  esign: 'e-signature',
  meeting: 'video call',
  webcam: 'video call',
  videocall: 'video call',
  call: 'phone',
  messaging: 'chat',
  im: 'chat messaging',
  voip: 'business phone',
  telephony: 'business phone',
  newsletter: 'email marketing',
  mailing: 'email marketing',
  drip: 'email automation',
  nurture: 'marketing automation',
  instagram: 'social media',
  facebook: 'social media',
  linkedin: 'social media',
  tiktok: 'social media',
  twitter: 'social media',
  rank: 'seo search ranking',
  ranking: 'seo',
  keyword: 'seo',
  backlink: 'seo',
  serp: 'seo',
  site: 'website',
  homepage: 'website',
  questionnaire: 'survey form',
  poll: 'survey',
  nps: 'survey feedback',
  flyer: 'graphic design',
  poster: 'graphic design',
  logo: 'graphic design',
  prototype: 'ui design mockups',
  wireframe: 'ui design mockups',
  mockup: 'ui design',
  kanban: 'project management boards',
  gantt: 'project management',
  todo: 'tasks',
  bug: 'issue tracking',
  intranet: 'knowledge base wiki',
  wiki: 'knowledge base',
  documentation: 'knowledge base docs',
  password: 'password manager',
  credential: 'passwords',
  login: 'single sign on',
  soc: 'compliance',
  iso: 'compliance',
  gdpr: 'compliance privacy',
  antivirus: 'endpoint security',
  malware: 'endpoint security',
  edr: 'endpoint security',
  mdm: 'device management',
  laptop: 'devices',
  macbook: 'mac devices',
  phishing: 'security',
  uptime: 'monitoring',
  apm: 'monitoring',
  exception: 'errors',
  crash: 'errors',
  paged: 'on call alerting',
  page: 'pages',
  pager: 'on call alerting',
  outage: 'incident on call',
  downtime: 'incident on call',
  repo: 'code repositories git',
  repository: 'code git',
  deploy: 'deployment hosting',
  host: 'hosting',
  server: 'servers hosting',
  dashboard: 'dashboards reporting bi',
  report: 'reporting',
  heatmap: 'heatmaps session recordings',
  traffic: 'website analytics',
  sync: 'integration',
  integrate: 'integration automation',
  ticket: 'ticketing help desk support',
  ticketing: 'help desk support',
  widget: 'chat website',
  churn: 'customer success',
  rating: 'reviews',
  testimonial: 'reviews',
  shop: 'online store ecommerce',
  store: 'online store',
  storefront: 'online store ecommerce',
  sell: 'selling ecommerce',
  till: 'point of sale pos',
  register: 'point of sale',
  label: 'shipping labels',
  postage: 'shipping',
  courier: 'shipping',
  fulfilment: 'fulfillment shipping',
  transcribe: 'transcription notes',
  transcript: 'transcription notes',
  summary: 'notes',
  summaries: 'notes',
  webinar: 'webinars events',
  deck: 'presentation slides',
  slide: 'presentation',
  timesheet: 'time tracking',
  billable: 'time tracking',
  hours: 'time tracking',
  pdf: 'pdf documents',
  usability: 'user testing research',
  firm: 'practice',
  hvac: 'field service',
  plumber: 'field service',
  dispatch: 'field service jobs',
  prospect: 'leads',
  lead: 'leads crm',
  deals: 'deals pipeline',
};

/** Words that say the need is another product like the one it names ("Zoom alternative", "like Slack"). */
const LIKE = new Set(
  'alternative alternatives like instead competitor competitors vs versus than similar cheaper'.split(' '),
);

/**
 * The text's single terms (stop words dropped, the rest stemmed and weighted) and its neighbouring pairs
 * ("video conferenc", "team chat"): pairs carry a kind of software's exact wording.
 */
function terms(text: string): { single: Term[]; all: Term[] } {
  const list = words(text);
  const single: Term[] = [];
  const pairs: Term[] = [];
  list.forEach((word, i) => {
    if (weightOf(word) > 0) single.push({ term: stem(word), weight: weightOf(word), word });
    const next = list[i + 1];
    if (!next) return;
    const usable = (w: string) => weightOf(w) > 0 || PAIRABLE.has(w);
    if (usable(word) && usable(next) && (weightOf(word) > 0 || weightOf(next) > 0))
      pairs.push({ term: `${stem(word)} ${stem(next)}`, weight: Math.max(weightOf(word), weightOf(next)) });
  });
  return { single, all: [...single, ...pairs] };
}

/** ALIASES by the stem of the word, as the terms they add. */
const aliasTerms = new Map(Object.entries(ALIASES).map(([word, alias]) => [word, terms(alias).all]));

/** The alias key of a need word: itself or its singular ("payslips" → payslip, "rotas" → rota). */
const aliasKey = (word: string) =>
  aliasTerms.has(word) ? word : word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.replace(/s$/, '');

interface IndexedCategory {
  category: Category;
  products: Product[];
  counts: Map<string, number>;
  length: number;
}

export interface NeedIndex {
  categories: IndexedCategory[];
  /** In how many categories each term occurs. */
  frequency: Map<string, number>;
  averageLength: number;
  /** Terms that describe kinds of software (category names and phrases). */
  generic: Set<string>;
  /** Every term a need can be understood by (category wording and product descriptions, not product names). */
  known: Set<string>;
  /** Known single terms by length, for need words typed with a typo ("acounting"). */
  knownByLength: Map<number, string[]>;
  /** A product's one-word name ("quickbooks", "slack") → the wording of its first category: a need may name a product. */
  productWords: Map<string, string[]>;
  /** Every one-word product name → the wording of its first category, also names that are common words. */
  productKinds: Map<string, string[]>;
  /** In how many products' descriptions each term occurs (the weight of a term that singles one out). */
  productFrequency: Map<string, number>;
  productTerms: Map<Product, Set<string>>;
}

/** Category wording counts three times a product description's. */
const PHRASE_WEIGHT = 3;
/** A category's own name ("Email marketing") is its surest wording. */
const NAME_WEIGHT = 6;
const K1 = 1.2;
const B = 0.3;

export function indexNeeds(categories: readonly Category[], products: readonly Product[]): NeedIndex {
  const byName = new Map(products.map((product) => [product.product, product]));
  const names = new Set<string>();
  for (const product of products) {
    for (const name of [product.product, ...(product.aliases ?? []), ...companyForms(product.company)])
      names.add(stem(compact(name)));
  }
  const generic = new Set<string>();
  const known = new Set<string>();
  const frequency = new Map<string, number>();
  const productFrequency = new Map<string, number>();
  const productTerms = new Map<Product, Set<string>>();
  for (const product of products) {
    const set = new Set(terms(`${product.description} ${product.company}`).all.map((t) => t.term));
    for (const alias of product.aliases ?? []) for (const t of terms(alias).single) set.add(t.term);
    productTerms.set(product, set);
    for (const term of set) productFrequency.set(term, (productFrequency.get(term) ?? 0) + 1);
  }

  const indexed = categories.map((category) => {
    const members = category.products.map((name) => {
      const product = byName.get(name);
      if (!product) throw new Error(`Category ${category.id} names ${name}, which is not in the catalogue`);
      return product;
    });
    const counts = new Map<string, number>();
    const add = (term: string, weight: number) => counts.set(term, (counts.get(term) ?? 0) + weight);
    for (const [i, text] of [category.name, ...category.phrases].entries()) {
      for (const { term } of terms(text).all) {
        add(term, i === 0 ? NAME_WEIGHT : PHRASE_WEIGHT);
        generic.add(term);
        known.add(term);
      }
    }
    for (const product of members) {
      for (const { term } of terms(product.description).all) {
        add(term, 1);
        if (!names.has(term)) known.add(term);
      }
    }
    for (const term of counts.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
    const length = [...counts.values()].reduce((sum, n) => sum + n, 0);
    return { category, products: members, counts, length };
  });
  const averageLength = indexed.reduce((sum, c) => sum + c.length, 0) / Math.max(1, indexed.length);
  const knownByLength = new Map<number, string[]>();
  for (const term of new Set([...known, ...aliasTerms.keys()])) {
    if (term.includes(' ')) continue;
    knownByLength.set(term.length, [...(knownByLength.get(term.length) ?? []), term]);
  }
  const productWords = new Map<string, string[]>();
  const productKinds = new Map<string, string[]>();
  for (const entry of indexed) {
    const wording = terms(entry.category.name).single.map((t) => t.term);
    const kind = terms(entry.category.name).all.map((t) => t.term);
    for (const product of entry.products) {
      for (const name of [product.product, ...(product.aliases ?? [])]) {
        const key = words(name);
        if (key.length === 1 && !productKinds.has(key[0]!)) productKinds.set(key[0]!, kind);
        if (key.length === 1 && !generic.has(stem(key[0]!)) && !productWords.has(key[0]!))
          productWords.set(key[0]!, wording);
      }
    }
  }
  return {
    categories: indexed,
    frequency,
    averageLength,
    generic,
    known,
    knownByLength,
    productWords,
    productKinds,
    productFrequency,
    productTerms,
  };
}

/** A known term one typo away from an unknown need word ("acounting" → accounting), same first letter. */
function closeTerm(term: string, index: NeedIndex): string | null {
  if (term.length < 5) return null;
  const allowed = term.length >= 9 ? 2 : 1;
  let best: { term: string; distance: number } | null = null;
  for (let length = term.length - allowed; length <= term.length + allowed; length++) {
    for (const candidate of index.knownByLength.get(length) ?? []) {
      if (candidate[0] !== term[0]) continue;
      const distance = editDistance(term, candidate, allowed);
      if (
        distance <= allowed &&
        (!best || distance < best.distance || (distance === best.distance && candidate < best.term))
      )
        best = { term: candidate, distance };
    }
  }
  return best?.term ?? null;
}

export interface NeedMatch {
  category: Category;
  /** The category's products ranked for this need, best first; then a close second category's. */
  products: Product[];
  score: number;
  /** How many catalogue products the need names ("connect Stripe, HubSpot and Slack": 3). */
  named: number;
  /** The need asks for a product like the one it names ("Zoom alternative"): not that one. */
  alike: boolean;
}

/** Whether a word of the query describes a kind of software rather than naming a product ("team", "data"). */
export function isGenericWord(word: string, index: NeedIndex): boolean {
  return weightOf(word) < 1 || index.generic.has(stem(word));
}

/**
 * The kind of software a need asks for, and its products ranked by fit: BM25 over each category's wording
 * (three times) and its products' descriptions, single words and neighbouring pairs, stop words ignored
 * and sizes or places weak. Null when most of the need's words are unknown (a product name the catalogue
 * does not know is not a need). Within the category, products whose descriptions share the need's rarer
 * words come first ("payroll ... UK" → BrightPay), then the category's own order.
 */
export function matchNeed(query: string, index: NeedIndex): NeedMatch | null {
  const text = query.slice(0, 500);
  const parsed = terms(text);
  const single: Term[] = [];
  const extra: Term[] = [];
  let total = 0;
  let knownWeight = 0;
  const alike = words(text).some((word) => LIKE.has(word));
  let namedCount = 0;
  // An alias's terms, a little weaker than the word itself.
  const addAliases = (word: string, weight: number) => {
    for (const alias of aliasTerms.get(aliasKey(word)) ?? [])
      extra.push({ term: alias.term, weight: weight * alias.weight * 0.7 });
  };
  for (const term of parsed.single) {
    // "alternative", "like", "instead": say how, not what.
    if (LIKE.has(term.word!)) continue;
    total += term.weight;
    // A product named inside a need hints at its kind, weakly; strongly when the need asks for one like it
    // ("quickbooks alternative", "like Slack").
    const named =
      (alike ? (index.productKinds.get(term.word!) ?? index.productKinds.get(term.term)) : undefined) ??
      index.productWords.get(term.word!) ??
      index.productWords.get(term.term) ??
      index.productWords.get(`${term.term}s`);
    if (named) {
      namedCount++;
      knownWeight += term.weight;
      for (const word of named) extra.push({ term: word, weight: alike ? 1 : 0.3 });
      continue;
    }
    if (index.known.has(term.term)) {
      knownWeight += term.weight;
      single.push(term);
      addAliases(term.word!, term.weight);
      continue;
    }
    if (aliasTerms.has(aliasKey(term.word!))) {
      knownWeight += term.weight;
      addAliases(term.word!, term.weight / 0.7);
      continue;
    }
    const corrected = closeTerm(term.term, index);
    if (corrected) {
      knownWeight += term.weight;
      single.push({ term: corrected, weight: term.weight });
      addAliases(corrected, term.weight);
    } else {
      single.push(term);
      // In a longer need, an unknown word is more likely its context ("for a dental clinic") than a name.
      if (words(text).length >= 3) total -= term.weight / 2;
    }
  }
  // Two words with one unknown are more likely a product's name than a need ("Quokka Ledger").
  const share = total ? knownWeight / total : 0;
  if (!total || (words(text).length < 3 ? share <= 0.5 : share < 0.5)) return null;
  const query2 = [...single, ...parsed.all.slice(parsed.single.length), ...extra];

  const n = index.categories.length;
  const scored = index.categories
    .map((entry, position) => {
      let score = 0;
      for (const { term, weight } of query2) {
        const tf = entry.counts.get(term);
        if (!tf) continue;
        const df = index.frequency.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += weight * idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * entry.length) / index.averageLength)));
      }
      return { entry, score, position };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.position - b.position);
  const best = scored[0];
  if (!best || best.score < 1.5) return null;

  const productCount = index.productTerms.size;
  const fit = (product: Product) => {
    const own = index.productTerms.get(product)!;
    let score = 0;
    for (const { term, weight } of query2) {
      if (!own.has(term)) continue;
      const df = index.productFrequency.get(term) ?? 1;
      score += weight * Math.log(productCount / df);
    }
    return score;
  };
  const ranked = (entry: IndexedCategory) =>
    entry.products
      .map((product, position) => ({ product, position, fit: fit(product) }))
      .sort((a, b) => b.fit - a.fit || a.position - b.position)
      .map((r) => r.product);

  const products = ranked(best.entry);
  const second = scored[1];
  if (products.length < 4 && second && second.score >= best.score * 0.5) {
    for (const product of ranked(second.entry)) if (!products.includes(product)) products.push(product);
  }
  return {
    category: best.entry.category,
    products,
    score: best.score,
    named: namedCount,
    alike: alike && namedCount > 0,
  };
}
