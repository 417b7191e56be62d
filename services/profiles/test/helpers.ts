import { randomUUID } from 'node:crypto';
import type { EventEnvelope, EventName, EventPayload } from '@app/contracts';
import { identitySigner, type EventBus } from '@app/kit';
import { startTestService, TEST_SECRET, type ServiceUnderTest } from '@app/testing';
import type pg from 'pg';
import { readProfilesConfig } from '../src/config.ts';
import { createProfilesService, type ProfilesService } from '../src/service.ts';

const signer = identitySigner(TEST_SECRET);

export interface TestUser {
  userId: string;
  email: string;
  headers: Record<string, string>;
}

/** A signed-in user as the gateway would vouch for it (verified email unless said otherwise). */
export function testUser(name = 'user', options: { emailVerified?: boolean; isAdmin?: boolean } = {}): TestUser {
  const userId = randomUUID();
  const email = `${name}-${userId.slice(0, 8)}@example.com`;
  const identity = signer.sign(
    {
      userId,
      sessionId: randomUUID(),
      email,
      isAdmin: options.isAdmin ?? false,
      emailVerified: options.emailVerified ?? true,
    },
    600,
  );
  return { userId, email, headers: { 'x-identity': identity, 'content-type': 'application/json' } };
}

/** Hands an event to the service's consumers as the bus would. */
export async function deliver<N extends EventName>(
  bus: EventBus,
  name: N,
  payload: EventPayload<N>,
  id: string = randomUUID(),
): Promise<string> {
  const event: EventEnvelope<N> = { id, name, payload, occurredAt: new Date().toISOString() };
  await bus.publish(event as EventEnvelope);
  return id;
}

/**
 * Every row of every table: bad input must leave them all exactly as they were. The outbox's
 * published_at is left out: the relay marks earlier events published in the background.
 */
export async function snapshot(sql: pg.Pool) {
  const tables: Record<string, string> = {
    users: '*',
    lead_criteria: '*',
    bounties: '*',
    outbox_events: 'id, name, payload, request_id, occurred_at',
    processed_events: '*',
    demo_requests: '*',
  };
  const result: Record<string, unknown[]> = {};
  for (const [table, columns] of Object.entries(tables))
    result[table] = (await sql.query(`SELECT ${columns} FROM profiles.${table} ORDER BY 1, 2`)).rows;
  return result;
}

export type TestContext = ServiceUnderTest<ProfilesService>;

/** The service on a fresh database with an in-process bus that records what it publishes. */
export const startProfiles = (env: Record<string, string> = {}): Promise<TestContext> =>
  startTestService(['lead_criteria.saved', 'bounties.saved'], ({ databaseUrl, bus }) =>
    createProfilesService({
      config: readProfilesConfig({ DATABASE_URL: databaseUrl, INTERNAL_SECRET: TEST_SECRET, ...env }),
      bus,
      logger: false,
    }),
  );
