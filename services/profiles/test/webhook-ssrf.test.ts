import { randomUUID } from 'node:crypto';
import type { ErrorCode, WebhookDelivery } from '@app/contracts';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProfilesConfig, WEBHOOK_RETRY_DELAYS_MS } from '../src/config.ts';
import { checkWebhookUrl, privateReason } from '../src/webhook-address.ts';
import { signWebhook } from '../src/webhook-sender.ts';
import { retryDelayAfter } from '../src/webhook-worker.ts';
import { caller, snapshot, startProfiles, verifiedVendor, type TestContext } from './helpers.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

/**
 * The SSRF guard with WEBHOOK_ALLOW_PRIVATE off (production): a URL whose host resolves to anything but
 * public addresses is refused at registration, and a delivery re-checks the address it connects to.
 */

let ctx: TestContext;
let receiver: WebhookReceiver;
const call = caller(() => ctx);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ctx = await startProfiles({
    WEBHOOK_CA_FILE: receiver.caFile,
    WEBHOOK_RETRY_DELAYS_MS: '100',
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_TIMEOUT_MS: '2000',
  });
});
afterAll(async () => {
  await ctx?.close();
  await receiver?.close();
});

describe('addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1%eth0', 'link-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback (IPv4 inside IPv6)'],
    ['::ffff:7f00:1', 'loopback (IPv4 inside IPv6)'],
    ['::ffff:a9fe:a9fe', 'link-local (cloud metadata) (IPv4 inside IPv6)'],
    ['0:0:0:0:0:ffff:10.0.0.1', 'private (IPv4 inside IPv6)'],
    ['64:ff9b::10.0.0.1', 'private (IPv4 inside IPv6)'],
    ['2002:7f00:1::', 'loopback (IPv4 inside IPv6)'],
    ['2001:db8::1', 'documentation'],
    ['not-an-ip', 'not an IP address'],
  ])('%s is refused (%s)', (address, why) => {
    expect(privateReason(address)).toBe(why);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '93.184.215.14'])(
    'IPv4 %s is public',
    (address) => expect(privateReason(address)).toBeNull(),
  );
  it.each(['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'IPv6 %s is public',
    (address) => expect(privateReason(address)).toBeNull(),
  );

  it('one private address among public ones is enough to refuse; no address is unresolvable', async () => {
    const mixed = async () => [
      { address: '8.8.8.8', family: 4 as const },
      { address: '10.0.0.5', family: 4 as const },
    ];
    expect(await checkWebhookUrl('https://hooks.example.com/x', { allowPrivate: false, resolve: mixed })).toEqual({
      ok: false,
      reason: 'private',
      detail: 'hooks.example.com resolves to 10.0.0.5: private',
    });
    const publicOnly = async () => [{ address: '8.8.8.8', family: 4 as const }];
    expect(await checkWebhookUrl('https://hooks.example.com/x', { allowPrivate: false, resolve: publicOnly })).toEqual({
      ok: true,
      addresses: [{ address: '8.8.8.8', family: 4 }],
    });
    const none = async () => [];
    expect(await checkWebhookUrl('https://x.example.com/', { allowPrivate: false, resolve: none })).toMatchObject({
      ok: false,
      reason: 'unresolvable',
    });
    expect(await checkWebhookUrl('https://10.0.0.5/', { allowPrivate: true })).toMatchObject({ ok: true });
  });

  it('signs as the Standard Webhooks specification’s example', () => {
    // https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});

describe('configuration and schedule', () => {
  const base = { DATABASE_URL: 'postgresql://x@127.0.0.1/x', INTERNAL_SECRET: 'x'.repeat(32) };

  it('refuses private addresses and retries on the Standard Webhooks schedule by default', () => {
    const config = readProfilesConfig(base);
    expect(config.WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(config.WEBHOOK_RETRY_DELAYS_MS).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(config.WEBHOOK_TIMEOUT_MS).toBe(10_000);
    expect(config.WEBHOOK_CA_FILE).toBeUndefined();
    // 8 attempts over about 27 hours, then failed.
    const waits = Array.from({ length: 8 }, (_, i) => retryDelayAfter(i + 1, WEBHOOK_RETRY_DELAYS_MS));
    expect(waits.at(-1)).toBeNull();
    expect(waits.slice(0, 7).reduce((sum, ms) => sum! + ms!, 0)! / 3_600_000).toBeCloseTo(27.6, 1);
  });

  it('reads the overrides, and refuses a malformed schedule or flag', () => {
    const config = readProfilesConfig({
      ...base,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '100, 200,300',
    });
    expect(config.WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(config.WEBHOOK_RETRY_DELAYS_MS).toEqual([100, 200, 300]);
    expect(() => readProfilesConfig({ ...base, WEBHOOK_RETRY_DELAYS_MS: '5s,1m' })).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
    expect(() => readProfilesConfig({ ...base, WEBHOOK_ALLOW_PRIVATE: 'maybe' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });
});

describe('registration and delivery with private addresses refused', () => {
  it.each([
    ['https://localhost/hook', 'WEBHOOK_URL_PRIVATE'],
    ['https://127.0.0.1/hook', 'WEBHOOK_URL_PRIVATE'],
    ['https://10.0.0.1/hook', 'WEBHOOK_URL_PRIVATE'],
    ['https://169.254.169.254/latest/meta-data', 'WEBHOOK_URL_PRIVATE'],
    ['https://[::1]/hook', 'WEBHOOK_URL_PRIVATE'],
    ['https://[::ffff:127.0.0.1]/hook', 'WEBHOOK_URL_PRIVATE'],
    ['https://[fd00::1]:8443/hook', 'WEBHOOK_URL_PRIVATE'],
    ['https://2130706433/hook', 'WEBHOOK_URL_PRIVATE'], // 127.0.0.1 as a number
    ['https://0x7f.1/hook', 'WEBHOOK_URL_PRIVATE'],
    ['https://nothing-here.invalid/hook', 'WEBHOOK_URL_UNRESOLVABLE'],
  ] as const)('%s: 400 %s, nothing written', async (url, code) => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'ssrf');
    const before = await snapshot(ctx.sql);
    const response = await call(owner, 'POST', `/api/vendors/${vendorId}/webhooks`, { url, events: ['lead.created'] });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ code: ErrorCode; field?: string }>()).toMatchObject({ code, field: 'url' });
    expect(await snapshot(ctx.sql)).toEqual(before);
  });

  it('a public address registers', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'public');
    const response = await call(owner, 'POST', `/api/vendors/${vendorId}/webhooks`, {
      url: 'https://93.184.215.14/hook',
      events: ['lead.created'],
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('a host that resolves to a private address by delivery time is not called (rebinding)', async () => {
    const { owner, vendorId } = await verifiedVendor(ctx, 'rebind');
    // As if the name had resolved to a public address when registered and to 127.0.0.1 now.
    const endpointId = randomUUID();
    await ctx.sql.query(
      `INSERT INTO profiles.webhook_endpoints (id, vendor_id, url, events, secret, created_by)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [endpointId, vendorId, `${receiver.origin}/rebound`, ['lead.created'], 'whsec_' + 'A'.repeat(32), owner.userId],
    );
    const test = await call(owner, 'POST', `/api/vendors/${vendorId}/webhooks/${endpointId}/test`);
    expect(test.statusCode, test.body).toBe(202);
    const [failed] = await eventually(async () => {
      const list = (await call(owner, 'GET', `/api/vendors/${vendorId}/webhooks/${endpointId}/deliveries`)).json<
        WebhookDelivery[]
      >();
      return list[0]?.state === 'failed' ? list : undefined;
    });
    expect(failed).toMatchObject({ attempts: 2, responseStatus: null });
    expect(failed!.error).toBe('Refused: localhost resolves to 127.0.0.1: loopback');
    expect(receiver.received).toEqual([]);
  });
});
