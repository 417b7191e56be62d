/**
 * Tracing in one process (as `npm start` runs): off, nothing is traced nor stored; on, a request's trace
 * goes through the outbox row and the in-process bus to the consumer, each service under its own name,
 * and the consumer's log lines carry the event's request id and the trace id.
 */
import { Writable } from 'node:stream';
import {
  eventually,
  freshDatabase,
  SPAN_KIND,
  startOtlpCollector,
  TEST_SECRET,
  testBus,
  type OtlpCollector,
} from '@app/testing';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bindSubscriber,
  createPool,
  createServiceApp,
  inRequestTrace,
  loggerOptions,
  migrateService,
  OutboxRelay,
  pgTransactions,
  runInContext,
  startTracing,
  stopTracing,
  subscriberDefiner,
  traceHeaders,
  tracingEnabled,
  withOutbox,
  withSpan,
  type EventBus,
  type PgTransaction,
} from '../src/index.ts';

const defineSubscriber = subscriberDefiner<PgTransaction>();
let db: Awaited<ReturnType<typeof freshDatabase>>;
let pool: pg.Pool;
let bus: EventBus;
let relay: OutboxRelay;
let collector: OtlpCollector;
const lines: Array<Record<string, unknown>> = [];
const logger = pino(
  loggerOptions('consumer', 'info'),
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  }),
);

/** An app of service "producer" whose one route changes data and emits an event, as a use case does. */
function producerApp(): FastifyInstance {
  const app = createServiceApp({ name: 'producer', internalSecret: TEST_SECRET, logger: false });
  const transaction = withOutbox(pgTransactions(pool), relay);
  app.post('/sessions/:id/end', async (request) => {
    const { id } = request.params as { id: string };
    await inRequestTrace(request, () =>
      runInContext({ requestId: request.id }, () =>
        transaction(async (_tx, emit) => emit('session.ended', { sessionId: id })),
      ),
    );
    return { ok: true };
  });
  return app;
}

beforeAll(async () => {
  db = await freshDatabase();
  await migrateService(db.url, 'svc', new URL('./fixtures/no-migrations', import.meta.url).pathname);
  pool = createPool(db.url, 'svc', 4);
  bus = await testBus(db.url);
  relay = new OutboxRelay({ pool, bus, logger, service: 'producer' });
  relay.start();
  collector = await startOtlpCollector();
  const transaction = withOutbox(pgTransactions(pool), relay);
  await bindSubscriber(
    bus,
    defineSubscriber({
      id: 'tracing-consumer',
      event: 'session.ended',
      handle: async ({ log }) => {
        await withSpan('consumer', 'work', {}, async () => log.info('handled'));
      },
    }),
    {
      transaction,
      isProcessed: async () => false,
      log: logger,
      service: 'consumer',
    },
  );
});

afterAll(async () => {
  await stopTracing();
  await bus.close();
  await relay.stop();
  await pool.end();
  await collector.close();
  await db.drop();
});

const traceContextOf = async (sessionId: string) =>
  (
    await pool.query<{ trace_context: unknown; request_id: string }>(
      "SELECT trace_context, request_id FROM outbox_events WHERE payload->>'sessionId' = $1",
      [sessionId],
    )
  ).rows[0];

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('traces nothing, stores no trace context, and still carries the request id to the consumer logs', async () => {
    expect(tracingEnabled()).toBe(false);
    expect(traceHeaders()).toEqual({});
    const app = producerApp();
    const answer = await app.inject({
      method: 'POST',
      url: '/sessions/off-1/end',
      headers: { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`, 'x-request-id': 'req-off-1' },
    });
    expect(answer.statusCode).toBe(200);
    expect(await traceContextOf('off-1')).toEqual({ trace_context: null, request_id: 'req-off-1' });
    const line = await eventually(() => lines.find((l) => l.msg === 'handled' && l.requestId === 'req-off-1'));
    expect(line).not.toHaveProperty('traceId');
    await app.close();
  });

  it('refuses an endpoint that is not a URL, naming the variable, and stays off', async () => {
    await expect(startTracing({ endpoint: 'otel-collector:4318' })).rejects.toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(tracingEnabled()).toBe(false);
  });
});

describe('tracing on, one process, in-process bus', () => {
  it('continues the caller trace through the outbox row and the bus to the consumer, per service name', async () => {
    await startTracing({ endpoint: collector.url });
    expect(tracingEnabled()).toBe(true);
    const app = producerApp();
    const traceId = 'c'.repeat(32);
    const answer = await app.inject({
      method: 'POST',
      url: '/sessions/on-1/end',
      headers: { traceparent: `00-${traceId}-${'d'.repeat(16)}-01`, 'x-request-id': 'req-on-1' },
    });
    expect(answer.statusCode).toBe(200);
    // Probes are not traced (every few seconds from every replica).
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const stored = await traceContextOf('on-1');
    expect(stored?.trace_context).toEqual({ traceparent: expect.stringMatching(new RegExp(`^00-${traceId}-`)) });

    const spans = await eventually(() => {
      const trace = collector.trace(traceId);
      return (
        trace.some((span) => span.name === 'work') && trace.some((span) => span.kind === SPAN_KIND.server) && trace
      );
    }, 15_000);
    const server = spans.find((span) => span.name === 'POST /sessions/:id/end')!;
    expect(server).toMatchObject({ service: 'producer', kind: SPAN_KIND.server, parentSpanId: 'd'.repeat(16) });
    const publish = spans.find((span) => span.name === 'publish session.ended')!;
    expect(publish).toMatchObject({ service: 'producer', kind: SPAN_KIND.producer, parentSpanId: server.spanId });
    const consume = spans.find((span) => span.name === 'process session.ended')!;
    expect(consume).toMatchObject({ service: 'consumer', kind: SPAN_KIND.consumer, parentSpanId: publish.spanId });
    expect(consume.attributes).toMatchObject({ 'request.id': 'req-on-1', 'messaging.message.id': expect.any(String) });
    const work = spans.find((span) => span.name === 'work')!;
    expect(work.parentSpanId).toBe(consume.spanId);
    expect(collector.spans.filter((span) => span.name.includes('/healthz'))).toEqual([]);

    const line = await eventually(() => lines.find((l) => l.msg === 'handled' && l.requestId === 'req-on-1'));
    expect(line).toMatchObject({ subscriber: 'tracing-consumer', traceId });
    await app.close();
  });
});
