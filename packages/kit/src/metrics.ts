import { createServer, type Server } from 'node:http';
import type { FastifyBaseLogger as Logger, FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { BusHooks, EventBus } from './events/bus.ts';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics of this process: one registry, served in the text format on `METRICS_PORT` (never
 * on a public port). Series a service produces carry a `service` label, so under `npm start` (every app in
 * one process) the one endpoint tells them apart. What is cheap to read is collected when scraped (outbox
 * backlog, consumer lag, pool use); the rest is counted as it happens. The series are listed in README
 * "Operate" > "Metrics".
 */
export const metricsRegistry = new Registry();
const registers = [metricsRegistry];

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const metrics = {
  /** Requests by route template (`/api/referrals/:id`, never the raw URL), method and status class. */
  httpRequests: new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests answered, by route template, method and status class (2xx, 4xx, 5xx), and how long they took',
    labelNames: ['service', 'method', 'route', 'status_class'] as const,
    buckets: seconds,
    registers,
  }),
  outboxBacklog: new Gauge({
    name: 'outbox_backlog_events',
    help: 'Committed events in the outbox not yet published to the bus',
    labelNames: ['service'] as const,
    registers,
  }),
  consumerPending: new Gauge({
    name: 'consumer_pending_events',
    help: 'Events waiting for a subscriber, not yet delivered (JetStream num_pending; in process, never-delivered deliveries)',
    labelNames: ['subscriber'] as const,
    registers,
  }),
  consumerInFlight: new Gauge({
    name: 'consumer_unacknowledged_events',
    help: 'Events delivered to a subscriber and not acknowledged yet: being handled or waiting for a retry',
    labelNames: ['subscriber'] as const,
    registers,
  }),
  /** A delivery of an event the subscriber already had (its handler failed, or the ack wait ran out). */
  redeliveries: new Counter({
    name: 'consumer_redeliveries_total',
    help: 'Events delivered again to a subscriber (after a failure or an ack wait running out)',
    labelNames: ['subscriber'] as const,
    registers,
  }),
  /** An event never handled, moved aside: `reason` is the refusal (forged, unsigned...) or the cause. */
  deadLetters: new Counter({
    name: 'consumer_dead_letters_total',
    help: 'Events a subscriber dead-lettered instead of handling, by reason',
    labelNames: ['subscriber', 'reason'] as const,
    registers,
  }),
  dbPoolConnections: new Gauge({
    name: 'db_pool_connections',
    help: 'Open PostgreSQL connections of a pool (pool: prisma or pg), by state (idle or busy)',
    labelNames: ['service', 'pool', 'state'] as const,
    registers,
  }),
  dbPoolMax: new Gauge({
    name: 'db_pool_max_connections',
    help: 'The most connections a pool opens',
    labelNames: ['service', 'pool'] as const,
    registers,
  }),
  dbPoolWaiting: new Gauge({
    name: 'db_pool_waiting_queries',
    help: 'Queries waiting for a free connection of a pool',
    labelNames: ['service', 'pool'] as const,
    registers,
  }),
  /** One attempt of a language model call; `outcome`: ok, error (after the SDK's retries) or invalid (output refused). */
  modelCalls: new Histogram({
    name: 'model_call_duration_seconds',
    help: 'Language model calls by purpose and outcome (ok, error, invalid), and how long they took',
    labelNames: ['purpose', 'outcome'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60],
    registers,
  }),
  /** The answer came from local knowledge instead: `reason` unavailable, invalid_output or not_configured. */
  modelFallbacks: new Counter({
    name: 'model_fallbacks_total',
    help: 'Answers given from local knowledge instead of the language model, by purpose and reason',
    labelNames: ['purpose', 'reason'] as const,
    registers,
  }),
  emailsSent: new Counter({
    name: 'emails_sent_total',
    help: 'Emails the SMTP server accepted, by kind',
    labelNames: ['kind'] as const,
    registers,
  }),
  /** The gateway's client connections: `raw` when accepted (read by hand), `handed_over` once Node's server took one. */
  gatewayConnections: new Counter({
    name: 'gateway_connections_total',
    help: "Client connections the gateway accepted (read raw), and those it handed over to Node's HTTP server",
    labelNames: ['read'] as const,
    registers,
  }),
  emailsFailed: new Counter({
    name: 'emails_failed_total',
    help: 'Emails the SMTP server refused or could not take (retried with the event), by kind',
    labelNames: ['kind'] as const,
    registers,
  }),
  /** Group commit (`batched`): how many calls each statement served, and batches run again item by item. */
  statementBatchSize: new Histogram({
    name: 'db_statement_batch_size',
    help: 'Calls served by one statement of a batched kind (1: alone), by statement',
    labelNames: ['statement'] as const,
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers,
  }),
  statementBatchFailures: new Counter({
    name: 'db_statement_batch_failures_total',
    help: 'Batched statements that failed and were run again one item at a time, by statement',
    labelNames: ['statement'] as const,
    registers,
  }),
  /** Emails never sent: an address a mailer would read as another one (mail's `plainEnvelope`). */
  emailsRefused: new Counter({
    name: 'emails_refused_total',
    help: 'Emails not sent because an address is not a plain one (never retried), by kind',
    labelNames: ['kind'] as const,
    registers,
  }),
};

