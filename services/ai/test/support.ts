import type { EventEnvelope, EventPayload } from '@app/contracts';
import { identitySigner, internalAuthToken, outboxEvent, type EventBus } from '@app/kit';
import { eventually, TEST_SECRET, testBus, type freshDatabase } from '@app/testing';
import pg from 'pg';
import { readAiConfig } from '../src/config.ts';
import { createAiService, type AiService } from '../src/service.ts';

export const json = { 'content-type': 'application/json' };

/** The x-identity header the gateway would add for a signed-in user. */
export const signedIn = (isAdmin = false) => ({
  'x-identity': identitySigner(TEST_SECRET).sign(
    {
      userId: crypto.randomUUID(),
      sessionId: crypto.randomUUID(),
      email: 'ada@example.com',
      isAdmin,
      emailVerified: true,
    },
    60,
  ),
});

export const internal = () => ({ 'x-internal-auth': internalAuthToken(TEST_SECRET) });

export interface RunningAi {
  service: AiService;
  bus: EventBus;
  /** Every `referral.draft_generated` the service published, in order. */
  drafts: Array<EventEnvelope<'referral.draft_generated'>>;
  /** The draft events for one referral, once at least `count` arrived. */
  draftsFor(referralId: number, count?: number): Promise<Array<EventPayload<'referral.draft_generated'>>>;
  /** Resolves once the subscriber has handled every one of the events (its claims committed). */
  handled(subscriber: string, ...events: EventEnvelope[]): Promise<void>;
  /** Stops consuming first (instances on one database share the bus's durable consumers), then the service. */
  close(): Promise<void>;
}

/** An ai service on the in-process bus against `databaseUrl`, ready (relay running), with its drafts collected. */
export async function startAi(databaseUrl: string, env: Record<string, string> = {}): Promise<RunningAi> {
  const bus = await testBus(databaseUrl);
  const config = readAiConfig({
    DATABASE_URL: databaseUrl,
    INTERNAL_SECRET: TEST_SECRET,
    PUBLIC_URL: 'https://app.example.com',
    ...env,
  });
  const service = await createAiService({ config, bus, logger: false });
  const drafts: RunningAi['drafts'] = [];
  await bus.subscribe({
    event: 'referral.draft_generated',
    subscriber: 'test-drafts',
    handle: async (event) => void drafts.push(event),
  });
  await service.app.ready();
  const payloadsFor = (referralId: number) =>
    drafts.filter((event) => event.payload.referralId === referralId).map((event) => event.payload);
  return {
    service,
    bus,
    drafts,
    draftsFor: (referralId, count = 1) =>
      eventually(
        () => payloadsFor(referralId).length >= count && payloadsFor(referralId),
        10_000,
        `draft for referral ${referralId}`,
      ),
    handled: async (subscriber, ...events) => {
      const ids = events.map((event) => event.id);
      await eventually(
        async () => {
          const { rows } = await service.pool.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM processed_events WHERE subscriber = $1 AND event_id = ANY($2::text[])',
            [subscriber, ids],
          );
          return rows[0]!.n === new Set(ids).size;
        },
        10_000,
        `${subscriber} to handle ${ids.length} event(s)`,
      );
    },
    async close() {
      await bus.close();
      await service.close();
    },
  };
}

let nextReferralId = Math.floor(Math.random() * 1_000_000);

type NewReferral = EventPayload<'referral.created'>;

/** A `referral.created` envelope as the referrals service's outbox would publish it. */
export function referralCreated(
  overrides: Partial<Omit<NewReferral, 'project'>> & { project?: Partial<NewReferral['project']> } = {},
): EventEnvelope<'referral.created'> {
  const { project, ...rest } = overrides;
  const payload: NewReferral = {
    referralId: ++nextReferralId,
    referrer: {
      userId: crypto.randomUUID(),
      email: 'ada@engines.example',
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Engines Ltd',
    },
    referred: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example' },
    reason: 'Her team is drowning in email threads and needs channels.',
    isReferralAware: true,
    canUseReferrerName: true,
    ...rest,
    project: {
      id: crypto.randomUUID(),
      productName: 'Slack',
      companyName: 'Slack Technologies, LLC',
      description: 'Team messaging app with channels, huddles and integrations.',
      website: 'https://slack.com',
      ...project,
    },
  };
  const row = outboxEvent('referral.created', payload, 'req-test');
  return {
    id: row.id,
    name: row.name,
    payload: row.payload,
    occurredAt: row.occurredAt.toISOString(),
    requestId: 'req-test',
  };
}

/**
 * Drops a test database once its connections have really closed. A pg pool's end() resolves before its
 * sockets are gone, and dropping WITH (FORCE) meanwhile makes PostgreSQL terminate them: an unhandled
 * 'terminating connection' error in whichever test file runs next.
 */
export async function dropDatabase(db: Awaited<ReturnType<typeof freshDatabase>> | undefined): Promise<void> {
  if (!db) return;
  const admin = new URL(db.url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    await eventually(
      async () => {
        const { rows } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [db.name],
        );
        return rows[0]!.n === 0;
      },
      5000,
      `connections to ${db.name} to close`,
    ).catch(() => undefined);
  } finally {
    await client.end();
  }
  await db.drop();
}
