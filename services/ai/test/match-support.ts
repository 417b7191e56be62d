import {
  LeadCriteria,
  type EventEnvelope,
  type EventName,
  type EventPayload,
  type LeadCriteriaInput,
} from '@app/contracts';
import { outboxEvent } from '@app/kit';

/** An event envelope as the owning service's outbox would publish it. */
export function envelope<N extends EventName>(
  name: N,
  payload: EventPayload<N>,
  occurredAt = new Date(),
): EventEnvelope<N> {
  const row = outboxEvent(name, payload, 'req-test');
  return {
    id: row.id,
    name,
    payload: row.payload as EventPayload<N>,
    occurredAt: occurredAt.toISOString(),
    requestId: 'req-test',
  };
}

export const programSaved = (
  payload: Partial<EventPayload<'program.saved'>> & { name: string; description: string },
  occurredAt?: Date,
) =>
  envelope(
    'program.saved',
    {
      programId: crypto.randomUUID(),
      website: 'https://vendor.example',
      rewardDetails: 'Ask us about rewards.',
      vendorId: null,
      companyName: null,
      isActive: true,
      ...payload,
    },
    occurredAt,
  );

/** A vendor workspace as profiles publishes it: verified, version 1, unless said. */
export const vendorSaved = (
  vendorId: string,
  overrides: Partial<Omit<EventPayload<'vendor.saved'>, 'vendorId'>> = {},
) =>
  envelope('vendor.saved', {
    vendorId,
    version: 1,
    name: 'Vendor',
    domain: 'vendor.example',
    companyKey: 'vendor',
    leadInbox: 'leads@vendor.example',
    verified: true,
    members: [],
    ...overrides,
  });

export const leadCriteriaSaved = (vendorId: string, criteria: LeadCriteriaInput, version = 1) =>
  envelope('lead_criteria.saved', { vendorId, version, criteria: LeadCriteria.parse(criteria) });

const off = { enabled: false };
export const bountiesSaved = (vendorId: string, bounties: Record<string, unknown>, version = 1) =>
  envelope('bounties.saved', {
    vendorId,
    version,
    bounties: {
      qualifiedLead: off,
      meetingHeld: off,
      opportunityCreated: off,
      closedWon: off,
      retentionBonus: off,
      ...bounties,
    },
  });
