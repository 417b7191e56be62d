import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { ERRORS } from '@app/contracts';
import { eventually, freshDatabase } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, referralCreated, signedIn, startAi, type RunningAi, dropDatabase } from './support.ts';

const SECRET = 'enrichment-test-secret-0123456789';
const now = () => Math.floor(Date.now() / 1000);
/** What the provider does (README, "Enrichment"): HMAC-SHA256 of "<timestamp>.<body>", hex, after "sha256=". */
const sign = (body: string, secret = SECRET, timestamp = now()) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
const signed = (body: string, timestamp = now(), secret = SECRET) => ({
  'x-signature-timestamp': String(timestamp),
  'x-signature': sign(body, secret, timestamp),
});

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

/** A callback signed now (or with the given headers), as the provider sends it. */
function callback(body: unknown, headers?: Record<string, string>) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return ai.service.app.inject({
    method: 'POST',
    url: '/api/enrichment/callback',
    headers: { ...json, ...(headers ?? signed(raw)) },
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
    const postedAt = Number(post!.headers['x-signature-timestamp']);
    expect(Math.abs(postedAt - now())).toBeLessThan(5);
    expect(post!.headers['x-signature']).toBe(sign(post!.raw, SECRET, postedAt));
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
    const t = now();
    const cases: Array<Record<string, string>> = [
      {},
      { 'x-signature-timestamp': String(t) },
      { 'x-signature-timestamp': String(t), 'x-signature': 'sha256=abc' },
      signed(body, t, 'another-secret-0123456789'),
      { ...signed(body, t), 'x-signature': sign(`${body} `, SECRET, t) },
      { ...signed(body, t), 'x-signature': sign(body, SECRET, t).replace('sha256=', 'sha1=') },
      // The signature of another time, or of the body alone (before issue 11): the time is part of it.
      { ...signed(body, t), 'x-signature-timestamp': String(t - 1) },
      {
        'x-signature-timestamp': String(t),
        'x-signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      },
      { 'x-signature': sign(body, SECRET, t) },
      { ...signed(body, t), 'x-signature-timestamp': `${t}.5` },
    ];
    for (const headers of cases) {
      const response = await callback(body, headers);
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
      headers: { 'content-type': 'text/plain', ...signed('hi') },
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
        headers: { ...json, ...signed(raw) },
        payload: raw,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Enrichment is not configured', code: 'ENRICHMENT_NOT_CONFIGURED' });
    } finally {
      await plain.close();
    }
  });
});

