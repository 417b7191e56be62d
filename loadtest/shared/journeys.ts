/**
 * The load test's journeys, as data both runners execute: k6 (loadtest/k6, the real load) and the offline
 * smoke runner (loadtest/node/smoke.ts, autocannon), which `npm test` runs to prove every request is valid.
 * Plain TypeScript: no k6, no Node imports. Each step names the contract operation it calls
 * (packages/contracts/src/operations); a test checks method and path against it.
 */

/** What `npm run loadtest:seed` created, read by both runners (loadtest/.seed.json by default). */
export interface Seed {
  runId: string;
  /** The password of every seeded account. */
  password: string;
  /** Verified referrers, each with some referrals. */
  users: string[];
  /** Verified vendor workspaces; their owners sign in to the lead inbox. */
  vendors: Array<{ email: string; vendorId: string; domain: string; name: string }>;
}

/** One virtual user's state while it runs a journey. */
export interface VirtualUser {
  /** Which virtual user (k6 __VU), from 1. */
  index: number;
  /** Its iteration (k6 __ITER), from 0. */
  iteration: number;
  seed: Seed;
  /** Values captured from earlier answers (a referral id, a vendor id). */
  vars: Record<string, string>;
}

export type Method = 'GET' | 'POST' | 'PUT';

export interface Step {
  /** Stable name: the k6 `name` tag (groups URLs with ids) and the smoke report's line. */
  name: string;
  /** The contract operation's id. */
  operation: string;
  method: Method;
  path: (vu: VirtualUser) => string;
  body?: (vu: VirtualUser) => unknown;
  /** The only status that counts as success. */
  expect: number;
  /** Keeps something from the answer for later steps. */
  capture?: (vu: VirtualUser, json: unknown) => void;
  /**
   * Signing in: k6 does it once per virtual user (the session cookie is kept) and again after a 401;
   * the smoke runner at every pass.
   */
  signIn?: boolean;
}

export type JourneyName = 'signUp' | 'search' | 'createReferral' | 'teeUps' | 'impact' | 'vendorInbox';

export interface Journey {
  name: JourneyName;
  description: string;
  steps: Step[];
}

export const JOURNEY_NAMES: JourneyName[] = ['signUp', 'search', 'createReferral', 'teeUps', 'impact', 'vendorInbox'];

const pick = <T>(list: T[], n: number): T => {
  if (!list.length) throw new Error('the seed file lists none: run `npm run loadtest:seed` first');
  return list[n % list.length]!;
};
const referrer = (vu: VirtualUser) => pick(vu.seed.users, vu.index - 1);
const vendor = (vu: VirtualUser) => pick(vu.seed.vendors, vu.index - 1);

/** Products a referral can be for: some well known, the rest the seeded vendors' (leads in their inbox). */
export const PRODUCTS = [
  { product: 'HubSpot', company: 'HubSpot', website: 'hubspot.com', description: 'CRM platform' },
  { product: 'Slack', company: 'Salesforce', website: 'slack.com', description: 'Team messaging' },
  { product: 'Notion', company: 'Notion Labs', website: 'notion.so', description: 'Docs and wikis' },
  { product: 'Zendesk', company: 'Zendesk', website: 'zendesk.com', description: 'Customer service software' },
];

export const SEARCH_QUERIES = ['hubspot', 'slack.com', 'Notion', 'customer support software', 'https://zendesk.com'];

/** The body of POST /api/referrals: the n-th referral of a run, for a vendor's product one time in three. */
export function referralBody(seed: Seed, n: number, tag: string) {
  const vendors = seed.vendors;
  const known = PRODUCTS[n % PRODUCTS.length]!;
  const target =
    vendors.length && n % 3 === 0
      ? (() => {
          const v = vendors[n % vendors.length]!;
          return { product: `${v.name} Platform`, company: v.name, website: v.domain, description: 'Seeded vendor' };
        })()
      : known;
  return {
    referredFirstName: `Client${n}`,
    referredLastName: `Loadtest`,
    referredEmail: `client${n}.${tag}@clients.loadtest.example`,
    referralReason: 'They are choosing a tool like this one this quarter and asked me for an introduction.',
    isReferralAware: true,
    canUseReferrerName: true,
    product: target.product,
    company: target.company,
    website: target.website,
    description: target.description,
    client: { name: `Client Org ${n % 50}`, website: `client-org-${n % 50}.example`, country: 'Germany' },
    notes: '',
  };
}

const signIn = (as: 'referrer' | 'vendor'): Step => ({
  name: `sign in (${as})`,
  operation: 'login',
  method: 'POST',
  path: () => '/api/login',
  body: (vu) => ({ email: as === 'vendor' ? vendor(vu).email : referrer(vu), password: vu.seed.password }),
  expect: 200,
  signIn: true,
});

const unique = (vu: VirtualUser) =>
  `${vu.seed.runId}-${vu.index}-${vu.iteration}-${Math.floor(Math.random() * 1e9).toString(36)}`;

