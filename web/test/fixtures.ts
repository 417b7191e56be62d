import type { Referral, ReferralList } from '@app/contracts';
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
