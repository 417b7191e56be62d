/**
 * Tracing across processes: the gateway and the services as their own processes on NATS, each exporting
 * spans over OTLP/HTTP (JSON) to a collector this test runs. One browser request (sending the intro email)
 * is one trace, from the gateway to the SMTP send; request ids follow the calls and the consumer's logs.
 */
import { randomBytes } from 'node:crypto';
import {
  deleteStream,
  eventually,
  freshDatabase,
  natsUrl,
  SPAN_KIND as KIND,
  startMailCatcher,
  startOtlpCollector,
  TEST_SECRET,
  uniqueId,
  type CollectedSpan,
  type MailCatcher,
  type OtlpCollector,
} from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, gatewayBrowser, startProcess, type RunningProcess } from './processes.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let catcher: MailCatcher;
let collector: OtlpCollector;
let gatewayUrl: string;
const namespace = uniqueId('tracing').replace(/-/g, '_');
const running = new Map<string, RunningProcess>();

const processes = {
  auth: 'services/auth/src/main.ts',
  mail: 'services/mail/src/main.ts',
  ai: 'services/ai/src/main.ts',
  referrals: 'services/referrals/src/main.ts',
  gateway: 'gateway/src/main.ts',
} as const;

beforeAll(async () => {
  db = await freshDatabase();
  catcher = await startMailCatcher();
  collector = await startOtlpCollector();
  const ports = Object.fromEntries(
    await Promise.all(Object.keys(processes).map(async (name) => [name, await freePort()] as const)),
  );
  gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    NATS_URL: await natsUrl(),
    NATS_NAMESPACE: namespace,
    SMTP_URL: catcher.url,
    MAIL_FROM: 'Referral Hub <hello@referrals.test>',
    PUBLIC_URL: gatewayUrl,
    INTERNAL_SECRET: TEST_SECRET,
    LOG_LEVEL: 'info',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    // Every request asks auth for its session, so the lookup shows in the trace.
    SESSION_CACHE_MS: '0',
    AUTH_PORT: String(ports.auth),
    MAIL_PORT: String(ports.mail),
    AI_PORT: String(ports.ai),
    REFERRALS_PORT: String(ports.referrals),
    PORT: String(ports.gateway),
    AUTH_URL: `http://127.0.0.1:${ports.auth}`,
    MAIL_URL: `http://127.0.0.1:${ports.mail}`,
    AI_URL: `http://127.0.0.1:${ports.ai}`,
    REFERRALS_URL: `http://127.0.0.1:${ports.referrals}`,
  };
  // One after the other (auth first: it applies its migrations), so none starves on a busy machine.
  for (const name of ['auth', 'mail', 'ai', 'referrals', 'gateway'] as const) {
    running.set(name, await startProcess(name, processes[name], env, ports[name]!));
  }
}, 120_000);

afterAll(async () => {
  await Promise.all([...running.values()].map((p) => p.kill('SIGTERM')));
  await catcher?.close();
  await collector?.close();
  await deleteStream(namespace.toUpperCase());
  await db?.drop();
});

/** A browser; each call may carry a traceparent (as a browser's OpenTelemetry SDK sends). */
const browser = () => gatewayBrowser(gatewayUrl);

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A verified user signed in (the emailed link signs in) with one referral. */
async function verifiedReferrer(email: string) {
  const client = browser();
  const registered = await client('POST', '/api/register', {
    firstName: 'Tess',
    lastName: 'Trace',
    companyName: 'Spans Ltd',
    email,
    password: 'trace pass phrase 1',
  });
  expect(registered.status).toBe(201);
  const message = await catcher.waitFor((m) => m.to.includes(email), 15_000);
  const link = new URL(/https?:\/\/\S+verify-email\S+/.exec(message.text)![0]);
  expect((await client('GET', `/api/verify-email${link.search}`)).status).toBe(200);
  const referral = await client('POST', '/api/referrals', {
    referredFirstName: 'Cleo',
    referredLastName: 'Client',
    referredEmail: `cleo-${hex(3)}@client.tracing.test`,
    referralReason: 'They are choosing a tool like this one this quarter and asked me for an introduction.',
    isReferralAware: true,
    canUseReferrerName: true,
    product: 'Tracewise',
    company: 'Tracewise',
    website: 'tracewise.example',
    description: 'Observability',
    client: { name: 'Client Org', website: 'client.tracing.test', country: 'Germany' },
    notes: '',
  });
  expect(referral.status).toBe(201);
  return { client, referral: referral.body as { id: number; projectId: string; referredEmail: string } };
}

const byName = (spans: CollectedSpan[], service: string, name: string) => {
  const found = spans.find((span) => span.service === service && span.name === name);
  expect(
    found,
    `${service} span "${name}" among ${spans.map((s) => `${s.service}:${s.name}`).join(', ')}`,
  ).toBeDefined();
  return found!;
};