export const JOURNEYS: Record<JourneyName, Journey> = {
  signUp: {
    name: 'signUp',
    description: 'A new account (no session until its emailed link is opened), then a returning user signs in and out',
    steps: [
      {
        name: 'register',
        operation: 'register',
        method: 'POST',
        path: () => '/api/register',
        body: (vu) => ({
          firstName: 'Load',
          lastName: 'Tester',
          companyName: 'Loadtest Agency',
          email: `signup-${unique(vu)}@signups.loadtest.example`,
          password: vu.seed.password,
        }),
        expect: 201,
      },
      { ...signIn('referrer'), signIn: false },
      { name: 'current user', operation: 'getUser', method: 'GET', path: () => '/api/user', expect: 200 },
      { name: 'sign out', operation: 'logout', method: 'POST', path: () => '/api/logout', expect: 200 },
    ],
  },
  search: {
    name: 'search',
    description: 'Product search (catalogue, or the model when configured)',
    steps: [
      signIn('referrer'),
      {
        name: 'search',
        operation: 'searchProducts',
        method: 'POST',
        path: () => '/api/search',
        body: (vu) => ({ query: SEARCH_QUERIES[(vu.index + vu.iteration) % SEARCH_QUERIES.length] }),
        expect: 200,
      },
    ],
  },
  createReferral: {
    name: 'createReferral',
    description: 'Search, submit a referral, poll its intro draft, open it',
    steps: [
      signIn('referrer'),
      {
        name: 'search',
        operation: 'searchProducts',
        method: 'POST',
        path: () => '/api/search',
        body: (vu) => ({ query: SEARCH_QUERIES[vu.iteration % SEARCH_QUERIES.length] }),
        expect: 200,
      },
      {
        name: 'create referral',
        operation: 'createReferral',
        method: 'POST',
        path: () => '/api/referrals',
        body: (vu) => referralBody(vu.seed, vu.index * 1000 + vu.iteration, unique(vu)),
        expect: 201,
        capture: (vu, json) => {
          vu.vars.referralId = String((json as { id: number }).id);
        },
      },
      {
        name: 'email draft ready?',
        operation: 'getEmailDraft',
        method: 'GET',
        path: (vu) => `/api/referrals/${vu.vars.referralId}/email-draft?checkOnly=true`,
        expect: 200,
      },
      {
        name: 'referral',
        operation: 'getReferral',
        method: 'GET',
        path: (vu) => `/api/referrals/${vu.vars.referralId}`,
        expect: 200,
      },
    ],
  },
  teeUps: {
    name: 'teeUps',
    description:
      'The Tee ups dashboard: the list with its summary, then filtered by stage, period, text, company, page',
    steps: [
      signIn('referrer'),
      { name: 'tee ups', operation: 'listReferrals', method: 'GET', path: () => '/api/referrals', expect: 200 },
      {
        name: 'tee ups by stage',
        operation: 'listReferrals',
        method: 'GET',
        path: (vu) =>
          `/api/referrals?status=${['pending', 'intro_made', 'became_customer'][vu.iteration % 3]}&days=all`,
        expect: 200,
      },
      {
        name: 'tee ups by period, paged',
        operation: 'listReferrals',
        method: 'GET',
        path: (vu) => `/api/referrals?days=30&page=${1 + (vu.iteration % 2)}&pageSize=10`,
        expect: 200,
      },
      {
        name: 'tee ups by text',
        operation: 'listReferrals',
        method: 'GET',
        path: (vu) => `/api/referrals?search=Client${vu.iteration % 10}&days=all`,
        expect: 200,
      },
      {
        name: 'tee ups by company',
        operation: 'listReferrals',
        method: 'GET',
        path: (vu) =>
          `/api/referrals?company=${encodeURIComponent(PRODUCTS[vu.iteration % PRODUCTS.length]!.company)}&days=all`,
        expect: 200,
      },
    ],
  },
  impact: {
    name: 'impact',
    description: 'The Impact dashboard and its commissions (CSV export)',
    steps: [
      signIn('referrer'),
      { name: 'impact', operation: 'getImpact', method: 'GET', path: () => '/api/referral-impact', expect: 200 },
      {
        name: 'impact this year',
        operation: 'getImpact',
        method: 'GET',
        path: () => `/api/referral-impact?from=${new Date().getUTCFullYear()}-01-01`,
        expect: 200,
      },
      { name: 'commissions', operation: 'listCommissions', method: 'GET', path: () => '/api/commissions', expect: 200 },
    ],
  },
  vendorInbox: {
    name: 'vendorInbox',
    description: 'A vendor member opens their workspace and its lead inbox, all and new',
    steps: [
      signIn('vendor'),
      {
        name: 'my vendors',
        operation: 'listMyVendors',
        method: 'GET',
        path: () => '/api/vendors/mine',
        expect: 200,
        capture: (vu, json) => {
          const [first] = (json as { vendors: Array<{ id: string }> }).vendors;
          vu.vars.vendorId = first?.id ?? vendor(vu).vendorId;
        },
      },
      {
        name: 'lead inbox',
        operation: 'listLeads',
        method: 'GET',
        path: (vu) => `/api/vendors/${vu.vars.vendorId ?? vendor(vu).vendorId}/leads?limit=21`,
        expect: 200,
      },
      {
        name: 'new leads',
        operation: 'listLeads',
        method: 'GET',
        path: (vu) => `/api/vendors/${vu.vars.vendorId ?? vendor(vu).vendorId}/leads?status=new&limit=21`,
        expect: 200,
      },
    ],
  },
};
