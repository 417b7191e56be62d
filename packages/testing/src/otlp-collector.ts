import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON body carries it, with the `service.name` of the process that sent it. */
export interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty or absent for a root span. */
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}

interface OtlpBody {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{ spans?: Array<Omit<CollectedSpan, 'service' | 'attributes'> & { attributes?: KeyValue[] }> }>;
  }>;
}

const values = (attributes: KeyValue[] = []) =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value)[0]]));

export interface OtlpCollector {
  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: CollectedSpan[];
  /** `METHOD path content-type` of every export received. */
  requests: string[];
  /** The spans of one trace. */
  trace(traceId: string): CollectedSpan[];
  close(): Promise<void>;
}

/**
 * An OTLP/HTTP receiver for JSON exports (`POST /v1/traces`), as an OpenTelemetry Collector, Jaeger or
 * Tempo would be on port 4318, keeping what it receives for a test to read.
 */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      let body: OtlpBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody;
      } catch {
        return void response.writeHead(400).end();
      }
      for (const resource of body.resourceSpans ?? []) {
        const service = String(values(resource.resource?.attributes)['service.name']);
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push({ ...span, service, attributes: values(span.attributes) });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    requests,
    trace: (traceId) => spans.filter((span) => span.traceId === traceId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