describe('POST /api/enrichment/callback: time and replays (issue 11, item 12)', () => {
  /** A referral posted for enrichment, its local draft written. */
  async function postedReferral() {
    const event = referralCreated();
    await ai.bus.publish(event);
    await ai.draftsFor(event.payload.referralId);
    await posted(event.payload.referralId);
    return event.payload.referralId;
  }
  const draftsOf = (referralId: number) => ai.drafts.filter((d) => d.payload.referralId === referralId).length;
  const expired = { message: ERRORS.CALLBACK_EXPIRED.message, code: 'CALLBACK_EXPIRED' };
  const replayed = { message: ERRORS.CALLBACK_REPLAYED.message, code: 'CALLBACK_REPLAYED' };

  it('takes a callback signed up to 5 minutes ago, and refuses an older one (401)', async () => {
    const referralId = await postedReferral();
    const raw = JSON.stringify(enrichedDraft(referralId));
    const stale = await callback(raw, signed(raw, now() - 301));
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toEqual(expired);
    const old = await callback(raw, signed(raw, now() - 290));
    expect(old.statusCode).toBe(200);
    await ai.draftsFor(referralId, 2);
  });

  it('refuses a callback dated more than a minute ahead (401), and takes a small clock skew', async () => {
    const referralId = await postedReferral();
    const raw = JSON.stringify(enrichedDraft(referralId));
    const future = await callback(raw, signed(raw, now() + 120));
    expect(future.statusCode).toBe(401);
    expect(future.json()).toEqual(expired);
    const ahead = await callback(raw, signed(raw, now() + 30));
    expect(ahead.statusCode).toBe(200);
  });

  it('refuses a replayed callback (409), also when the copies arrive at once, and publishes one draft', async () => {
    const referralId = await postedReferral();
    const raw = JSON.stringify(enrichedDraft(referralId));
    const headers = signed(raw);
    const first = await callback(raw, headers);
    expect(first.statusCode).toBe(200);
    await ai.draftsFor(referralId, 2);
    const again = await callback(raw, headers);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(replayed);

    // Five copies of another signed callback at the same moment: one is taken.
    const second = signed(raw, now() - 30);
    const answers = await Promise.all(Array.from({ length: 5 }, () => callback(raw, second)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    await ai.draftsFor(referralId, 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(draftsOf(referralId)).toBe(3);
  });

  it('does not spend a signature on a refused callback, and forgets expired ones', async () => {
    const raw = JSON.stringify(enrichedDraft(987_654_320));
    const headers = signed(raw);
    for (let i = 0; i < 2; i++) {
      const unknown = await callback(raw, headers);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('ENRICHMENT_NOT_EXPECTED');
    }
    await sql.query(
      "INSERT INTO ai.enrichment_callbacks_seen (signature, expires_at) VALUES ('old', now() - interval '1 minute')",
    );
    const referralId = await postedReferral();
    const body = JSON.stringify(enrichedDraft(referralId));
    expect((await callback(body, signed(body))).statusCode).toBe(200);
    const { rows } = await sql.query(
      "SELECT count(*)::int AS n FROM ai.enrichment_callbacks_seen WHERE signature = 'old'",
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('POST /api/test-clay-webhook (administrators; issue 11, item 10)', () => {
  const test = (service = ai, headers: Record<string, string> = signedIn(true)) =>
    service.service.app.inject({ method: 'POST', url: '/api/test-clay-webhook', headers });

  it("posts a signed test payload and summarizes the answer: status, time and field names, never the provider's values", async () => {
    answer = () => ({ status: 200, body: { received: true, rows: 1, apiKey: 'sk_live_provider_internal_key' } });
    const response = await test();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Test Successful',
      result: {
        ok: true,
        status: 200,
        durationMs: expect.any(Number),
        fields: ['received', 'rows', 'apiKey'],
        fieldCount: 3,
        error: null,
      },
    });
    expect(response.body).not.toContain('sk_live_provider_internal_key');
    expect(response.body).not.toContain(SECRET);
    expect(response.body).not.toContain(webhookUrl);
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toMatchObject({ event: 'test', test: true });
    const at = Number(received[0]!.headers['x-signature-timestamp']);
    expect(received[0]!.headers['x-signature']).toBe(sign(received[0]!.raw, SECRET, at));
  });

  it('names at most 20 fields, each at most 60 characters, and counts them all', async () => {
    answer = () => ({
      status: 200,
      body: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${'f'.repeat(100)}${i}`, i])),
    });
    const { result } = (await test()).json();
    expect(result.fields).toHaveLength(20);
    expect(result.fields.every((name: string) => name.length === 60)).toBe(true);
    expect(result.fieldCount).toBe(30);
  });

  it('reports a failing webhook by its status only, once, without retrying while the user waits', async () => {
    answer = () => ({ status: 502, body: 'Bad gateway: upstream key sk_live_leaked' });
    const response = await test();
    expect(response.json()).toEqual({
      message: 'Test Failed',
      result: { ok: false, status: 502, durationMs: expect.any(Number), fields: [], fieldCount: 0, error: 'HTTP 502' },
    });
    expect(response.body).not.toContain('sk_live_leaked');
    expect(received).toHaveLength(1);
  });

  it('reports an unreachable webhook without its address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    await new Promise((resolve) => closed.close(resolve));
    const port = typeof address === 'object' && address ? address.port : 0;
    const down = await startAi(db.url, {
      ENRICHMENT_WEBHOOK_URL: `http://127.0.0.1:${port}/hook/secret-path-token`,
      ENRICHMENT_WEBHOOK_SECRET: SECRET,
    });
    try {
      const response = await test(down);
      expect(response.json()).toMatchObject({
        message: 'Test Failed',
        result: { ok: false, status: null, error: 'ECONNREFUSED' },
      });
      expect(response.body).not.toContain('secret-path-token');
    } finally {
      await down.close();
    }
  });

  it('says when no webhook is configured', async () => {
    const plain = await startAi(db.url);
    try {
      const response = await test(plain);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Enrichment webhook is not configured', result: null });
    } finally {
      await plain.close();
    }
  });

  it('is for administrators only, and only by POST', async () => {
    const user = await test(ai, signedIn(false));
    expect(user.statusCode).toBe(403);
    expect(user.json().code).toBe('ADMIN_ONLY');
    const anonymous = await test(ai, {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHENTICATED');
    const get = await ai.service.app.inject({ method: 'GET', url: '/api/test-clay-webhook', headers: signedIn(true) });
    expect(get.statusCode).toBeGreaterThanOrEqual(404);
    expect(get.statusCode).toBeLessThan(406);
    expect(received).toHaveLength(0);
  });
});
