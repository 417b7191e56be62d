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
      companyName: null,
      isActive: true,
      ...payload,
    },
    occurredAt,
  );

export const leadCriteriaSaved = (companyName: string, criteria: LeadCriteriaInput, occurredAt?: Date) =>
  envelope(
    'lead_criteria.saved',
    { userId: crypto.randomUUID(), companyName, criteria: LeadCriteria.parse(criteria) },
    occurredAt,
  );

const off = { enabled: false };
export const bountiesSaved = (companyName: string, bounties: Record<string, unknown>, occurredAt?: Date) =>
  envelope(
    'bounties.saved',
    {
      userId: crypto.randomUUID(),
      companyName,
      bounties: {
        qualifiedLead: off,
        meetingHeld: off,
        opportunityCreated: off,
        closedWon: off,
        retentionBonus: off,
        ...bounties,
      },
    },
    occurredAt,
  );
