/**
 * The synthetic Smart Match catalogue of `npm run bench:smart-match` (bench/smart-match.ts) and of the
 * ranking digest test (match-ranking.test.ts): programs over 20 product categories with vendor ICPs and
 * bounties, and 50 client needs, all from fixed seeds so every run builds the same.
 */
import { MatchRequest } from '@app/contracts';
import { seededRandom } from '@app/testing/random';
import { Matcher, type MatchProgramRecord, type ParsedMatchRequest, type VendorRecord } from '../src/match/engine.ts';

/** Product categories with the words their programs are described in. */
const CATEGORIES: Array<[string, string[]]> = [
  ['CRM', ['crm', 'pipeline', 'deals', 'contacts', 'sales', 'forecasting', 'leads']],
  ['Payroll', ['payroll', 'benefits', 'tax', 'filing', 'salaries', 'compliance', 'employees']],
  ['Helpdesk', ['helpdesk', 'ticketing', 'support', 'sla', 'knowledge', 'base', 'chat']],
  ['Accounting', ['accounting', 'invoicing', 'bookkeeping', 'ledger', 'reconciliation', 'expenses']],
  ['Marketing automation', ['email', 'campaigns', 'automation', 'segmentation', 'newsletters', 'nurturing']],
  ['Analytics', ['analytics', 'dashboards', 'reporting', 'bi', 'metrics', 'warehouse']],
  ['Cybersecurity', ['security', 'endpoint', 'threat', 'detection', 'siem', 'phishing', 'soc2']],
  ['Cloud hosting', ['hosting', 'cloud', 'kubernetes', 'servers', 'cdn', 'uptime']],
  ['HR', ['hr', 'onboarding', 'performance', 'reviews', 'recruiting', 'ats', 'hiring']],
  ['Project management', ['projects', 'tasks', 'kanban', 'gantt', 'timelines', 'collaboration']],
  ['E-commerce', ['ecommerce', 'storefront', 'checkout', 'shopify', 'inventory', 'orders']],
  ['Payments', ['payments', 'cards', 'billing', 'subscriptions', 'checkout', 'fraud']],
  ['Legal', ['contracts', 'esignature', 'clm', 'legal', 'clauses', 'approvals']],
  ['Telephony', ['voip', 'calls', 'phone', 'contact', 'center', 'ivr', 'sms']],
  ['Data engineering', ['etl', 'pipelines', 'connectors', 'warehouse', 'snowflake', 'dbt']],
  ['Video', ['video', 'conferencing', 'webinars', 'recording', 'meetings', 'streaming']],
  ['Design', ['design', 'prototyping', 'figma', 'whiteboard', 'assets', 'brand']],
  ['Logistics', ['shipping', 'freight', 'warehouse', 'fulfillment', 'tracking', 'fleet']],
  ['Healthcare IT', ['ehr', 'patients', 'scheduling', 'telehealth', 'hipaa', 'clinics']],
  ['Education', ['lms', 'courses', 'training', 'learning', 'quizzes', 'certification']],
];
const GENERIC =
  'teams businesses fast simple secure integrations api mobile workflows insights growth enterprise startups global modern reliable scalable affordable'.split(
    ' ',
  );
const COUNTRIES = [
  'United States',
  'Germany',
  'France',
  'United Kingdom',
  'Netherlands',
  'Spain',
  'Canada',
  'Australia',
  'Brazil',
  'India',
  'Japan',
  'Sweden',
];
const SIZES_LIST = [
  'Self-Employed',
  '2-10',
  '11-50',
  '51-200',
  '201-500',
  '501-1,000',
  '1,001-5,000',
  '5,001-10,000',
  '10,001+',
] as const;
const INDUSTRIES = [
  'Computer Software',
  'Financial Services',
  'Retail',
  'Hospital & Health Care',
  'Marketing and Advertising',
  'Logistics and Supply Chain',
  'Education Management',
  'Manufacturing',
];
const SENIORITY = ['Owner', 'C-suite', 'VP', 'Director', 'Head', 'Manager', 'Senior'] as const;
const SYLLABLES = [
  'zen',
  'flo',
  'qua',
  'ria',
  'tek',
  'nova',
  'lux',
  'bri',
  'dyn',
  'sol',
  'vix',
  'par',
  'gri',
  'mo',
  'tal',
  'kor',
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}
function some<T>(rand: () => number, list: readonly T[], min: number, max: number): T[] {
  const n = min + Math.floor(rand() * (max - min + 1));
  return [...new Set(Array.from({ length: n }, () => pick(rand, list)))];
}

/** Where the catalogue is saved: the ai service's `Matcher`, or another version of it (the bench's `BENCH_MATCH_B`). */
export interface CatalogueSink {
  putProgram(program: MatchProgramRecord): void;
  putVendor(vendor: VendorRecord): void;
}