/**
 * The buses' hooks (their default): each redelivery and each dead letter, refused or past `maxDeliver`
 * (reason `max-deliveries`), counted where the bus does it.
 */
export const metricsHooks: BusHooks = {
  redelivered: ({ subscriber }) => metrics.redeliveries.inc({ subscriber }),
  deadLettered: ({ subscriber, reason }) => metrics.deadLetters.inc({ subscriber, reason }),
};

/** What runs when scraped (reading a gauge's current value); each returns a function that stops it. */
const collectors = new Set<() => Promise<void>>();
const COLLECT_TIMEOUT_MS = 2000;

/** Runs `collect` on every scrape, before the text is written; a slow or failing one only loses its series. */
export function onScrape(collect: () => Promise<void>): () => void {
  collectors.add(collect);
  return () => void collectors.delete(collect);
}

/** The Prometheus text of this process, every on-scrape series read first. */
export async function scrape(): Promise<string> {
  for (const gauge of [metrics.outboxBacklog, metrics.consumerPending, metrics.consumerInFlight]) gauge.reset();
  for (const gauge of [metrics.dbPoolConnections, metrics.dbPoolMax, metrics.dbPoolWaiting]) gauge.reset();
  await Promise.all(
    [...collectors].map((collect) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, COLLECT_TIMEOUT_MS)));
      return Promise.race([collect().catch(() => {}), timeout]).finally(() => clearTimeout(timer));
    }),
  );
  return metricsRegistry.metrics();
}

/** The pools the kit opened, by service (their PostgreSQL schema) and kind; ended ones are forgotten. */
const pools = new Set<{ service: string; name: string; pool: pg.Pool }>();

export function observePool(service: string, name: 'prisma' | 'pg' | 'bus', pool: pg.Pool): void {
  pools.add({ service, name, pool });
}

onScrape(async () => {
  for (const entry of pools) {
    const { pool } = entry;
    if (pool.ended) {
      pools.delete(entry);
      continue;
    }
    const labels = { service: entry.service, pool: entry.name };
    metrics.dbPoolConnections.set({ ...labels, state: 'idle' }, pool.idleCount);
    metrics.dbPoolConnections.set({ ...labels, state: 'busy' }, pool.totalCount - pool.idleCount);
    metrics.dbPoolWaiting.set(labels, pool.waitingCount);
    metrics.dbPoolMax.set(labels, pool.options.max ?? 10);
  }
});

/** The outbox backlog of a service, counted on its partial index of unpublished rows when scraped. */
export function observeOutbox(service: string, pool: pg.Pool): () => void {
  return onScrape(async () => {
    const { rows } = await pool.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM outbox_events WHERE published_at IS NULL',
    );
    metrics.outboxBacklog.set({ service }, rows[0]?.count ?? 0);
  });
}

/** The lag of every subscriber the bus consumes for, asked when scraped. */
export function observeConsumers(bus: Pick<EventBus, 'pending'>): () => void {
  return onScrape(async () => {
    for (const backlog of (await bus.pending?.()) ?? []) {
      metrics.consumerPending.set({ subscriber: backlog.subscriber }, backlog.pending);
      metrics.consumerInFlight.set({ subscriber: backlog.subscriber }, backlog.unacknowledged);
    }
  });
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/**
 * Counts every answer of an app by route template (`unmatched` when no route took the request: a 404, or
 * the gateway's web app pages), method and status class, with its duration.
 */
export function httpMetrics(app: FastifyInstance, service: string): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequests.observe(
      {
        service,
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_class: statusClass(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}

let defaultsOn = false;

/**
 * Serves `GET /metrics` on its own port (the gateway's public port never answers it): Prometheus text,
 * with Node's process series (CPU, memory, event loop lag, GC). Anything else is a JSON 404.
 */
export async function startMetricsServer(options: { host: string; port: number; log: Logger }): Promise<Server> {
  if (!defaultsOn) {
    collectDefaultMetrics({ register: metricsRegistry });
    defaultsOn = true;
  }
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?', 1)[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      return void response.end(JSON.stringify({ message: 'Not found', code: 'NOT_FOUND' }));
    }
    scrape().then(
      (text) => {
        response.writeHead(200, { 'content-type': metricsRegistry.contentType });
        response.end(text);
      },
      (error: unknown) => {
        options.log.error({ err: error }, 'metrics scrape failed');
        response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify({ message: 'Internal server error', code: 'INTERNAL_ERROR' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  options.log.info(`metrics on http://${options.host}:${options.port}/metrics`);
  return server;
}

/** Stops a metrics server (its keep-alive connections too). */
export const closeMetricsServer = (server: Server | undefined) =>
  new Promise<void>((resolve) => {
    if (!server) return resolve();
    server.closeAllConnections();
    server.close(() => resolve());
  });
