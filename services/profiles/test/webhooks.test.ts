import { createHmac, randomUUID } from 'node:crypto';
import {
  ERRORS,
  type ErrorCode,
  type EventPayload,
  type Vendor,
  type VendorInvitation,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@app/contracts';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  deliver,
  snapshot,
  startProfiles,
  testUser,
  uniqueDomain,
  verifiedVendor,
  type TestContext,
  type TestUser,
} from './helpers.ts';
import { webhookSender } from '../src/webhook-sender.ts';
import { WebhookWorker } from '../src/webhook-worker.ts';
import { startWebhookReceiver, type Received, type WebhookReceiver } from './webhook-receiver.ts';

/**
 * Outbound webhooks against a real HTTPS server with a certificate made for this run: who may do what,
 * Standard Webhooks signatures checked by an independent HMAC here, retries on the schedule, isolation
 * between vendors, once per event.
 */

const RETRY_DELAYS = [300, 600];

let ctx: TestContext;
let receiver: WebhookReceiver;
const call = caller(() => ctx);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ctx = await startProfiles({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_CA_FILE: receiver.caFile,
    WEBHOOK_RETRY_DELAYS_MS: RETRY_DELAYS.join(','),
    WEBHOOK_POLL_MS: '50',
  });
});
afterAll(async () => {
  await ctx?.close();
  await receiver?.close();
});

interface Created {
  endpoint: WebhookEndpoint;
  secret: string;
}

const hooksOf = (vendorId: string) => `/api/vendors/${vendorId}/webhooks`;
const createHook = (user: TestUser, vendorId: string, body: unknown) => call(user, 'POST', hooksOf(vendorId), body);

async function ok<T>(response: Awaited<ReturnType<typeof call>>, status = 200): Promise<T> {
  expect(response.statusCode, response.body).toBe(status);
  return response.json<T>();
}

async function expectRefused(send: () => ReturnType<typeof call>, status: number, code: ErrorCode) {
  const before = await snapshot(ctx.sql);
  const response = await send();
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<{ code: ErrorCode; message: string; field?: string }>();
  expect(body.code).toBe(code);
  expect(ERRORS[body.code].status).toBe(status);
  expect(await snapshot(ctx.sql)).toEqual(before);
  return body;
}

/** A fresh path on the receiver and an endpoint for it. */
async function hook(owner: TestUser, vendorId: string, events = ['lead.created', 'lead.status_changed']) {
  const path = `/hooks/${randomUUID()}`;
  const created = await ok<Created>(await createHook(owner, vendorId, { url: receiver.origin + path, events }), 201);
  return { ...created, path };
}

/** A member (not owner) of a workspace, joined by invitation. */
async function memberOf(owner: TestUser, vendorId: string): Promise<TestUser> {
  const member = testUser('member');
  const invitation = await ok<VendorInvitation>(
    await call(owner, 'POST', `/api/vendors/${vendorId}/invitations`, { email: member.email, role: 'member' }),
    201,
  );
  await ok<Vendor>(await call(member, 'POST', `/api/vendor-invitations/${invitation.id}/accept`));
  return member;
}

const leadCreated = (vendorId: string, referralId = 7): EventPayload<'lead.created'> => ({
  referralId,
  vendorId,
  vendorName: 'Acme',
  recipients: ['leads@acme.test', 'ana@acme.test'],
  referrerName: 'Riley Referrer',
  clientName: 'Globex',
  productName: 'Acme CRM',
});

const deliveries = async (user: TestUser, vendorId: string, endpointId: string) =>
  ok<WebhookDelivery[]>(await call(user, 'GET', `${hooksOf(vendorId)}/${endpointId}/deliveries`));

/** Waits until the endpoint's latest delivery is in one of `states`. */
const settled = (user: TestUser, vendorId: string, endpointId: string, states = ['succeeded', 'failed']) =>
  eventually(
    async () => {
      const list = await deliveries(user, vendorId, endpointId);
      return list.length > 0 && list.every((d) => states.includes(d.state)) ? list : undefined;
    },
    10_000,
    `deliveries ${states.join('/')}`,
  );

