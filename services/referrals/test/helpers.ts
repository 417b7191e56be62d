import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import {
  LeadCriteria,
  type Bounties,
  type EventEnvelope,
  type EventName,
  type EventPayload,
  type LeadCriteriaInput,
} from '@app/contracts';
import { companyKey } from '@app/domain';
import { identitySigner } from '@app/kit';
import { eventually, startTestService, TEST_SECRET, type ServiceUnderTest } from '@app/testing';
import type pg from 'pg';
import { readReferralsConfig } from '../src/config.ts';
import { createReferralsService, type ReferralsService } from '../src/service.ts';

const off = { enabled: false } as const;
/** A vendor's bounties: every milestone off but those given. */
export const bounties = (overrides: Partial<Bounties>): Bounties => ({
  qualifiedLead: off,
  meetingHeld: off,
  opportunityCreated: off,
  closedWon: off,
  retentionBonus: off,
  ...overrides,
});

const signer = identitySigner(TEST_SECRET);

export interface TestUser {
  userId: string;
  email: string;
  headers: Record<string, string>;
}

/** A signed-in user as the gateway would vouch for it. */
export function testUser(name = 'user', { isAdmin = false, emailVerified = true } = {}): TestUser {
  const userId = randomUUID();
  const email = `${name}-${userId.slice(0, 8)}@example.com`;
  const identity = signer.sign({ userId, sessionId: randomUUID(), email, isAdmin, emailVerified }, 600);
  return { userId, email, headers: { 'x-identity': identity, 'content-type': 'application/json' } };
}

/**
 * The website tests give for a company's product: a vendor workspace saved with `saveVendor(ctx, { name })`
 * has this domain, so referrals naming its company (any spelling companyKey folds together) route to it
 * by the evidence routing needs.
 */
export const websiteOf = (company: string) => `https://${companyKey(company).replace(/[^a-z0-9]+/g, '')}.example/`;

export const referralInput = (overrides: Record<string, unknown> = {}) => ({
  referredFirstName: 'Grace',
  referredLastName: 'Hopper',
  referredEmail: 'grace@navy.example',
  referralReason: 'Needs a compiler for her team',
  isReferralAware: true,
  canUseReferrerName: false,
  productId: 'auto-generated',
  product: 'Slack',
  company: 'Salesforce, Inc.',
  description: 'Team chat',
  client: { name: 'US Navy' },
  ...overrides,
});

/** Waits until the service's subscribers have handled an event (the bus acknowledges once a handler succeeded). */
async function handled(sql: pg.Pool, eventId: string): Promise<void> {
  await eventually(
    async () =>
      (
        await sql.query(
          `SELECT 1 FROM bus.deliveries d JOIN bus.messages m ON m.seq = d.seq
            WHERE m.id = $1 AND d.subscriber LIKE 'referrals-%'`,
          [eventId],
        )
      ).rowCount === 0,
    10_000,
    `event ${eventId} to be handled`,
  );
}

/**
 * Hands an event to the service's subscribers as the bus would, and waits until they have handled it. The
 * bus keeps one event per id: publishing an id again is not delivered again, as on JetStream.
 */
export async function publish(ctx: Pick<TestContext, 'bus' | 'sql'>, event: EventEnvelope): Promise<void> {
  await ctx.bus.publish(event);
  await handled(ctx.sql, event.id);
}

/**
 * Delivers an event the bus keeps to the service's subscribers once more, as the bus does when an
 * acknowledgement was lost, and waits until they have handled it.
 */
export async function redeliver(ctx: Pick<TestContext, 'sql'>, eventId: string): Promise<void> {
  const { rowCount } = await ctx.sql.query(
    `INSERT INTO bus.deliveries (subscriber, seq)
     SELECT c.subscriber, m.seq FROM bus.messages m JOIN bus.consumers c ON c.event = m.name
      WHERE m.id = $1 AND c.subscriber LIKE 'referrals-%'`,
    [eventId],
  );
  if (!rowCount) throw new Error(`no subscriber of the service to redeliver ${eventId} to`);
  await handled(ctx.sql, eventId);
}

/** `publish` of an event made now (with a fresh id unless given). */
export async function deliver<N extends EventName>(
  ctx: Pick<TestContext, 'bus' | 'sql'>,
  name: N,
  payload: EventPayload<N>,
  id: string = randomUUID(),
): Promise<string> {
  const event: EventEnvelope<N> = { id, name, payload, occurredAt: new Date().toISOString() };
  await publish(ctx, event as EventEnvelope);
  return id;
}

