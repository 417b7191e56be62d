import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConfigError } from './config.ts';
import { currentContext } from './context.ts';

/**
 * Tracing (OpenTelemetry, W3C trace context), off unless `startTracing` ran (OTEL_EXPORTER_OTLP_ENDPOINT is
 * set): then the SDK is loaded, every process's spans are exported over OTLP/HTTP (JSON), and the context
 * travels browser -> gateway -> service (`traceparent` header) -> outbox row (`trace_context`) -> bus
 * (NATS headers, or the in-process bus's column) -> consumer -> what it calls (SMTP). Off, nothing is
 * loaded, no hook is registered, and every helper here returns at its first line.
 * Spans are made by hand (Fastify hooks, the outbox relay, the bus, outgoing calls): no monkey-patching.
 */

export { SpanKind };

/** The trace context as it travels: W3C `traceparent` and `tracestate`, as HTTP or NATS headers. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

interface Tracing {
  tracer(service: string): Tracer;
  shutdown(): Promise<void>;
}

let tracing: Tracing | null = null;

export const tracingEnabled = (): boolean => tracing !== null;

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
}

/**
 * Starts the SDK once per process: W3C propagation, context kept across awaits, and one tracer provider
 * per service name (`service.name` = gateway, auth... even when `npm start` runs them all in one process),
 * each exporting in batches to the collector. Calling it again changes nothing.
 */
export async function startTracing(options: TracingOptions): Promise<void> {
  if (tracing) return;
  if (!/^https?:$/.test(URL.parse(options.endpoint)?.protocol ?? '')) {
    throw new ConfigError(
      `Invalid configuration:\n  OTEL_EXPORTER_OTLP_ENDPOINT: not an http(s) URL (e.g. http://otel-collector:4318): ${options.endpoint}`,
    );
  }
  const [{ AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, sdk, { resourceFromAttributes }, otlp] =
    await Promise.all([
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/exporter-trace-otlp-http'),
    ]);
  const url = `${options.endpoint.replace(/\/+$/, '')}/v1/traces`;
  const providers = new Map<string, InstanceType<typeof sdk.TracerProvider>>();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  tracing = {
    tracer(service) {
      let provider = providers.get(service);
      if (!provider) {
        provider = new sdk.TracerProvider({
          resource: resourceFromAttributes({ 'service.name': service }),
          spanProcessors: [
            // Sent each second (or at shutdown), in batches of at most 512 spans.
            new sdk.BatchSpanProcessor({ exporter: new otlp.OTLPTraceExporter({ url }), scheduledDelayMillis: 1000 }),
          ],
        });
        providers.set(service, provider);
      }
      return provider.getTracer('@app/kit');
    },
    async shutdown() {
      await Promise.all([...providers.values()].map((provider) => provider.shutdown()));
    },
  };
}

/** Sends the spans still waiting (call before the process exits). */
export async function stopTracing(): Promise<void> {
  const running = tracing;
  if (!running) return;
  await running.shutdown().catch(() => {});
}

/** The context a carrier (incoming headers, an outbox row, a NATS message) names, else none. */
export function extractContext(carrier: Record<string, unknown> | null | undefined): Context {
  if (!tracing || !carrier) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier, {
    get: (headers, key) => {
      const value = (headers as Record<string, unknown>)[key];
      return typeof value === 'string' ? value : undefined;
    },
    keys: (headers) => Object.keys(headers as object),
  });
}

/** The active trace context as headers to send on (empty when tracing is off or nothing is traced). */
export function traceHeaders(from: Context = context.active()): TraceCarrier {
  if (!tracing) return {};
  const carrier: TraceCarrier = {};
  propagation.inject(from, carrier);
  return carrier;
}

/**
 * Headers a service sends on a call to another service of ours: the request id of the work in progress
 * (a request, or the event being handled) and the trace context.
 */
export function propagationHeaders(): Record<string, string> {
  const { requestId } = currentContext();
  return { ...(requestId ? { 'x-request-id': requestId } : {}), ...(traceHeaders() as Record<string, string>) };
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent (an extracted context); the active one otherwise. */
  parent?: Context;
}

/**
 * Runs `work` inside a span of `service` (active for everything `work` calls), recording a thrown error;
 * without tracing it just runs `work`.
 */
export async function withSpan<T>(
  service: string,
  name: string,
  options: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!tracing) return work(undefined);
  const parent = options.parent ?? context.active();
  const span = tracing
    .tracer(service)
    .startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
    throw error;
  } finally {
    span.end();
  }
}

/** A subscriber's handling of one event: a CONSUMER span, child of the publisher's when it was traced. */
export function consumerSpan<T>(
  service: string,
  subscriber: string,
  event: { id: string; name: string; requestId?: string | undefined },
  carrier: TraceCarrier | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!tracing) return work();
  return withSpan(
    service,
    `process ${event.name}`,
    {
      kind: SpanKind.CONSUMER,
      parent: extractContext(carrier as Record<string, unknown> | undefined),
      attributes: {
        'messaging.operation.type': 'process',
        'messaging.destination.name': event.name,
        'messaging.consumer.group.name': subscriber,
        'messaging.message.id': event.id,
        ...(event.requestId ? { 'request.id': event.requestId } : {}),
      },
    },
    work,
  );
}

/** The trace id of the active span (for log lines), if any. */
export function activeTraceId(): string | undefined {
  if (!tracing) return undefined;
  const span = trace.getSpan(context.active());
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}

const requestSpans = new WeakMap<FastifyRequest, { span: Span; context: Context }>();

/** Probes and scrapes, every few seconds from every replica: not traced. */
const UNTRACED_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * A SERVER span for every request of the app, child of the caller's `traceparent`, named by the route
 * template (`POST /api/referrals/:id/send-email`), ended with the status code. Registers nothing when
 * tracing is off.
 */
export function traceRequests(app: FastifyInstance, service: string): void {
  if (!tracing) return;
  app.addHook('onRequest', async (request) => {
    const tracer = tracing?.tracer(service);
    const route = request.routeOptions.url ?? 'unknown route';
    if (!tracer || UNTRACED_ROUTES.has(route)) return;
    const parent = extractContext(request.headers);
    const span = tracer.startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, 'http.route': route, 'request.id': request.id },
      },
      parent,
    );
    requestSpans.set(request, { span, context: trace.setSpan(parent, span) });
  });
  app.addHook('onResponse', async (request, reply) => {
    const traced = requestSpans.get(request);
    if (!traced) return;
    traced.span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) traced.span.setStatus({ code: SpanStatusCode.ERROR });
    traced.span.end();
  });
}

/** The request's trace context (its SERVER span), for calls made on its behalf; none when untraced. */
export const requestTraceContext = (request: FastifyRequest): Context | undefined => requestSpans.get(request)?.context;

/** Runs a request's handler with its span active, so what the handler emits or calls joins the trace. */
export function inRequestTrace<T>(request: FastifyRequest, work: () => T): T {
  const traced = tracing ? requestSpans.get(request) : undefined;
  return traced ? context.with(traced.context, work) : work();
}