/** Waits until a subscriber of the service handled an event (its claim is committed with its writes). */
const handled = (subscriber: string, eventId: string) =>
  eventually(
    async () =>
      (
        await ctx.sql.query('SELECT 1 FROM profiles.processed_events WHERE subscriber = $1 AND event_id = $2', [
          subscriber,
          eventId,
        ])
      ).rowCount === 1,
    10_000,
    `${subscriber} handled ${eventId}`,
  );

/** The Standard Webhooks check, written here from the specification (not the service's code). */
function verifySignature(secret: string, request: Received) {
  const id = request.headers['webhook-id'] as string;
  const timestamp = request.headers['webhook-timestamp'] as string;
  const signature = request.headers['webhook-signature'] as string;
  expect(id).toBeTruthy();
  expect(timestamp).toMatch(/^\d+$/);
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  const key = Buffer.from(secret.split('_')[1]!, 'base64');
  expect(key).toHaveLength(24);
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64');
  expect(signature.split(' ')).toContain(`v1,${expected}`);
  // Any other secret does not verify.
  const other = createHmac('sha256', Buffer.alloc(24)).update(`${id}.${timestamp}.${request.body}`).digest('base64');
  expect(signature).not.toContain(other);
}

describe('endpoints', () => {
  it('owners register (secret once, hint after), members list, test and see deliveries, owners delete', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'hooks');
    const member = await memberOf(owner, vendorId);
    const url = `${receiver.origin}/crm`;
    const created = await ok<Created>(
      await createHook(owner, vendorId, {
        url: ` ${url} `,
        events: ['lead.created', 'commission.created', 'lead.created'],
        description: 'Our CRM',
      }),
      201,
    );
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.endpoint).toEqual({
      id: expect.any(String),
      url,
      events: ['lead.created', 'commission.created'],
      description: 'Our CRM',
      createdAt: expect.any(String),
      secretHint: created.secret.slice(-4),
    });
    // The secret is never answered again.
    const listed = await ok<WebhookEndpoint[]>(await call(member, 'GET', hooksOf(vendorId)));
    expect(listed).toEqual([created.endpoint]);
    expect(JSON.stringify(listed)).not.toContain(created.secret.slice(6, 20));

    const test = await ok<WebhookDelivery>(
      await call(member, 'POST', `${hooksOf(vendorId)}/${created.endpoint.id}/test`),
      202,
    );
    expect(test).toMatchObject({ endpointId: created.endpoint.id, eventType: 'webhook.test', state: 'pending' });
    const [done] = await settled(member, vendorId, created.endpoint.id);
    expect(done).toMatchObject({ id: test.id, state: 'succeeded', attempts: 1, responseStatus: 200, error: null });
    expect(done!.responseBody).toBe('ok 0');
    const [request] = receiver.on('/crm');
    verifySignature(created.secret, request!);
    expect(request!.headers['webhook-id']).toBe(test.eventId);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: expect.objectContaining({ vendorId, endpointId: created.endpoint.id }),
    });

    await expectRefused(
      () => call(member, 'DELETE', `${hooksOf(vendorId)}/${created.endpoint.id}`),
      403,
      'NOT_AN_OWNER',
    );
    expect(await ok(await call(owner, 'DELETE', `${hooksOf(vendorId)}/${created.endpoint.id}`))).toEqual([]);
    await expectRefused(
      () => call(owner, 'DELETE', `${hooksOf(vendorId)}/${created.endpoint.id}`),
      404,
      'WEBHOOK_NOT_FOUND',
    );
    expect(await ok(await call(owner, 'GET', hooksOf(vendorId)))).toEqual([]);
    const audit = await ok<Array<{ action: string; note: string }>>(
      await call(owner, 'GET', `/api/vendors/${vendorId}/audit`),
    );
    expect(audit.slice(0, 2).map((a) => [a.action, a.note])).toEqual([
      ['webhook_removed', url],
      ['webhook_added', url],
    ]);
  });

  it('refuses non-members, members of another vendor, non-owners and unverified workspaces, leaking nothing', async () => {
    const a = await verifiedVendor(ctx, 'alpha');
    const b = await verifiedVendor(ctx, 'bravo');
    const member = await memberOf(a.owner, a.vendorId);
    const { endpoint } = await hook(a.owner, a.vendorId);
    const body = { url: `${receiver.origin}/x`, events: ['lead.created'] };

    // B's owner on A's workspace: 403 before anything about A's endpoints is read.
    await expectRefused(() => call(b.owner, 'GET', hooksOf(a.vendorId)), 403, 'NOT_A_MEMBER');
    await expectRefused(() => createHook(b.owner, a.vendorId, body), 403, 'NOT_A_MEMBER');
    for (const [method, suffix] of [
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const)
      await expectRefused(
        () => call(b.owner, method, `${hooksOf(a.vendorId)}/${endpoint.id}${suffix}`),
        403,
        'NOT_A_MEMBER',
      );
    // A's endpoint through B's workspace: not found there.
    for (const [method, suffix] of [
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const)
      await expectRefused(
        () => call(b.owner, method, `${hooksOf(b.vendorId)}/${endpoint.id}${suffix}`),
        404,
        'WEBHOOK_NOT_FOUND',
      );
    await expectRefused(
      () => call(b.owner, 'GET', `${hooksOf(b.vendorId)}/not-a-uuid/deliveries`),
      404,
      'WEBHOOK_NOT_FOUND',
    );
    // A member of A may look, not register.
    await expectRefused(() => createHook(member, a.vendorId, body), 403, 'NOT_AN_OWNER');
    // An administrator who is not a member handles no vendor's secrets.
    const admin = testUser('admin', { isAdmin: true });
    await expectRefused(() => call(admin, 'GET', hooksOf(a.vendorId)), 403, 'NOT_A_MEMBER');
    await expectRefused(() => createHook(admin, a.vendorId, body), 403, 'NOT_A_MEMBER');
    // Unknown workspace, unverified workspace, unverified user, nobody.
    await expectRefused(() => call(a.owner, 'GET', hooksOf(randomUUID())), 404, 'VENDOR_NOT_FOUND');
    await expectRefused(() => call(a.owner, 'GET', hooksOf('nope')), 404, 'VENDOR_NOT_FOUND');
    const unverifiedOwner = testUser('solo');
    const unverified = await ok<Vendor>(
      await call(unverifiedOwner, 'POST', '/api/vendors', { name: 'Solo', website: uniqueDomain('solo') }),
      201,
    );
    expect(unverified.verified).toBe(false);
    await expectRefused(() => createHook(unverifiedOwner, unverified.id, body), 403, 'WORKSPACE_NOT_VERIFIED');
    await expectRefused(() => call(unverifiedOwner, 'GET', hooksOf(unverified.id)), 403, 'WORKSPACE_NOT_VERIFIED');
    const notVerified = { ...a.owner, headers: testUser('x', { emailVerified: false }).headers };
    expect((await call(notVerified, 'GET', hooksOf(a.vendorId))).statusCode).toBe(403);
    expect((await call(null, 'GET', hooksOf(a.vendorId))).statusCode).toBe(401);
  });

  it('accepts only https URLs and known events (400, nothing written)', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'https');
    for (const [url, events] of [
      ['http://localhost/hook', ['lead.created']],
      ['ftp://example.com/hook', ['lead.created']],
      ['not a url', ['lead.created']],
      [`${receiver.origin}/x`, []],
      [`${receiver.origin}/x`, ['referral.created']],
    ] as const) {
      const refused = await expectRefused(() => createHook(owner, vendorId, { url, events }), 400, 'VALIDATION_FAILED');
      expect(['url', 'events', 'events.0']).toContain(refused.field);
    }
  });

  it('allows 10 endpoints per workspace, also when registered all at once', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'limit');
    const answers = await Promise.all(
      Array.from({ length: 13 }, (_, i) =>
        createHook(owner, vendorId, { url: `${receiver.origin}/limit/${i}`, events: ['lead.created'] }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(10);
    const refused = answers.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => [r.statusCode, r.json<{ code: string }>().code])).toEqual(
      Array(3).fill([409, 'WEBHOOK_LIMIT']),
    );
    expect(await ok<WebhookEndpoint[]>(await call(owner, 'GET', hooksOf(vendorId)))).toHaveLength(10);
    await expectRefused(
      () => createHook(owner, vendorId, { url: `${receiver.origin}/limit/x`, events: ['lead.created'] }),
      409,
      'WEBHOOK_LIMIT',
    );
  });
});