/** Row counts of every table: bad input must leave them all as they were. */
export async function counts(sql: pg.Pool) {
  const { rows } = await sql.query(
    `SELECT (SELECT count(*)::int FROM referrals.referrals) referrals,
            (SELECT count(*)::int FROM referrals.referral_status_changes) changes,
            (SELECT count(*)::int FROM referrals.projects) projects,
            (SELECT count(*)::int FROM referrals.referrers) referrers,
            (SELECT count(*)::int FROM referrals.referral_timeline) timeline,
            (SELECT count(*)::int FROM referrals.outbox_events) outbox,
            (SELECT count(*)::int FROM referrals.processed_events) processed,
            (SELECT coalesce(max(updated_at), 'epoch') FROM referrals.referrals) last_update`,
  );
  return rows[0] as Record<string, unknown>;
}

export interface TestVendor {
  vendorId: string;
  name: string;
  domain: string;
  leadInbox: string;
  verified: boolean;
  members: TestUser[];
  version: number;
}

/**
 * A vendor workspace as profiles announces it (`vendor.saved`): verified unless told otherwise, its lead
 * inbox on its domain, its members with their emails. `saveVendor` again with changes and a higher version.
 */
export async function saveVendor(
  ctx: Pick<TestContext, 'bus' | 'sql'>,
  fields: Partial<TestVendor> & { name: string },
): Promise<TestVendor> {
  const vendor: TestVendor = {
    vendorId: randomUUID(),
    domain: new URL(websiteOf(fields.name)).hostname,
    verified: true,
    members: [],
    version: 1,
    leadInbox: '',
    ...fields,
  };
  if (fields.leadInbox === undefined) vendor.leadInbox = `leads@${vendor.domain}`;
  await deliver(ctx, 'vendor.saved', {
    vendorId: vendor.vendorId,
    version: vendor.version,
    name: vendor.name,
    domain: vendor.domain,
    companyKey: companyKey(vendor.name),
    leadInbox: vendor.leadInbox,
    verified: vendor.verified,
    members: vendor.members.map((member, i) => ({
      userId: member.userId,
      email: member.email,
      name: `Member ${i}`,
      role: i === 0 ? ('owner' as const) : ('member' as const),
    })),
  });
  return vendor;
}

/** A vendor's ICP as profiles announces it (`lead_criteria.saved`). */
export async function saveCriteria(
  ctx: Pick<TestContext, 'bus' | 'sql'>,
  vendorId: string,
  criteria: LeadCriteriaInput,
  version = 1,
): Promise<void> {
  await deliver(ctx, 'lead_criteria.saved', { vendorId, version, criteria: LeadCriteria.parse(criteria) });
}

export interface AiStub {
  url: string;
  /** Every question asked: the product name, whether it was authorized, and the whole body. */
  calls: Array<{ productName: string; authorized: boolean; question: Record<string, unknown> }>;
  close(): Promise<void>;
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body));
  });

/**
 * Plays the AI service's `POST /internal/referral-program`: the answer depends on the product name
 * ('Programmed' knows a program, 'Broken' fails, 'Slow' never answers in time, 'Denied' says NO).
 */
export async function startAiStub(expectedToken: string): Promise<AiStub> {
  const calls: AiStub['calls'] = [];
  const server: Server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as { productName: string } & Record<string, unknown>;
    const authorized = request.headers['x-internal-auth'] === expectedToken;
    calls.push({ productName: body.productName, authorized, question: body });
    const send = (status: number, value: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (!authorized || request.url !== '/internal/referral-program') return send(403, { message: 'Internal route' });
    switch (body.productName) {
      case 'Programmed':
        return send(200, { referralProgram: 'Partners earn 20% of first-year revenue.' });
      case 'Broken':
        return send(500, { message: 'Internal server error' });
      case 'Slow':
        return void setTimeout(() => send(200, { referralProgram: 'too late' }), 5000);
      case 'Denied':
        return send(200, { referralProgram: 'NO, they have no referral program.' });
      default:
        return send(200, { referralProgram: null });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type TestContext = ServiceUnderTest<ReferralsService>;

/** The service on a fresh database with an in-process bus that records what it publishes. */
export const startReferrals = (env: Record<string, string> = {}): Promise<TestContext> =>
  startTestService(
    [
      'referral.created',
      'referral.intro_email_requested',
      'referral.status_changed',
      'lead.created',
      'lead.accepted',
      'lead.declined',
      'lead.status_changed',
      'commission.created',
      'milestone.confirmation_requested',
      'lead.withdrawn',
      'commissions.reversed',
      'payout.recorded',
    ],
    ({ databaseUrl, bus }) =>
      createReferralsService({
        config: readReferralsConfig({ DATABASE_URL: databaseUrl, INTERNAL_SECRET: TEST_SECRET, ...env }),
        bus,
        logger: false,
      }),
  );
