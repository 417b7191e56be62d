import type { Commission, Lead, MilestoneState, Referral, ReferralList, ReferralMoney, Vendor } from '@app/contracts';
import { MILESTONES } from '@app/contracts';
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
  money: makeMoney(),
  lastActivity: { at: '2026-03-02T10:00:00.000Z', text: 'Referral submitted' },
  awaitingApproval: false,
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
  companies: [...new Set(referrals.map((r) => r.company))],
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
  revokedAt: null,
  domainRevoked: false,
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
  stage: 'pending',
  money: makeMoney(),
  ...overrides,
});

const BOUNTY_TEXT: Record<MilestoneState['milestone'], string | null> = {
  qualifiedLead: '$100 flat',
  meetingHeld: null,
  opportunityCreated: '$250 flat',
  closedWon: '10% of first-year ARR',
  retentionBonus: null,
};

/** The fixture vendor's bounties, as BOUNTY_TEXT says them (the referral was made before it had any). */
const BOUNTY_TERMS: Record<MilestoneState['milestone'], MilestoneState['termsNow']> = {
  qualifiedLead: { enabled: true, type: 'flat', amount: 100 },
  meetingHeld: { enabled: false },
  opportunityCreated: { enabled: true, type: 'flat', amount: 250 },
  closedWon: { enabled: true, type: 'percentage_arr', amount: 10 },
  retentionBonus: { enabled: false },
};

/** One milestone of a referral, open with the fixture vendor's bounty unless told. */
export const makeMilestone = (
  milestone: MilestoneState['milestone'],
  overrides: Partial<MilestoneState> = {},
): MilestoneState => ({
  milestone,
  bountyEnabled: BOUNTY_TEXT[milestone] !== null,
  bounty: BOUNTY_TEXT[milestone],
  termsAtReferral: null,
  termsNow: BOUNTY_TERMS[milestone],
  state: 'open',
  requestedAt: null,
  confirmedAt: null,
  confirmedBy: null,
  dueAt: null,
  ...overrides,
});

/** A referral's money: every milestone open, nothing earned, unless told. */
export const makeMoney = (overrides: Partial<ReferralMoney> = {}): ReferralMoney => ({
  currency: 'USD',
  expectedValueCents: null,
  dealValueCents: null,
  milestones: MILESTONES.map((m) => makeMilestone(m)),
  commissions: [],
  earnedCents: 0,
  expectedCents: null,
  ...overrides,
});

export const makeCommission = (overrides: Partial<Commission> = {}): Commission => ({
  id: '0b9f6a52-8f0e-4a77-9d1c-3f1a2b3c4d5e',
  referralId: 7,
  milestone: 'qualifiedLead',
  vendorId: 'v-acme',
  partner: 'Acme',
  contact: 'Grace Hopper',
  referrer: { userId: 'u9', name: 'Rita Referrer', email: 'rita@northwind.example' },
  currency: 'USD',
  grossCents: 10000,
  referrerCents: 8000,
  feeCents: 2000,
  dealValueCents: null,
  state: 'in_escrow',
  earnedAt: '2026-03-04T10:00:00.000Z',
  paidAt: null,
  payoutId: null,
  payoutReference: null,
  reversedAt: null,
  reversalReason: null,
  ...overrides,
});
