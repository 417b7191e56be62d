import { randomUUID } from 'node:crypto';
import { REFERRAL_MESSAGES, type EventEnvelope, type EventPayload } from '@app/contracts';
import { internalAuthToken } from '@app/kit';
import { TEST_SECRET } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bounties,
  deliver,
  publish,
  redeliver,
  referralInput,
  saveVendor,
  startAiStub,
  startReferrals,
  testUser,
  type AiStub,
  type TestContext,
  type TestUser,
} from './helpers.ts';

let ctx: TestContext;
let ai: AiStub;

beforeAll(async () => {
  ai = await startAiStub(internalAuthToken(TEST_SECRET));
  // Generous: nothing here is slow on purpose, and a loaded machine must not turn an answer into a timeout.
  ctx = await startReferrals({ AI_URL: ai.url, AI_TIMEOUT_MS: '3000' });
});
afterAll(async () => {
  await ctx?.close();
  await ai?.close();
});

const saved = (
  payload: Partial<EventPayload<'program.saved'>>,
  occurredAt = new Date(),
  id = randomUUID(),
): EventEnvelope<'program.saved'> => ({
  id,
  name: 'program.saved',
  occurredAt: occurredAt.toISOString(),
  payload: {
    programId: randomUUID(),
    name: 'Acme Partners',
    description: 'd',
    website: 'https://acme.example',
    rewardDetails: '$500 per customer',
    companyName: 'Acme',
    vendorId: null,
    isActive: true,
    ...payload,
  },
});