describe('deliveries', () => {
  it('sends a vendor’s events, signed, to its subscribed endpoints only, once per event', async () => {
    const a = await verifiedVendor(ctx, 'events-a');
    const b = await verifiedVendor(ctx, 'events-b');
    const aLeads = await hook(a.owner, a.vendorId, ['lead.created', 'lead.status_changed']);
    const aCommissions = await hook(a.owner, a.vendorId, ['commission.created']);
    const bAll = await hook(b.owner, b.vendorId, ['lead.created', 'lead.status_changed', 'commission.created']);

    const eventId = randomUUID();
    await deliver(ctx.bus, 'lead.created', leadCreated(a.vendorId), eventId);
    await deliver(ctx.bus, 'lead.created', leadCreated(a.vendorId), eventId); // the same event again
    const [delivered] = await settled(a.owner, a.vendorId, aLeads.endpoint.id);
    expect(delivered).toMatchObject({ eventId, eventType: 'lead.created', state: 'succeeded', attempts: 1 });
    const [request] = receiver.on(aLeads.path);
    verifySignature(aLeads.secret, request!);
    expect(request!.headers['webhook-id']).toBe(eventId);
    const body = JSON.parse(request!.body) as { type: string; timestamp: string; data: Record<string, unknown> };
    const { recipients: _recipients, ...withoutRecipients } = leadCreated(a.vendorId);
    expect(body).toEqual({ type: 'lead.created', timestamp: expect.any(String), data: withoutRecipients });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);

    const status: EventPayload<'lead.status_changed'> = {
      referralId: 7,
      vendorId: a.vendorId,
      stage: 'intro_occurred',
      previousStage: 'intro_accepted',
      change: 'milestone_confirmed',
      milestone: 'opportunityCreated',
      changedAt: new Date().toISOString(),
    };
    const statusId = await deliver(ctx.bus, 'lead.status_changed', status);
    const commission: EventPayload<'commission.created'> = {
      commissionId: randomUUID(),
      referralId: 7,
      vendorId: a.vendorId,
      vendorName: 'Acme',
      milestone: 'opportunityCreated',
      currency: 'USD',
      grossCents: 50_000,
      referrerCents: 35_000,
      referrerEmail: 'riley@example.com',
      referrerFirstName: 'Riley',
      clientName: 'Globex',
      createdAt: new Date().toISOString(),
    };
    const commissionId = await deliver(ctx.bus, 'commission.created', commission);
    // A commission on a lead of no vendor (vendorId null) reaches nobody.
    const vendorless = await deliver(ctx.bus, 'commission.created', {
      ...commission,
      commissionId: randomUUID(),
      vendorId: null,
    });

    await eventually(() => receiver.on(aLeads.path).length === 2 && receiver.on(aCommissions.path).length === 1);
    const statusRequest = receiver.on(aLeads.path)[1]!;
    verifySignature(aLeads.secret, statusRequest);
    expect(statusRequest.headers['webhook-id']).toBe(statusId);
    expect(JSON.parse(statusRequest.body)).toMatchObject({ type: 'lead.status_changed', data: status });
    const commissionRequest = receiver.on(aCommissions.path)[0]!;
    verifySignature(aCommissions.secret, commissionRequest);
    expect(commissionRequest.headers['webhook-id']).toBe(commissionId);
    const { referrerEmail: _email, ...shown } = commission;
    expect(JSON.parse(commissionRequest.body)).toMatchObject({ type: 'commission.created', data: shown });
    expect(commissionRequest.body).not.toContain('riley@example.com');

    // The repeat and the vendorless commission were handled: they added nothing.
    await handled('profiles-webhook-commission-created', vendorless);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.on(aLeads.path)).toHaveLength(2);
    expect(receiver.on(aCommissions.path)).toHaveLength(1);
    expect(await deliveries(a.owner, a.vendorId, aLeads.endpoint.id)).toHaveLength(2);
    // Vendor B got none of A's events.
    expect(receiver.on(bAll.path)).toEqual([]);
    expect(await deliveries(b.owner, b.vendorId, bAll.endpoint.id)).toEqual([]);
    const rows = await ctx.sql.query(
      `SELECT d.event_id, e.vendor_id FROM profiles.webhook_deliveries d
         JOIN profiles.webhook_endpoints e ON e.id = d.endpoint_id WHERE d.event_id = ANY($1)`,
      [[eventId, statusId, commissionId]],
    );
    expect(rows.rows.every((r: { vendor_id: string }) => r.vendor_id === a.vendorId)).toBe(true);
    expect(rows.rowCount).toBe(3);
  });

  it('retries a failing endpoint on the schedule with the same id and body, then succeeds', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'flaky');
    const flaky = await hook(owner, vendorId);
    receiver.respond(flaky.path, (n) => (n === 0 ? 500 : 200));
    const eventId = await deliver(ctx.bus, 'lead.created', leadCreated(vendorId));

    const retrying = await eventually(async () => {
      const [d] = await deliveries(owner, vendorId, flaky.endpoint.id);
      return d?.state === 'retrying' ? d : undefined;
    });
    expect(retrying).toMatchObject({ attempts: 1, responseStatus: 500, error: 'HTTP 500' });
    expect(retrying.responseBody).toHaveLength(1024); // the first 1 KB of the answer
    const wait = Date.parse(retrying.nextAttemptAt!) - Date.parse(retrying.lastAttemptAt!);
    expect(wait).toBeGreaterThanOrEqual(RETRY_DELAYS[0]! - 5);
    expect(wait).toBeLessThan(RETRY_DELAYS[0]! + 100);

    const [done] = await settled(owner, vendorId, flaky.endpoint.id);
    expect(done).toMatchObject({ eventId, state: 'succeeded', attempts: 2, responseStatus: 200, nextAttemptAt: null });
    const [first, second] = receiver.on(flaky.path);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(RETRY_DELAYS[0]! - 20);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    verifySignature(flaky.secret, first!);
    verifySignature(flaky.secret, second!);
  });

  it('gives up after the schedule (1 + retries attempts): failed', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'down');
    const down = await hook(owner, vendorId);
    receiver.respond(down.path, () => 503);
    await deliver(ctx.bus, 'lead.created', leadCreated(vendorId));
    const [failed] = await settled(owner, vendorId, down.endpoint.id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 3, responseStatus: 503, nextAttemptAt: null });
    const times = receiver.on(down.path).map((r) => r.at);
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(RETRY_DELAYS[0]! - 20);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(RETRY_DELAYS[1]! - 20);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.on(down.path)).toHaveLength(3);
  });

  it('an unreachable endpoint is retried too, with why in the delivery', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'closed');
    // Nothing listens on port 1.
    const closed = await ok<Created>(
      await createHook(owner, vendorId, { url: 'https://localhost:1/hook', events: ['lead.created'] }),
      201,
    );
    await deliver(ctx.bus, 'lead.created', leadCreated(vendorId));
    const [failed] = await settled(owner, vendorId, closed.endpoint.id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 3, responseStatus: null, responseBody: null });
    expect(failed!.error).toMatch(/ECONNREFUSED/);
  });

  it('deleting an endpoint stops its pending deliveries', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'deleted');
    const doomed = await hook(owner, vendorId);
    receiver.respond(doomed.path, () => 500);
    await deliver(ctx.bus, 'lead.created', leadCreated(vendorId));
    await eventually(async () => {
      const [d] = await deliveries(owner, vendorId, doomed.endpoint.id);
      return d?.state === 'retrying';
    });
    expect(await ok(await call(owner, 'DELETE', `${hooksOf(vendorId)}/${doomed.endpoint.id}`))).toEqual([]);
    const count = receiver.on(doomed.path).length;
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS[0]! + RETRY_DELAYS[1]! + 400));
    expect(receiver.on(doomed.path)).toHaveLength(count);
    const left = await ctx.sql.query('SELECT 1 FROM profiles.webhook_deliveries WHERE endpoint_id = $1', [
      doomed.endpoint.id,
    ]);
    expect(left.rowCount).toBe(0);
  });

  it('an unverified workspace’s events reach no endpoint', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'lapsed');
    const lapsed = await hook(owner, vendorId);
    await ctx.sql.query('UPDATE profiles.vendors SET verified_at = NULL WHERE id = $1', [vendorId]);
    await handled('profiles-webhook-lead-created', await deliver(ctx.bus, 'lead.created', leadCreated(vendorId)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.on(lapsed.path)).toEqual([]);
    const rows = await ctx.sql.query('SELECT 1 FROM profiles.webhook_deliveries WHERE endpoint_id = $1', [
      lapsed.endpoint.id,
    ]);
    expect(rows.rowCount).toBe(0);
  });
});

