import { randomUUID } from 'node:crypto';
import { Referral } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, referralInput, saveVendor, startReferrals, testUser, type TestContext } from './helpers.ts';

/**
 * Routing attacks: a workspace whose "domain" is a registry's suffix (co.uk, com.au) must never catch the
 * referrals of every company under it, whether it reached the read model as a workspace (stored before
 * profiles refused such websites) or as a program's website; a typed company name never routes either.
 */
let ctx: TestContext;
const referrer = testUser('referrer');

async function created(overrides: Record<string, unknown>): Promise<Referral> {
  const response = await ctx.service.app.inject({
    method: 'POST',
    url: '/api/referrals',
    headers: referrer.headers,
    payload: referralInput(overrides),
  });
  expect(response.statusCode, response.body).toBe(201);
  return Referral.parse(response.json());
}

beforeAll(async () => {
  ctx = await startReferrals();
});

afterAll(async () => {
  await ctx?.close();
});

describe('a registry suffix is nobody’s company', () => {
  it('a verified workspace on co.uk gets no referral to acme.co.uk; acme.co.uk’s own workspace does', async () => {
    await saveVendor(ctx, { name: 'Squatter', domain: 'co.uk' });
    const tracked = await created({ product: 'Acme Widgets', company: 'Acme Ltd', website: 'https://shop.acme.co.uk' });
    expect(tracked.lead).toBeNull();

    const acme = await saveVendor(ctx, { name: 'Acme Ltd', domain: 'acme.co.uk' });
    const routed = await created({ product: 'Acme Widgets', company: 'Acme Ltd', website: 'https://shop.acme.co.uk' });
    expect(routed.lead?.vendorId).toBe(acme.vendorId);
  });

  it('a program on com.au linked to a verified workspace catches no other company under com.au', async () => {
    const squatter = await saveVendor(ctx, { name: 'Program Squatter' });
    await deliver(ctx, 'program.saved', {
      programId: randomUUID(),
      name: 'Everything Australian',
      description: 'Every product in Australia.',
      website: 'https://com.au',
      rewardDetails: '$300 per customer',
      vendorId: squatter.vendorId,
      companyName: null,
      isActive: true,
    });
    const tracked = await created({ product: 'Kanga', company: 'Kanga Pty Ltd', website: 'https://kanga.com.au' });
    expect(tracked.lead).toBeNull();
  });

  it('a company name typed by the referrer routes nowhere, even the exact name of a verified workspace', async () => {
    const named = await saveVendor(ctx, { name: 'Zenith Payroll' });
    for (const website of ['', 'https://zenith-payroll.evil.test', `https://${named.domain}.evil.test`]) {
      const referral = await created({ product: 'Zenith Payroll', company: 'Zenith Payroll', website });
      expect(referral.lead, website).toBeNull();
    }
  });
});
