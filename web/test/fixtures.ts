import type { Lead, Referral, ReferralList, Vendor } from '@app/contracts';
import { json, type RecordedRequest } from './utils';

export const makeReferral = (overrides: Partial<Referral> = {}): Referral => ({
  id: 7,
  projectId: 'p-acme',
  status: 'pending',
  createdAt: '2026-03-02T10:00:00.000Z',
  updatedAt: '2026-03-02T10:00:00.000Z',
  referredFirstName: 'Grace',
  referredLastName: 'Hopper',
  referredName: 'Grace Hopper',
  referredEmail: 'grace@navy.example',
  referredPhone: null,
  referralReason: 'Her team needs a CRM that scales with them.',
  isReferralAware: true,
  canUseReferrerName: false,
  notes: null,
  company: 'Acme Inc',
  project: {
    id: 'p-acme',
    productName: 'Acme CRM',
    companyName: 'Acme Inc',
    description: 'A CRM for small teams',
    website: 'https://www.acme.example',
    referralProgram: null,
  },
  emailDraft: null,
  fromClay: false,
  emailSentAt: null,
  dealValue: null,
  history: [{ from: null, to: 'pending', at: '2026-03-02T10:00:00.000Z' }],
  description: 'A CRM for small teams',
  client: null,
  lead: null,
  fit: null,
  timeline: [],
  ...overrides,
});

export const makeList = (referrals: Referral[], overrides: Partial<ReferralList> = {}): ReferralList => ({
  referrals,
  total: referrals.length,
  page: 1,
  pageSize: 10,
  companies: [...new Set(referrals.map((r) => r.project.companyName))],
  summary: {
    total: referrals.length,
    inFlight: referrals.filter((r) => r.status !== 'became_customer' && r.status !== 'declined').length,
    closedWon: referrals.filter((r) => r.status === 'became_customer').length,
    declined: referrals.filter((r) => r.status === 'declined').length,
  },
  reciprocity: { sent: referrals.length, received: 0 },
  ...overrides,
});

export const chatCompletion = (content: string) =>
  json(200, {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'local',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });

/** The query parameters of a recorded request. */
export const queryOf = (req: RecordedRequest) => Object.fromEntries(new URL(req.url, 'http://localhost').searchParams);

export const makeVendor = (overrides: Partial<Vendor> = {}): Vendor => ({
  id: 'v-acme',
  name: 'Acme',
  domain: 'acme.example',
  leadInbox: 'leads@acme.example',
  verified: true,
  verification: 'domain',
  verifiedAt: '2026-02-01T10:00:00.000Z',
  role: 'owner',
  members: [
    {
      userId: 'u1',
      email: 'ada@acme.example',
      name: 'Ada Lovelace',
      role: 'owner',
      joinedAt: '2026-02-01T10:00:00.000Z',
    },
    { userId: 'u2', email: 'bob@acme.example', name: 'Bob Byte', role: 'member', joinedAt: '2026-02-02T10:00:00.000Z' },
  ],
  invitations: [],
  hasLeadCriteria: false,
  hasBounties: false,
  createdAt: '2026-02-01T10:00:00.000Z',
  ...overrides,
});

export const makeLead = (overrides: Partial<Lead> = {}): Lead => ({
  referralId: 7,
  createdAt: '2026-03-02T10:00:00.000Z',
  status: 'new',
  declineReason: null,
  decidedAt: null,
  productName: 'Acme CRM',
  client: { name: 'Globex', website: 'globex.example', size: '51-200', country: 'Germany', industry: 'Logistics' },
  contact: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@globex.example' },
  referrer: { name: 'Rita Referrer', company: 'Northwind Agency', email: 'rita@northwind.example' },
  reason: 'Their sales team needs a CRM.',
  notes: 'Budget approved for Q2.',
  fit: { fits: ['Based in Germany, a country you sell to'], fails: [], unknown: ['Funding stage not given'] },
  introEmail: { subject: 'Grace, meet Acme CRM', body: 'Hi Grace, ...', sentAt: null },
  timeline: [
    { at: '2026-03-02T10:00:00.000Z', actor: 'referrer', kind: 'submitted', text: 'Rita Referrer referred Globex' },
    { at: '2026-03-02T10:00:01.000Z', actor: 'system', kind: 'routed', text: "Sent to Acme's lead inbox" },
  ],
  ...overrides,
});