describe('the sender and the worker', () => {
  it('connects to the address it checked (pinned), verifying TLS against the URL’s host name', async () => {
    const url = `${receiver.origin.replace('localhost', 'pinned.invalid')}/pinned`;
    const delivery = { url, secret: 'whsec_' + 'B'.repeat(32), eventId: randomUUID(), body: '{"type":"x"}' };
    const signal = new AbortController().signal;
    // No DNS knows pinned.invalid: the request can only have gone to the address the check resolved.
    const pinned = webhookSender({
      allowPrivate: true,
      timeoutMs: 5000,
      caFile: receiver.caFile,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(await pinned(delivery, signal)).toEqual({ ok: true, status: 200, body: 'ok 0', error: null });
    expect(receiver.on('/pinned')).toHaveLength(1);
    // The same with a private answer and private addresses refused: nothing is sent.
    const guarded = webhookSender({
      allowPrivate: false,
      timeoutMs: 5000,
      caFile: receiver.caFile,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(await guarded(delivery, signal)).toMatchObject({
      ok: false,
      status: null,
      error: expect.stringMatching(/^Refused/),
    });
    // Without the test CA the self-signed certificate is refused.
    const strict = webhookSender({ allowPrivate: true, timeoutMs: 5000 });
    const refused = await strict({ ...delivery, url: `${receiver.origin}/pinned` }, signal);
    expect(refused).toMatchObject({ ok: false, status: null });
    expect(refused.error).toMatch(/self[- ]signed|certificate/i);
    expect(receiver.on('/pinned')).toHaveLength(1);
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    receiver.respond('/slow', () => 0);
    const sender = webhookSender({ allowPrivate: true, timeoutMs: 300, caFile: receiver.caFile });
    const started = Date.now();
    const result = await sender(
      { url: `${receiver.origin}/slow`, secret: 'whsec_' + 'C'.repeat(32), eventId: randomUUID(), body: '{}' },
      new AbortController().signal,
    );
    expect(result).toEqual({ ok: false, status: null, body: null, error: 'No answer within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('shares the work between several workers (SKIP LOCKED): every delivery is sent once', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'replicas');
    const shared = await hook(owner, vendorId, ['lead.created']);
    const second = new WebhookWorker({
      pool: ctx.service.pool,
      attempt: webhookSender({ allowPrivate: true, timeoutMs: 5000, caFile: receiver.caFile }),
      logger: ctx.service.app.log,
      retryDelaysMs: RETRY_DELAYS,
      pollMs: 10,
    });
    second.start();
    try {
      const ids = await Promise.all(
        Array.from({ length: 30 }, (_, i) => deliver(ctx.bus, 'lead.created', leadCreated(vendorId, 100 + i))),
      );
      await eventually(
        async () =>
          (
            await ctx.sql.query(
              "SELECT 1 FROM profiles.webhook_deliveries WHERE endpoint_id = $1 AND state = 'succeeded'",
              [shared.endpoint.id],
            )
          ).rowCount === 30,
        15_000,
        '30 deliveries succeeded',
      );
      const received = receiver.on(shared.path).map((r) => r.headers['webhook-id']);
      expect(received).toHaveLength(30);
      expect(new Set(received)).toEqual(new Set(ids));
      const attempts = await ctx.sql.query(
        'SELECT DISTINCT attempts FROM profiles.webhook_deliveries WHERE endpoint_id = $1',
        [shared.endpoint.id],
      );
      expect(attempts.rows).toEqual([{ attempts: 1 }]);
    } finally {
      await second.stop();
    }
  });

  // Last: it stops the service's worker.
  it('stops cleanly: an attempt in flight is abandoned, not counted, and due again for the next worker', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'shutdown');
    const hanging = await hook(owner, vendorId, ['lead.created']);
    receiver.respond(hanging.path, () => 0);
    await deliver(ctx.bus, 'lead.created', leadCreated(vendorId));
    await eventually(() => receiver.on(hanging.path).length === 1);
    const started = Date.now();
    await ctx.service.webhooks.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    const [delivery] = await deliveries(owner, vendorId, hanging.endpoint.id);
    expect(delivery).toMatchObject({ state: 'pending', attempts: 0, lastAttemptAt: null });
    expect(Date.parse(delivery!.nextAttemptAt!)).toBeLessThanOrEqual(Date.now());
  });
});
