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

/** A domain no other test uses ("acme-1a2b3c4d.test"). */
export const uniqueDomain = (prefix = 'vendor') => `${prefix}-${randomUUID().slice(0, 8)}.test`;

/** A signed-in user as the gateway would vouch for it (verified email unless said otherwise). */
export function testUser(
  name = 'user',
  options: { emailVerified?: boolean; isAdmin?: boolean; domain?: string; email?: string; userId?: string } = {},
): TestUser {
  const userId = options.userId ?? randomUUID();
  const email = options.email ?? `${name}-${userId.slice(0, 8)}@${options.domain ?? 'example.com'}`;
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
    vendors: '*',
    vendor_members: '*',
    vendor_invitations: '*',
    vendor_audit: '*',
    lead_criteria: '*',
    bounties: '*',
    outbox_events: 'id, name, payload, request_id, occurred_at',
    processed_events: '*',
    demo_requests: '*',
    webhook_endpoints: '*',
    webhook_deliveries: '*',
  };
  const result: Record<string, unknown[]> = {};
  for (const [table, columns] of Object.entries(tables))
    result[table] = (await sql.query(`SELECT ${columns} FROM profiles.${table} ORDER BY 1, 2`)).rows;
  return result;
}

export type TestContext = ServiceUnderTest<ProfilesService>;

/** What the tests watch the service publish. */
export const RECORDED = ['vendor.saved', 'lead_criteria.saved', 'bounties.saved', 'vendor_invitation.created'] as const;

/** An HTTP call to the service as `user` (JSON body unless a string is given). */
export function caller(ctx: () => TestContext) {
  return (user: TestUser | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    ctx().service.app.inject({
      method,
      url,
      // Without a body, no content type (as browsers send a bodyless POST or DELETE).
      headers: Object.fromEntries(
        Object.entries(user?.headers ?? {}).filter(([name]) => payload !== undefined || name !== 'content-type'),
      ),
      payload: payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
}

/**
 * A user with a workspace verified by their own address on its (fresh) domain: what a vendor needs before
 * saving lead criteria or bounties.
 */
export async function verifiedVendor(
  ctx: TestContext,
  name = 'vendor',
): Promise<{ owner: TestUser; vendorId: string; domain: string }> {
  const domain = uniqueDomain(name);
  const owner = testUser(name, { domain });
  const response = await caller(() => ctx)(owner, 'POST', '/api/vendors', { name: `${name} Inc`, website: domain });
  if (response.statusCode !== 201) throw new Error(`workspace not created: ${response.body}`);
  const vendor = response.json<{ id: string; verified: boolean }>();
  if (!vendor.verified) throw new Error('workspace not verified');
  return { owner, vendorId: vendor.id, domain };
}

/** The events of one name about one workspace the service published so far, in order. */
export const eventsOfVendor = <N extends EventName>(ctx: TestContext, vendorId: string, name: N) =>
  ctx.published.filter(
    (e): e is EventEnvelope<N> => e.name === name && (e.payload as { vendorId?: string }).vendorId === vendorId,
  );

/** The service on a fresh database with an in-process bus that records what it publishes. */
export const startProfiles = (env: Record<string, string> = {}): Promise<TestContext> =>
  startTestService(RECORDED, ({ databaseUrl, bus }) =>
    createProfilesService({
      config: readProfilesConfig({ DATABASE_URL: databaseUrl, INTERNAL_SECRET: TEST_SECRET, ...env }),
      bus,
      logger: false,
    }),
  );