export function buildMatcher(size: number): Matcher;
export function buildMatcher<T extends CatalogueSink>(size: number, matcher: T): T;
export function buildMatcher(size: number, matcher: CatalogueSink = new Matcher()): CatalogueSink {
  const rand = seededRandom(42);
  for (let i = 0; i < size; i++) {
    const [category, words] = pick(rand, CATEGORIES);
    const brand = `${pick(rand, SYLLABLES)}${pick(rand, SYLLABLES)}${i}`;
    const company = `${brand[0]!.toUpperCase()}${brand.slice(1)} ${pick(rand, ['Inc', 'GmbH', 'Ltd', 'LLC'])}`;
    // A second category for some, as real products span more than one.
    const extra = rand() < 0.3 ? pick(rand, CATEGORIES)[1] : [];
    const description = [
      `${brand} is a ${category.toLowerCase()} product for`,
      ...Array.from({ length: 18 + Math.floor(rand() * 20) }, () =>
        rand() < 0.6 ? pick(rand, [...words, ...extra]) : pick(rand, GENERIC),
      ),
    ].join(' ');
    matcher.putProgram({
      id: `program-${i}`,
      name: `${brand} ${category} Partner Program`,
      description,
      website: `https://${brand}.example`,
      rewardDetails:
        rand() < 0.5
          ? `${5 + Math.floor(rand() * 25)}% recurring commission for 12 months`
          : `$${100 * (1 + Math.floor(rand() * 20))} per closed deal`,
      vendorId: `vendor-${i}`,
      companyName: company,
      isActive: rand() < 0.9,
    });
    if (rand() < 0.8) {
      matcher.putVendor({
        vendorId: `vendor-${i}`,
        name: company,
        verified: true,
        criteria: {
          countries: rand() < 0.7 ? some(rand, COUNTRIES, 1, 5) : [],
          employeeCount: rand() < 0.6 ? some(rand, SIZES_LIST, 2, 5) : [],
          industries: rand() < 0.4 ? some(rand, INDUSTRIES, 1, 3) : [],
          seniority: rand() < 0.3 ? some(rand, SENIORITY, 2, 4) : [],
          techStack: some(rand, ['Salesforce', 'HubSpot', 'Slack', 'Gmail', 'Shopify', 'QuickBooks'], 0, 3),
        },
        bounties: {
          qualifiedLead: rand() < 0.3 ? { enabled: true, type: 'flat', amount: 50 } : { enabled: false },
          meetingHeld:
            rand() < 0.3 ? { enabled: true, type: 'percentage_mrr', amount: 10, months: 12 } : { enabled: false },
          opportunityCreated: { enabled: false },
          closedWon: { enabled: true, type: rand() < 0.5 ? 'flat' : 'percentage_arr', amount: rand() < 0.5 ? 500 : 20 },
          retentionBonus: { enabled: false },
        },
      });
    }
  }
  return matcher;
}

/** 50 client needs, from one word to a paragraph, some with client facts. */
export function queries(): ParsedMatchRequest[] {
  const rand = seededRandom(7);
  const needs = [
    'CRM for a growing sales team',
    'they need payroll and benefits for 40 employees',
    'helpdesk ticketing with SLA tracking and a knowledge base',
    'invoicing and bookkeeping for a small agency',
    'email campaigns automation and newsletters',
    'dashboards and reporting on top of our warehouse',
    'endpoint security and phishing protection, SOC2 audit coming',
    'kubernetes hosting with good uptime',
    'recruiting ATS and onboarding for hiring 30 people',
    'project tasks kanban and gantt timelines',
    'shopify storefront checkout and inventory',
    'subscription billing and card payments with fraud checks',
    'contract management and esignature approvals',
    'VoIP phone system with IVR and SMS for a contact center',
    'ETL connectors into snowflake with dbt',
    'webinars and video conferencing with recording',
    'design prototyping and whiteboard for the brand team',
    'freight shipping tracking and fulfillment',
    'EHR and telehealth scheduling for clinics, HIPAA',
    'LMS for employee training and certification',
    'crm',
    'payroll',
    'security',
    'analytics',
    'a tool to track deals and forecast the sales pipeline, integrated with Gmail, the team is 12 people and growing fast',
    'our client runs 14 clinics and wants patients to book online and do video visits',
    'they sell online and need to ship orders faster across Europe',
    'the finance team closes the books by hand every month; reconciliation and expenses take days',
    'marketing wants nurturing sequences and segmentation for leads from webinars',
    'engineering wants dashboards and metrics from the data warehouse',
    'a startup that needs everything: crm, payroll, invoicing and a helpdesk',
    'reduce phishing risk and detect threats on laptops',
    'sign contracts faster with clause approvals',
    'manage recruiting pipelines and performance reviews',
    'collaboration on projects across time zones',
    'accept payments in many currencies',
    'quizzes and courses for customer training',
    'call center software with call recording',
    'move data from 30 connectors into the warehouse nightly',
    'brand assets library for designers',
    'fleet tracking for 200 vans',
    'knowledge base and chat support for a SaaS',
    'billing for subscriptions with dunning',
    'inventory sync between warehouse and storefront',
    'reporting for the board: metrics and insights',
    'hiring and onboarding for a fast growing startup',
    'tax filing and compliance for employees in several states',
    'secure servers and cdn for a global website',
    'meetings and streaming for all hands',
    'timelines and gantt charts for construction projects',
  ];
  return needs.map((need, i) =>
    MatchRequest.parse({
      need,
      ...(i % 3 === 0 ? { country: pick(rand, COUNTRIES) } : {}),
      ...(i % 4 === 0 ? { companySize: pick(rand, SIZES_LIST) } : {}),
      ...(i % 5 === 0
        ? {
            industry: pick(rand, INDUSTRIES),
            role: pick(rand, ['VP of Sales', 'CTO', 'Office Manager', 'Head of People']),
          }
        : {}),
      ...(i % 6 === 0 ? { integrations: ['Salesforce', 'Slack'] } : {}),
      urgency: pick(rand, ['low', 'medium', 'high'] as const),
      limit: 5,
    }),
  );
}
