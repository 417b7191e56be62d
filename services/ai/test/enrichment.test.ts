import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { eventually, freshDatabase } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, referralCreated, signedIn, startAi, type RunningAi, dropDatabase } from './support.ts';

const SECRET = 'enrichment-test-secret-0123456789';
const sign = (body: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

interface Received {
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: { event?: string; eventId?: string; callbackUrl?: string; referral?: { referralId: number }; test?: boolean };
}

/** A stand-in for the enrichment service (Clay): records posts and answers as the test says. */
let webhook: Server;
let webhookUrl: string;
const received: Received[] = [];
let answer: (request: Received) => { status: number; body: unknown } = () => ({ status: 200, body: { ok: true } });

let db: Awaited<ReturnType<typeof freshDatabase>>;
let ai: RunningAi;
let sql: pg.Pool;

beforeAll(async () => {
  webhook = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const request = { headers: req.headers, raw, body: JSON.parse(raw || '{}') };
      received.push(request);
      const { status, body } = answer(request);
      res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  const address = webhook.address();
  webhookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks/clay`;
  db = await freshDatabase();
  ai = await startAi(db.url, {
    ENRICHMENT_WEBHOOK_URL: webhookUrl,
    ENRICHMENT_WEBHOOK_SECRET: SECRET,
    ENRICHMENT_TIMEOUT_MS: '500',
    ENRICHMENT_MAX_RETRIES: '1',
  });
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});
beforeEach(() => {
  received.length = 0;
  answer = () => ({ status: 200, body: { ok: true } });
});
afterAll(async () => {
  await ai?.close();
  await sql?.end();
  await dropDatabase(db);
  webhook?.closeAllConnections();
  await new Promise((resolve) => webhook?.close(resolve));
});

function callback(body: unknown, signature?: string) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return ai.service.app.inject({
    method: 'POST',
    url: '/api/enrichment/callback',
    headers: {
      ...json,
      ...(signature === undefined ? { 'x-signature': sign(raw) } : signature ? { 'x-signature': signature } : {}),
    },
    payload: raw,
  });
}

const enrichedDraft = (referralId: number) => ({
  referralId,
  subject: 'Grace, meet Slack (enriched)',
  body: 'Hi Grace, researched intro.',
  recipients: { to: ['grace@navy.example'], cc: ['ada@engines.example'], bcc: [] },
});

async function requestStatus(referralId: number, pool: pg.Pool = sql) {
  const { rows } = await pool.query(
    'SELECT status, attempts, last_error FROM ai.enrichment_requests WHERE referral_id = $1',
    [referralId],
  );
  return rows[0] as { status: string; attempts: number; last_error: string | null } | undefined;
}

/** The referral is posted after its local draft, on its own: waits until the post is recorded. */
const posted = (referralId: number, pool: pg.Pool = sql) =>
  eventually(
    async () => {
      const request = await requestStatus(referralId, pool);
      return request && request.status !== 'pending' ? request : undefined;
    },
    10_000,
    `the post of referral ${referralId}`,
  );

describe('enrichment webhook', () => {
  it('drafts locally at once, posts the signed referral, and a signed callback replaces the draft', async () => {
    const event = referralCreated();
    await ai.bus.publish(event);
    const [local] = await ai.draftsFor(event.payload.referralId);
    expect(local!.source).toBe('template');

    await posted(event.payload.referralId);
    expect(received).toHaveLength(1);
    const [post] = received;
    expect(post!.headers['x-signature']).toBe(sign(post!.raw));
    expect(post!.headers['idempotency-key']).toBe(event.id);
    expect(post!.body).toMatchObject({
      event: 'referral.created',
      eventId: event.id,
      callbackUrl: 'https://app.example.com/api/enrichment/callback',
      referral: event.payload,
    });
    expect(await requestStatus(event.payload.referralId)).toMatchObject({ status: 'posted', attempts: 1 });

    const response = await callback(enrichedDraft(event.payload.referralId));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Draft received' });
    const drafts = await ai.draftsFor(event.payload.referralId, 2);
    expect(drafts[1]).toEqual({ ...enrichedDraft(event.payload.referralId), source: 'enrichment' });
    expect((await requestStatus(event.payload.referralId))?.status).toBe('completed');
  });

  it('does not post again when the event is delivered again', async () => {
    const event = referralCreated();
    await ai.bus.publish(event);
    await ai.bus.publish(event);
    await ai.draftsFor(event.payload.referralId);
    await posted(event.payload.referralId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toHaveLength(1);
  });

  it('keeps the local draft when the webhook fails, after bounded retries', async () => {
    answer = () => ({ status: 500, body: 'boom' });
    const event = referralCreated();
    await ai.bus.publish(event);
    expect((await ai.draftsFor(event.payload.referralId))[0]!.source).toBe('template');
    await posted(event.payload.referralId);
    expect(received).toHaveLength(2); // first attempt + ENRICHMENT_MAX_RETRIES=1
    expect(await requestStatus(event.payload.referralId)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'HTTP 500',
    });
  });

  it('does not wait on a webhook that hangs beyond ENRICHMENT_TIMEOUT_MS', async () => {
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const address = hanging.address();
    // Its own database: instances on one database share the bus's durable consumers, as on NATS.
    const slowDb = await freshDatabase();
    const slow = await startAi(slowDb.url, {
      ENRICHMENT_WEBHOOK_URL: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`,
      ENRICHMENT_WEBHOOK_SECRET: SECRET,
      ENRICHMENT_TIMEOUT_MS: '200',
      ENRICHMENT_MAX_RETRIES: '0',
    });
    try {
      const event = referralCreated();
      const started = Date.now();
      await slow.bus.publish(event);
      expect(Date.now() - started).toBeLessThan(3000);
      expect((await slow.draftsFor(event.payload.referralId))[0]!.source).toBe('template');
      expect((await posted(event.payload.referralId, slow.service.pool)).last_error).toMatch(/timeout|aborted/i);
    } finally {
      await slow.close();
      await dropDatabase(slowDb);
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});