describe('one trace from a browser request to the email being sent', () => {
  it('links gateway -> auth and referrals -> outbox -> NATS -> mail -> SMTP, and the logs carry the request id', async () => {
    const { client, referral } = await verifiedReferrer('tess@tracing.test');
    const traceId = hex(16);
    const browserSpanId = hex(8);
    const requestId = `trace-test-${hex(4)}`;

    const sent = await client(
      'POST',
      `/api/referrals/${referral.id}/send-email`,
      { subject: 'Introduction', body: 'Hello Cleo, meet Tracewise.', recipients: { to: [referral.referredEmail] } },
      { traceparent: `00-${traceId}-${browserSpanId}-01`, 'x-request-id': requestId },
    );
    expect(sent.status).toBe(200);
    await catcher.waitFor((m) => m.to.includes(referral.referredEmail), 15_000);

    // Each process sends its spans in batches every second: wait for every process's.
    const trace = await eventually(
      () => {
        const spans = collector.trace(traceId);
        const services = new Set(spans.map((span) => span.service));
        return ['gateway', 'auth', 'referrals', 'mail'].every((name) => services.has(name)) && spans;
      },
      15_000,
      'spans from every process',
    );
    expect(collector.requests.every((line) => line.startsWith('POST /v1/traces application/json'))).toBe(true);

    const gateway = byName(trace, 'gateway', 'POST /api/referrals/:id/send-email');
    expect(gateway.kind).toBe(KIND.server);
    expect(gateway.parentSpanId).toBe(browserSpanId);
    expect(gateway.attributes['http.response.status_code']).toBe(200);

    const lookup = byName(trace, 'auth', 'POST /internal/sessions/resolve');
    expect(lookup.parentSpanId).toBe(gateway.spanId);

    const service = byName(trace, 'referrals', 'POST /api/referrals/:id/send-email');
    expect(service.kind).toBe(KIND.server);
    expect(service.parentSpanId).toBe(gateway.spanId);
    expect(service.attributes['request.id']).toBe(requestId);

    const publish = byName(trace, 'referrals', 'publish referral.intro_email_requested');
    expect(publish.kind).toBe(KIND.producer);
    expect(publish.parentSpanId).toBe(service.spanId);

    const consume = byName(trace, 'mail', 'process referral.intro_email_requested');
    expect(consume.kind).toBe(KIND.consumer);
    expect(consume.parentSpanId).toBe(publish.spanId);
    expect(consume.attributes['messaging.consumer.group.name']).toBe('mail-referral-intro');
    expect(consume.attributes['request.id']).toBe(requestId);

    const smtp = byName(trace, 'mail', 'smtp send');
    expect(smtp.kind).toBe(KIND.client);
    expect(smtp.parentSpanId).toBe(consume.spanId);

    // The request id went to auth with the session lookup (its request log line), and the consumer's log
    // line names it, with the trace id.
    const authLog = running
      .get('auth')!
      .output()
      .split('\n')
      .find((line) => line.includes('/internal/sessions/resolve') && line.includes(`"reqId":"${requestId}"`));
    expect(authLog, 'auth logged the lookup under the request id').toBeDefined();
    const mailLog = await eventually(() =>
      running
        .get('mail')!
        .output()
        .split('\n')
        .find((line) => line.includes('"msg":"referral intro email"') && line.includes(requestId)),
    );
    expect(JSON.parse(mailLog)).toMatchObject({ requestId, traceId, subscriber: 'mail-referral-intro' });
  });

  it('carries the request id and the trace context on referrals -> ai', async () => {
    const { client, referral } = await verifiedReferrer('tom@tracing.test');
    const traceId = hex(16);
    const requestId = `program-test-${hex(4)}`;
    const answer = await client('GET', `/api/products/${referral.projectId}/referral-program`, undefined, {
      traceparent: `00-${traceId}-${hex(8)}-01`,
      'x-request-id': requestId,
    });
    expect(answer.status).toBe(200);

    const trace = await eventually(
      () => {
        const spans = collector.trace(traceId);
        return (
          spans.some((span) => span.service === 'ai') && spans.some((span) => span.service === 'referrals') && spans
        );
      },
      15_000,
      'the ai span',
    );
    const call = byName(trace, 'referrals', 'POST ai askReferralProgram');
    expect(call.kind).toBe(KIND.client);
    const ai = byName(trace, 'ai', 'POST /internal/referral-program');
    expect(ai.parentSpanId).toBe(call.spanId);
    expect(ai.attributes['request.id']).toBe(requestId);
    const aiLog = running
      .get('ai')!
      .output()
      .split('\n')
      .find((line) => line.includes('/internal/referral-program') && line.includes(`"reqId":"${requestId}"`));
    expect(aiLog, 'ai logged the call under the request id').toBeDefined();
  });
});