async function projectFor(product: string, company: string) {
  const user = testUser();
  const response = await ctx.service.app.inject({
    method: 'POST',
    url: '/api/referrals',
    headers: user.headers,
    payload: referralInput({ product, company }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const projectId = response.json().projectId as string;
  return async () =>
    (
      await ctx.service.app.inject({
        method: 'GET',
        url: `/api/products/${encodeURIComponent(projectId)}/referral-program`,
        headers: user.headers,
      })
    ).json().referralProgram as string;
}

describe('program.saved in the referrals service', () => {
  it("answers the vendor's active program (by normalized company) before asking the AI; an inactive one no longer counts", async () => {
    const event = saved({
      name: 'Umbrella Partner Program',
      companyName: 'Umbrella Corp',
      rewardDetails: '20% of first-year ARR',
    });
    await publish(ctx, event);
    const check = await projectFor('Programmed', 'umbrella, Inc.');
    expect(await check()).toBe('Umbrella Partner Program: 20% of first-year ARR');
    expect(ai.calls.filter((c) => c.productName === 'Programmed')).toHaveLength(0);

    await publish(ctx, saved({ ...event.payload, isActive: false }, new Date(Date.now() + 1000)));
    // Now the AI is asked (the stub knows a program for 'Programmed').
    expect(await check()).toBe('Partners earn 20% of first-year revenue.');
  });

  it('matches a program by the product name too, and ignores a late older event', async () => {
    const event = saved({ name: 'Widgetly', companyName: null, rewardDetails: '$100 per demo' });
    await publish(ctx, event);
    const check = await projectFor('widgetly', 'Someone Else Ltd');
    expect(await check()).toBe('Widgetly: $100 per demo');
    await publish(ctx, saved({ ...event.payload, isActive: false }, new Date(Date.now() - 60_000)));
    expect(await check()).toBe('Widgetly: $100 per demo');
  });

  it('handles each event once', async () => {
    const event = saved({ name: 'Once Program', companyName: 'Once Inc' });
    await publish(ctx, event);
    await publish(ctx, event);
    await redeliver(ctx, event.id);
    const { rows } = await ctx.sql.query(
      "SELECT count(*)::int AS n FROM referrals.processed_events WHERE subscriber = 'referrals-programs' AND event_id = $1",
      [event.id],
    );
    expect(rows[0].n).toBe(1);
    const programs = await ctx.sql.query('SELECT name, company_key, is_active FROM referrals.programs WHERE id = $1', [
      event.payload.programId,
    ]);
    expect(programs.rows).toEqual([{ name: 'Once Program', company_key: 'once', is_active: true }]);
  });

  it("still answers 'NO...' when neither a program nor the AI knows one", async () => {
    await publish(ctx, saved({ name: 'Off Program', companyName: 'Offco', isActive: false }));
    const check = await projectFor('Nothing Here', 'Offco');
    expect(await check()).toBe(REFERRAL_MESSAGES.noProgram);
  });
});

describe("the vendor's and its program's links (issue 12)", () => {
  /** A referral of `user` (a new one by default), with the program check and the dry run as its user asks them. */
  async function referral(product: string, company: string, options: { website?: string; user?: TestUser } = {}) {
    const user = options.user ?? testUser();
    const response = await ctx.service.app.inject({
      method: 'POST',
      url: '/api/referrals',
      headers: user.headers,
      payload: referralInput({ product, company, ...(options.website ? { website: options.website } : {}) }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id, projectId, lead } = response.json() as {
      id: number;
      projectId: string;
      lead: { vendorId: string } | null;
    };
    const programUrl = `/api/products/${encodeURIComponent(projectId)}/referral-program`;
    /** The program check with `query` (e.g. `?referralId=7`), asked as the user of `headers`. */
    const program = (query = '', headers = user.headers) =>
      ctx.service.app.inject({ method: 'GET', url: `${programUrl}${query}`, headers });
    return {
      id,
      user,
      lead,
      program,
      check: async () => (await program()).json(),
      automate: async () =>
        (
          await ctx.service.app.inject({
            method: 'POST',
            url: `/api/referrals/${id}/automate`,
            headers: user.headers,
            payload: { dryRun: true },
          })
        ).json(),
    };
  }

  it("asks the AI with the vendor workspace's website and the program's page, and previews the vendor's own site", async () => {
    const vendor = await saveVendor(ctx, { name: 'Initrode Systems', domain: 'initrode.example' });
    await publish(
      ctx,
      saved({
        name: 'Initrode Partners',
        companyName: null,
        vendorId: vendor.vendorId,
        website: 'https://partners.initrode.example/refer',
        isActive: false,
      }),
    );
    const { check, automate } = await referral('Initrode Reports', 'Initrode Systems, Inc.');
    expect(await check()).toEqual({ referralProgram: REFERRAL_MESSAGES.noProgram });
    expect(ai.calls.filter((c) => c.productName === 'Initrode Reports').map((c) => c.question)).toEqual([
      {
        productName: 'Initrode Reports',
        companyName: 'Initrode Systems, Inc.',
        website: null,
        vendorWebsite: 'https://initrode.example',
        programWebsite: 'https://partners.initrode.example',
      },
    ]);
    expect(await automate()).toMatchObject({ success: true, website: 'https://initrode.example' });
  });

  it("never gives a product a workspace's program or site by the workspace's own name: only by a domain the product's names name", async () => {
    // A verified workspace on its own domain that calls itself after another company, with an active program.
    const impostor = await saveVendor(ctx, { name: 'Hooli', domain: 'evil-test.example' });
    const onItsSubdomain = await saveVendor(ctx, { name: 'Hooli', domain: 'hooli.evil-test.example' });
    for (const vendor of [impostor, onItsSubdomain])
      await publish(
        ctx,
        saved({
          name: 'Hooli Partner Program',
          companyName: 'Hooli',
          vendorId: vendor.vendorId,
          website: `https://${vendor.domain}/partners`,
          rewardDetails: '30% recurring',
        }),
      );
    const posed = await referral('Hooli Chat', 'Hooli');
    expect(await posed.check()).toEqual({ referralProgram: REFERRAL_MESSAGES.noProgram });
    expect(ai.calls.find((c) => c.productName === 'Hooli Chat')?.question).toMatchObject({
      vendorWebsite: null,
      programWebsite: null,
    });
    expect(await posed.automate()).toMatchObject({ success: true, website: null });

    // The company's own workspace, on the domain its name names, is found by the same names.
    const hooli = await saveVendor(ctx, { name: 'Hooli', domain: 'hooli.example' });
    await publish(
      ctx,
      saved({
        name: 'Hooli Referrals',
        companyName: 'Hooli',
        vendorId: hooli.vendorId,
        website: 'https://hooli.example/refer',
        rewardDetails: '$300 per demo',
        isActive: false,
      }),
    );
    const real = await referral('Hooli Mail', 'Hooli, Inc.');
    await real.check();
    expect(ai.calls.find((c) => c.productName === 'Hooli Mail')?.question).toMatchObject({
      vendorWebsite: 'https://hooli.example',
      programWebsite: 'https://hooli.example',
    });
    expect(await real.automate()).toMatchObject({ website: 'https://hooli.example' });
    await publish(
      ctx,
      saved({
        name: 'Hooli Partners',
        companyName: 'Hooli',
        vendorId: hooli.vendorId,
        website: 'https://hooli.example/partners',
        rewardDetails: '$500 per customer',
      }),
    );
    // The impostor saves again, so its program is the newest of the company's name: still not Hooli's.
    await publish(
      ctx,
      saved({
        name: 'Hooli Partner Program',
        companyName: 'Hooli',
        vendorId: impostor.vendorId,
        website: 'https://evil-test.example/partners',
        rewardDetails: '40% recurring',
      }),
    );
    expect(await (await referral('Hooli Drive', 'Hooli')).check()).toEqual({
      referralProgram: 'Hooli Partners: $500 per customer',
    });
  });

  it("counts the program of the workspace the user's own referral was routed to, whatever its name", async () => {
    // A real vendor whose name does not name its domain (as Alphabet and google.com).
    const vendor = await saveVendor(ctx, { name: 'Pied Piper Analytics', domain: 'piper-net.example' });
    await publish(
      ctx,
      saved({
        name: 'Pied Piper Partners',
        companyName: 'Pied Piper Analytics',
        vendorId: vendor.vendorId,
        website: 'https://piper-net.example/partners',
        rewardDetails: '25% of first-year ARR',
      }),
    );
    const piper = await referral('Compression Suite', 'Pied Piper Analytics', {
      website: 'https://piper-net.example',
    });
    expect(piper.lead?.vendorId).toBe(vendor.vendorId);

    expect((await piper.program(`?referralId=${piper.id}`)).json()).toEqual({
      referralProgram: 'Pied Piper Partners: 25% of first-year ARR',
    });
    expect(await piper.automate()).toMatchObject({ website: 'https://piper-net.example' });
    // Without the referral, the names alone do not vouch for the workspace.
    expect(await piper.check()).toEqual({ referralProgram: REFERRAL_MESSAGES.noProgram });
    // Another user's referral is refused as anywhere; one of another product names nothing here.
    expect((await piper.program(`?referralId=${piper.id}`, testUser().headers)).statusCode).toBe(403);
    const other = await referral('Other', 'Else', { user: piper.user });
    expect((await piper.program(`?referralId=${other.id}`)).statusCode).toBe(404);
    expect((await piper.program('?referralId=abc')).statusCode).toBe(400);

    // Routed to a workspace with no program at all: the dry run still plays the vendor's own site.
    const bare = await saveVendor(ctx, { name: 'Hooli XYZ Labs', domain: 'hx-labs.example' });
    const routed = await referral('Signal Box', 'Hooli XYZ Labs', {
      website: 'https://hx-labs.example',
      user: piper.user,
    });
    expect(routed.lead?.vendorId).toBe(bare.vendorId);
    expect(await routed.automate()).toMatchObject({ website: 'https://hx-labs.example' });
  });

  it('calls the bounties of the workspace the referral was routed to a program, when no program page exists', async () => {
    const vendor = await saveVendor(ctx, { name: 'Bountiful Labs', domain: 'bountiful.example' });
    await deliver(ctx, 'bounties.saved', {
      vendorId: vendor.vendorId,
      version: 1,
      bounties: bounties({
        qualifiedLead: { enabled: true, type: 'flat', amount: 50 },
        closedWon: { enabled: true, type: 'percentage_arr', amount: 10 },
      }),
    });
    const routed = await referral('Bounty Board', 'Bountiful Labs', { website: 'https://bountiful.example' });
    expect(routed.lead?.vendorId).toBe(vendor.vendorId);
    expect((await routed.program(`?referralId=${routed.id}`)).json()).toEqual({
      referralProgram:
        'Bountiful Labs referral bounties: $50 at Qualified Lead and 10% of first-year ARR at Closed-Won',
    });
    // Not vouched for by the product's names alone, and never kept on the project for other referrers.
    expect(await routed.check()).toEqual({ referralProgram: REFERRAL_MESSAGES.noProgram });
    // A workspace without bounties has none to tell of.
    await saveVendor(ctx, { name: 'Bare Labs', domain: 'bare-labs.example' });
    const bare = await referral('Bare Board', 'Bare Labs', { website: 'https://bare-labs.example', user: routed.user });
    expect(bare.lead).not.toBeNull();
    expect((await bare.program(`?referralId=${bare.id}`)).json()).toEqual({
      referralProgram: REFERRAL_MESSAGES.noProgram,
    });
  });

  it('finds a verified workspace by company when no program names it; an unverified one is no link', async () => {
    await saveVendor(ctx, { name: 'Vandelay Industries', domain: 'vandelay.example' });
    await saveVendor(ctx, { name: 'Kramerica', domain: 'kramerica.example', verified: false });
    const vandelay = await referral('Latex Tracker', 'Vandelay Industries');
    await vandelay.check();
    expect(ai.calls.find((c) => c.productName === 'Latex Tracker')?.question).toMatchObject({
      vendorWebsite: 'https://vandelay.example',
      programWebsite: null,
    });
    expect(await vandelay.automate()).toMatchObject({ website: 'https://vandelay.example' });

    const kramerica = await referral('Oil Bladder', 'Kramerica');
    await kramerica.check();
    expect(ai.calls.find((c) => c.productName === 'Oil Bladder')?.question).toMatchObject({
      vendorWebsite: null,
      programWebsite: null,
    });
    expect(await kramerica.automate()).toMatchObject({ success: true, website: null });
  });
});