describe('POST /api/enrichment/callback refuses', () => {
  it('a missing, malformed or wrong signature (401) and publishes nothing', async () => {
    const event = referralCreated();
    await ai.bus.publish(event);
    await ai.draftsFor(event.payload.referralId);
    await posted(event.payload.referralId);
    const body = JSON.stringify(enrichedDraft(event.payload.referralId));
    for (const signature of [
      '',
      'sha256=abc',
      sign(body, 'another-secret-0123456789'),
      sign(`${body} `),
      sign(body).replace('sha256=', 'sha1='),
    ]) {
      const response = await callback(body, signature);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Invalid signature', code: 'INVALID_SIGNATURE' });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ai.drafts.filter((d) => d.payload.referralId === event.payload.referralId)).toHaveLength(1);
  });

  it.each([
    ['malformed JSON', '{"referralId":', 'Malformed JSON body', 'MALFORMED_BODY'],
    ['an empty body', '', 'Request body is empty', 'EMPTY_BODY'],
    ['a missing subject', { referralId: 1, body: 'b', recipients: { to: ['a@b.co'] } }, 'Subject is required'],
    ['a wrong type', { referralId: '1', subject: 's', body: 'b', recipients: { to: ['a@b.co'] } }, 'referralId'],
    [
      'no recipient',
      { referralId: 1, subject: 's', body: 'b', recipients: { to: [] } },
      'At least one recipient is required',
    ],
    [
      'a bad email',
      { referralId: 1, subject: 's', body: 'b', recipients: { to: ['nope'] } },
      'Invalid recipient email address',
    ],
    [
      'an overlong subject',
      { referralId: 1, subject: 's'.repeat(301), body: 'b', recipients: { to: ['a@b.co'] } },
      'Subject must be at most 300 characters',
    ],
    [
      'an unknown field',
      { referralId: 1, subject: 's', body: 'b', recipients: { to: ['a@b.co'] }, source: 'llm' },
      'Unrecognized key: "source"',
    ],
  ])('a correctly signed body with %s (400)', async (_case, body, message, code = 'VALIDATION_FAILED') => {
    const response = await callback(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(response.json().code).toBe(code);
  });

  it('a referral that was never sent for enrichment (404), a non-JSON body (415), an oversized one (413)', async () => {
    const unknown = await callback(enrichedDraft(987_654_321));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Referral not found', code: 'ENRICHMENT_NOT_EXPECTED' });
    const text = await ai.service.app.inject({
      method: 'POST',
      url: '/api/enrichment/callback',
      headers: { 'content-type': 'text/plain', 'x-signature': sign('hi') },
      payload: 'hi',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const huge = await callback({ ...enrichedDraft(1), body: 'x'.repeat(70 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('BODY_TOO_LARGE');
  });

  it('everything when enrichment is not configured (404)', async () => {
    const plain = await startAi(db.url);
    try {
      const raw = JSON.stringify(enrichedDraft(1));
      const response = await plain.service.app.inject({
        method: 'POST',
        url: '/api/enrichment/callback',
        headers: { ...json, 'x-signature': sign(raw) },
        payload: raw,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Enrichment is not configured', code: 'ENRICHMENT_NOT_CONFIGURED' });
    } finally {
      await plain.close();
    }
  });
});

describe('GET /api/test-clay-webhook', () => {
  const test = (service = ai, headers: Record<string, string> = signedIn()) =>
    service.service.app.inject({ method: 'GET', url: '/api/test-clay-webhook', headers });

  it('posts a signed test payload and shows what the webhook answered', async () => {
    answer = () => ({ status: 200, body: { received: true, rows: 1 } });
    const response = await test();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Test Successful', result: { received: true, rows: 1 } });
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toMatchObject({ event: 'test', test: true });
    expect(received[0]!.headers['x-signature']).toBe(sign(received[0]!.raw));
  });

  it('reports a failing webhook, once, without retrying while the user waits', async () => {
    answer = () => ({ status: 502, body: 'Bad gateway' });
    expect((await test()).json()).toEqual({ message: 'Test Failed', result: 'HTTP 502: Bad gateway' });
    expect(received).toHaveLength(1);
  });

  it('reports an unreachable webhook', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    await new Promise((resolve) => closed.close(resolve));
    const port = typeof address === 'object' && address ? address.port : 0;
    const down = await startAi(db.url, {
      ENRICHMENT_WEBHOOK_URL: `http://127.0.0.1:${port}/hook`,
      ENRICHMENT_WEBHOOK_SECRET: SECRET,
    });
    try {
      const response = await test(down);
      expect(response.json()).toMatchObject({ message: 'Test Failed', result: expect.stringMatching(/ECONNREFUSED/) });
    } finally {
      await down.close();
    }
  });

  it('says when no webhook is configured', async () => {
    const plain = await startAi(db.url);
    try {
      const response = await test(plain);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message: 'Enrichment webhook is not configured' });
    } finally {
      await plain.close();
    }
  });

  it('needs a signed-in user', async () => {
    const response = await test(ai, {});
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHENTICATED');
    expect(received).toHaveLength(0);
  });
});
