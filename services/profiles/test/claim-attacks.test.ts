import { randomUUID } from 'node:crypto';
import type { ErrorCode, EventEnvelope, Vendor } from '@app/contracts';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  eventsOfVendor,
  snapshot,
  startProfiles,
  testUser,
  uniqueDomain,
  type TestContext,
  type TestUser,
} from './helpers.ts';

/**
 * Getting a verified vendor workspace without the right to it: a domain anyone can hold addresses at
 * (webmail country variants, a registry's suffix such as co.uk), a look-alike of the company's domain, or an
 * administrator's approval without the note that says why the platform vouches for it.
 */
let ctx: TestContext;
const call = caller(() => ctx);
const admin = testUser('admin', { isAdmin: true, domain: 'platform.test' });

const create = (user: TestUser, body: unknown) => call(user, 'POST', '/api/vendors', body);

/** A refusal: its status, code (and message), and every table exactly as before. */
async function expectRefused(
  send: () => ReturnType<typeof call>,
  status: number,
  code: ErrorCode,
  message?: string,
): Promise<void> {
  const before = await snapshot(ctx.sql);
  const response = await send();
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toMatchObject({ code, ...(message ? { message } : {}) });
  expect(await snapshot(ctx.sql)).toEqual(before);
}

beforeAll(async () => {
  ctx = await startProfiles();
});

afterAll(async () => {
  await ctx?.close();
});

describe('webmail country variants prove nothing', () => {
  it.each(['outlook.fr', 'hotmail.ca', 'yahoo.com.au', 'yahoo.co.in', 'live.de', 'outlook.com.br', 'gmx.fr'])(
    'a user at %s cannot make it (or a subdomain) a website, nor have it verified',
    async (domain) => {
      const user = testUser('freemail', { domain });
      for (const website of [domain, `https://www.${domain}/`, `eu.${domain}`, domain.toUpperCase()])
        await expectRefused(() => create(user, { name: 'Acme Corp', website }), 400, 'WEBMAIL_DOMAIN');
      // Nor an administrator's creation, nor a website change of an existing claim.
      await expectRefused(
        () => call(admin, 'POST', '/api/admin/vendors', { name: 'Acme Corp', website: domain }),
        400,
        'WEBMAIL_DOMAIN',
      );
      const claim = await create(user, { name: 'Acme Corp', website: uniqueDomain('claim') });
      expect(claim.statusCode, claim.body).toBe(201);
      expect(claim.json<Vendor>().verified).toBe(false);
      await expectRefused(
        () => call(user, 'PATCH', `/api/vendors/${claim.json<Vendor>().id}`, { website: domain }),
        400,
        'WEBMAIL_DOMAIN',
      );
    },
  );
});

describe('a registry suffix (co.uk, com.au) is nobody’s company', () => {
  const message = 'Please enter a valid website, e.g. acme.com';

  it.each(['co.uk', 'com.au', 'co.jp', 'com.br'])(
    'a user with an address under %s cannot claim the suffix itself',
    async (suffix) => {
      const user = testUser('registrant', { domain: `evil-${suffix.replace('.', '-')}.${suffix}` });
      await expectRefused(() => create(user, { name: 'Everyone', website: suffix }), 400, 'VALIDATION_FAILED', message);
      await expectRefused(
        () => call(admin, 'POST', '/api/admin/vendors', { name: 'Everyone', website: `https://${suffix}/` }),
        400,
        'VALIDATION_FAILED',
        message,
      );
      const claim = await create(user, { name: 'Acme Corp', website: uniqueDomain('suffix') });
      expect(claim.statusCode, claim.body).toBe(201);
      await expectRefused(
        () => call(user, 'PATCH', `/api/vendors/${claim.json<Vendor>().id}`, { website: suffix }),
        400,
        'VALIDATION_FAILED',
        message,
      );
    },
  );

  it('a company on a registry suffix still verifies with its own address', async () => {
    const domain = `${uniqueDomain('brit').replace(/\.test$/, '')}.co.uk`;
    const user = testUser('brit', { domain: `eu.${domain}` });
    const response = await create(user, { name: 'Brit Ltd', website: domain });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<Vendor>()).toMatchObject({ domain, verified: true, verification: 'domain' });
  });
});

describe('look-alike domains prove nothing', () => {
  it.each([
    ['a longer domain ending with it', (d: string) => `${d}.evil.test`],
    ['a hyphenated look-alike', (d: string) => `evil-${d}`],
    ['a glued look-alike', (d: string) => `evil${d}`],
    ['a homograph with a Cyrillic letter', (d: string) => d.replace('a', '\u0430')],
  ])('%s does not verify the workspace', async (_, lookAlike) => {
    const domain = uniqueDomain('acme');
    const owner = testUser('owner', { email: `ana@${lookAlike(domain)}` });
    const response = await create(owner, { name: 'Acme', website: domain });
    expect(response.statusCode, response.body).toBe(201);
    const vendor = response.json<Vendor>();
    expect(vendor.verified).toBe(false);
    const checked = await call(owner, 'POST', `/api/vendors/${vendor.id}/verification`);
    expect(checked.json<Vendor>().verified).toBe(false);
  });

  it('the same domain in upper case, with www. or a trailing dot is the same domain', async () => {
    const domain = uniqueDomain('case');
    const owner = testUser('owner', { email: `ana@EU.${domain.toUpperCase()}` });
    const response = await create(owner, { name: 'Case', website: `HTTPS://WWW.${domain.toUpperCase()}./` });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<Vendor>()).toMatchObject({ domain, verified: true });
    // A second claim of that domain, spelled another way, is the same domain: taken.
    const other = testUser('other', { domain });
    await expectRefused(() => create(other, { name: 'Case Two', website: `${domain}.` }), 409, 'DOMAIN_TAKEN');
  });

  it("a subdomain of a verified workspace's domain is taken too: claimed, moved to or approved", async () => {
    const domain = uniqueDomain('parent');
    // A stranger's workspace on a subdomain, made before the vendor's own is verified.
    const mallory = testUser('mallory', { email: `mallory@evil-${domain}` });
    const early = await create(mallory, { name: 'Parent Co', website: `eu.${domain}` });
    expect(early.statusCode, early.body).toBe(201);
    const owner = testUser('owner', { domain });
    const verified = await create(owner, { name: 'Parent Co', website: domain });
    expect(verified.json<Vendor>()).toMatchObject({ domain, verified: true });
    for (const website of [`sub.${domain}`, `https://app.sub.${domain}/pricing`])
      await expectRefused(() => create(mallory, { name: 'Parent Co', website }), 409, 'DOMAIN_TAKEN');
    await expectRefused(
      () => call(mallory, 'PATCH', `/api/vendors/${early.json<Vendor>().id}`, { website: `x.${domain}` }),
      409,
      'DOMAIN_TAKEN',
    );
    await expectRefused(
      () => call(admin, 'POST', `/api/vendors/${early.json<Vendor>().id}/approve`, { note: 'Looks right' }),
      409,
      'DOMAIN_TAKEN',
    );
    // A look-alike that only ends with the same letters is another domain.
    const lookalike = await create(mallory, { name: 'Not Parent', website: `not${domain}` });
    expect(lookalike.statusCode, lookalike.body).toBe(201);
  });
});

describe('an administrator’s approval always carries its note', () => {
  it('creating an approved workspace without a note is refused and changes nothing', async () => {
    for (const note of [undefined, '', '   \n '])
      await expectRefused(
        () =>
          call(admin, 'POST', '/api/admin/vendors', {
            name: 'Unexplained',
            website: uniqueDomain('unexplained'),
            approve: true,
            ...(note === undefined ? {} : { note }),
          }),
        400,
        'VALIDATION_FAILED',
        'Please say why you approve this vendor',
      );
  });

  it('with a note, the approval is audited with it; unapproved creation needs none', async () => {
    const approved = await call(admin, 'POST', '/api/admin/vendors', {
      name: 'Explained',
      website: uniqueDomain('explained'),
      approve: true,
      note: 'Signed partner agreement #42',
    });
    expect(approved.statusCode, approved.body).toBe(201);
    const vendor = approved.json<Vendor>();
    expect(vendor).toMatchObject({ verified: true, verification: 'admin' });
    const audit = await call(admin, 'GET', `/api/vendors/${vendor.id}/audit`);
    expect(audit.json()).toContainEqual(
      expect.objectContaining({ action: 'approved', actor: admin.email, note: 'Signed partner agreement #42' }),
    );
    expect(eventsOfVendor(ctx, vendor.id, 'vendor.saved').at(-1)?.payload.verified ?? true).toBe(true);

    const plain = await call(admin, 'POST', '/api/admin/vendors', { name: 'Later', website: uniqueDomain('later') });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json<Vendor>().verified).toBe(false);
  });

  it('the approve call refuses a missing or blank note', async () => {
    const plain = await call(admin, 'POST', '/api/admin/vendors', { name: 'Pending', website: uniqueDomain('pend') });
    const { id } = plain.json<Vendor>();
    for (const body of [{}, { note: '' }, { note: '  ' }])
      await expectRefused(() => call(admin, 'POST', `/api/vendors/${id}/approve`, body), 400, 'VALIDATION_FAILED');
  });
});

describe('a verified address delivered late', () => {
  it('an older user.email_verified, delivered after a newer one, neither puts the old address back nor proves its domain', async () => {
    const domain = uniqueDomain('left');
    const owner = testUser('leaver');
    const vendor = (await create(owner, { name: 'Left Co', website: domain })).json<Vendor>();
    expect(vendor.verified).toBe(false);
    const verifiedAt = async (email: string, occurredAt: Date) => {
      const id = randomUUID();
      await ctx.bus.publish({
        id,
        name: 'user.email_verified',
        payload: { userId: owner.userId, email },
        occurredAt: occurredAt.toISOString(),
      } as EventEnvelope);
      await eventually(
        async () =>
          (
            await ctx.sql.query(
              "SELECT 1 FROM profiles.processed_events WHERE subscriber = 'profiles-email-verified' AND event_id = $1",
              [id],
            )
          ).rowCount === 1,
        5000,
        'the event handled',
      );
    };
    const copy = async () =>
      (await ctx.sql.query('SELECT email FROM profiles.users WHERE user_id = $1', [owner.userId])).rows[0]?.email;
    const now = Date.now();
    // The user left the company address for a personal one; the company address's event, a minute older,
    // failed and is delivered again only now.
    await verifiedAt(`ana@personal-${randomUUID().slice(0, 6)}.test`, new Date(now));
    const personal = await copy();
    await verifiedAt(`ana@${domain}`, new Date(now - 60_000));
    expect(await copy()).toBe(personal);
    const checked = await call(owner, 'POST', `/api/vendors/${vendor.id}/verification`);
    expect(checked.json<Vendor>().verified).toBe(false);
    // A newer change is taken.
    await verifiedAt(`ana@${domain}`, new Date(now + 1000));
    expect(await copy()).toBe(`ana@${domain}`);
    expect((await call(owner, 'POST', `/api/vendors/${vendor.id}/verification`)).json<Vendor>().verified).toBe(true);
  });
});
