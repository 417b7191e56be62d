import { randomUUID } from 'node:crypto';
import { ERRORS, type ErrorCode, type EventPayload, type Program } from '@app/contracts';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  programInput,
  snapshot,
  startPrograms,
  testUser,
  vendorSaved,
  type TestContext,
  type TestUser,
} from './helpers.ts';

/** Programs that belong to vendor workspaces: who may create, edit, link and see them. */

let ctx: TestContext;
const admin = testUser(true);
const ana = testUser(false, 'ana'); // owner of Acme (verified)
const ben = testUser(false, 'ben'); // member of Acme
const carl = testUser(false, 'carl'); // owner of Bravo (verified), not of Acme
const dora = testUser(false, 'dora'); // owner of an unverified claim
const eve = testUser(false, 'eve'); // member of Acme and of Bravo
const nobody = testUser(false, 'nobody'); // no workspace

const acme = randomUUID();
const bravo = randomUUID();
const claim = randomUUID();

const create = (body: unknown, who: TestUser) =>
  ctx.service.app.inject({ method: 'POST', url: '/api/programs', headers: who.headers, payload: body as object });
const patch = (id: string, body: unknown, who: TestUser) =>
  ctx.service.app.inject({
    method: 'PATCH',
    url: `/api/programs/${id}`,
    headers: who.headers,
    payload: body as object,
  });
const list = async (who: TestUser) => {
  const response = await ctx.service.app.inject({ method: 'GET', url: '/api/programs/all', headers: who.headers });
  expect(response.statusCode).toBe(200);
  return response.json<Program[]>();
};
const refusal = (code: ErrorCode) => ({ message: ERRORS[code].message, code });

/**
 * Waits for a `program.saved` of the program with these fields (events are delivered at least once, in no
 * promised order: the test looks for the one it expects rather than the last one).
 */
const savedWith = (programId: string, fields: Partial<EventPayload<'program.saved'>>) =>
  eventually(
    () =>
      ctx.published
        .map((e) => e.payload as EventPayload<'program.saved'>)
        .find(
          (payload) =>
            payload.programId === programId &&
            Object.entries(fields).every(([key, value]) => payload[key as keyof typeof payload] === value),
        ),
    5000,
    `program.saved with ${JSON.stringify(fields)}`,
  );

async function created(body: Record<string, unknown>, who: TestUser): Promise<Program> {
  const response = await create(programInput(body), who);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Program>();
}

beforeAll(async () => {
  ctx = await startPrograms();
  await deliver(
    ctx,
    vendorSaved({ vendorId: acme, name: 'Acme Analytics', members: [ana, ben, eve] }),
    vendorSaved({ vendorId: bravo, name: 'Bravo Vendor', domain: 'bravo.example.com', members: [carl, eve] }),
    vendorSaved({ vendorId: claim, name: 'Acme Analytics', verified: false, members: [dora] }),
  );
});
afterAll(async () => ctx?.close());

describe('programs of vendor workspaces', () => {
  it('lets administrators link a program to any vendor, relink and unlink it, each announced by vendor id', async () => {
    const program = await created({ name: 'Linked by admin' }, admin);
    const linked = await patch(program.id, { vendorId: acme }, admin);
    expect(linked.statusCode).toBe(200);
    expect(linked.json<Program>()).toMatchObject({ vendorId: acme, vendorName: 'Acme Analytics' });
    await savedWith(program.id, { vendorId: acme, companyName: 'Acme Analytics' });

    // An unverified claim too: administrators decide.
    const toClaim = await patch(program.id, { vendorId: claim }, admin);
    expect(toClaim.json<Program>()).toMatchObject({ vendorId: claim, vendorName: 'Acme Analytics' });

    const unlinked = await patch(program.id, { vendorId: null }, admin);
    expect(unlinked.json<Program>()).toMatchObject({ vendorId: null, vendorName: null });
    await savedWith(program.id, { name: 'Linked by admin', vendorId: null, companyName: null, isActive: true });
    await savedWith(program.id, { vendorId: claim });

    const withVendor = await created({ name: 'Created linked', vendorId: bravo }, admin);
    expect(withVendor).toMatchObject({ vendorId: bravo, vendorName: 'Bravo Vendor' });
  });

  it('refuses an unknown vendor with 404 and changes nothing', async () => {
    const program = await created({ name: 'Never linked' }, admin);
    const before = await snapshot(ctx.sql);
    const unknown = randomUUID();
    const createdFor = await create(programInput({ vendorId: unknown }), admin);
    expect(createdFor.statusCode).toBe(404);
    expect(createdFor.json()).toEqual(refusal('VENDOR_NOT_FOUND'));
    const linked = await patch(program.id, { vendorId: unknown }, admin);
    expect(linked.statusCode).toBe(404);
    expect(linked.json()).toEqual(refusal('VENDOR_NOT_FOUND'));
    const byMember = await create(programInput({ vendorId: unknown }), ana);
    expect(byMember.statusCode).toBe(404);
    expect(await snapshot(ctx.sql)).toEqual(before);
  });

  it('links to a workspace created a moment ago, once its vendor.saved arrives', async () => {
    const fresh = randomUUID();
    const pending = create(programInput({ name: 'Just created vendor', vendorId: fresh }), admin);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await ctx.bus.publish(vendorSaved({ vendorId: fresh, name: 'Fresh Co', members: [] }));
    const response = await pending;
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<Program>()).toMatchObject({ vendorId: fresh, vendorName: 'Fresh Co' });
  });

  it("lets members of a verified vendor create and edit every field of its programs, and nobody else's", async () => {
    const own = await created({ name: 'Acme Referral Program', vendorId: acme }, ana);
    expect(own).toMatchObject({ vendorId: acme, vendorName: 'Acme Analytics', isActive: true });
    // Their only workspace is the default.
    const implicit = await created({ name: 'Acme Second Program' }, ben);
    expect(implicit.vendorId).toBe(acme);

    const edits: Array<Record<string, unknown>> = [
      { name: 'Acme Partner Program' },
      { description: 'Dashboards for retail chains.' },
      { website: 'https://acme.example.com/referrals' },
      { rewardDetails: '25% of first-year ARR.' },
      { isActive: false },
      { isActive: true },
    ];
    let state: Partial<EventPayload<'program.saved'>> = { name: 'Acme Referral Program', isActive: true };
    for (const edit of edits) {
      const response = await patch(own.id, edit, ben);
      expect(response.statusCode, JSON.stringify(edit)).toBe(200);
      expect(response.json<Program>()).toMatchObject({ ...edit, vendorId: acme, vendorName: 'Acme Analytics' });
      state = { ...state, ...edit };
      await savedWith(own.id, state);
    }
    expect(await savedWith(own.id, state)).toEqual({
      programId: own.id,
      name: 'Acme Partner Program',
      description: 'Dashboards for retail chains.',
      website: 'https://acme.example.com/referrals',
      rewardDetails: '25% of first-year ARR.',
      vendorId: acme,
      companyName: 'Acme Analytics',
      isActive: true,
    });
    // Keeping the vendor it has is no change of vendor.
    expect((await patch(own.id, { vendorId: acme, name: 'Acme Partners' }, ana)).statusCode).toBe(200);
    // Moving it to another verified workspace of theirs (eve is in both).
    const moved = await patch(implicit.id, { vendorId: bravo, website: 'https://bravo.example.com/partners' }, eve);
    expect(moved.json<Program>()).toMatchObject({ vendorId: bravo, vendorName: 'Bravo Vendor' });
  });

  it("keeps a member's programs on their vendor's own domain (routing trusts a program's website)", async () => {
    const before = await snapshot(ctx.sql);
    for (const [send, who] of [
      [() => create(programInput({ vendorId: acme, website: 'https://hubspot.com' }), ana), 'create off domain'],
      [() => create(programInput({ vendorId: acme, website: 'https://acme.example.com.evil.io' }), ana), 'lookalike'],
    ] as const) {
      const response = await send();
      expect(response.statusCode, who).toBe(400);
      expect(response.json().code, who).toBe('PROGRAM_WEBSITE_OFF_DOMAIN');
    }
    expect(await snapshot(ctx.sql)).toEqual(before);
    const own = await created({ name: 'On Domain', vendorId: acme, website: 'https://partners.acme.example.com' }, ana);
    const before2 = await snapshot(ctx.sql);
    const moved = await patch(own.id, { website: 'https://hubspot.com/partners' }, ana);
    expect(moved.json().code).toBe('PROGRAM_WEBSITE_OFF_DOMAIN');
    expect(await snapshot(ctx.sql)).toEqual(before2);
    // Administrators link any program to any vendor.
    expect((await patch(own.id, { website: 'https://hubspot.com/partners' }, admin)).statusCode).toBe(200);
  });

  it('refuses a non-member, a member of an unverified claim and a member going beyond their vendor: 403, nothing changed', async () => {
    const acmeProgram = await created({ name: 'Acme Guarded Program', vendorId: acme }, admin);
    const unlinked = await created({ name: 'Nobody Program' }, admin);
    const claimed = await created({ name: 'Claimed Program', vendorId: claim }, admin);
    // The snapshot counts the outbox too: no program.saved either.
    const before = await snapshot(ctx.sql);

    const attempts: Array<[string, () => ReturnType<typeof create>, ErrorCode]> = [
      ['another vendor creates for Acme', () => create(programInput({ vendorId: acme }), carl), 'NOT_A_MEMBER'],
      ['another vendor edits Acme', () => patch(acmeProgram.id, { name: 'Hijacked' }, carl), 'NOT_A_MEMBER'],
      ['another vendor deactivates Acme', () => patch(acmeProgram.id, { isActive: false }, carl), 'NOT_A_MEMBER'],
      ['another vendor takes Acme over', () => patch(acmeProgram.id, { vendorId: bravo }, carl), 'NOT_A_MEMBER'],
      ['no workspace creates for Acme', () => create(programInput({ vendorId: acme }), nobody), 'NOT_A_MEMBER'],
      ['no workspace edits Acme', () => patch(acmeProgram.id, { name: 'Hijacked' }, nobody), 'NOT_A_MEMBER'],
      ['an unverified claim creates', () => create(programInput({ vendorId: claim }), dora), 'WORKSPACE_NOT_VERIFIED'],
      ['an unverified claim creates by default', () => create(programInput(), dora), 'WORKSPACE_NOT_VERIFIED'],
      ['an unverified claim edits', () => patch(claimed.id, { name: 'Mine now' }, dora), 'WORKSPACE_NOT_VERIFIED'],
      ['the claim edits the real Acme', () => patch(acmeProgram.id, { name: 'Mine now' }, dora), 'NOT_A_MEMBER'],
      [
        'a member moves it to a vendor of others',
        () => patch(acmeProgram.id, { vendorId: bravo }, ana),
        'NOT_A_MEMBER',
      ],
      [
        'a member moves it to an unverified claim',
        () => patch(acmeProgram.id, { vendorId: claim }, ana),
        'NOT_A_MEMBER',
      ],
      ['a member unlinks it', () => patch(acmeProgram.id, { vendorId: null }, ana), 'ADMIN_ONLY'],
      ['a member claims an unlinked program', () => patch(unlinked.id, { vendorId: acme }, ana), 'ADMIN_ONLY'],
      ['a member edits an unlinked program', () => patch(unlinked.id, { name: 'Ours' }, ana), 'ADMIN_ONLY'],
      ['a member of two names none', () => create(programInput(), eve), 'CHOOSE_WORKSPACE'],
    ];
    for (const [what, attempt, code] of attempts) {
      const response = await attempt();
      expect(response.statusCode, what).toBe(ERRORS[code].status);
      expect(response.json(), what).toEqual(refusal(code));
    }
    expect(await snapshot(ctx.sql)).toEqual(before);
  });

  it('shows members their vendor’s inactive programs, everyone else only active ones, with the vendor’s name', async () => {
    const draft = await created({ name: 'Acme Draft Program', vendorId: acme, isActive: false }, ana);
    const claimDraft = await created({ name: 'Claim Draft Program', vendorId: claim, isActive: false }, admin);
    const live = await created({ name: 'Acme Live Program', vendorId: acme }, ana);

    const ids = async (who: TestUser) => (await list(who)).map((p) => p.id);
    expect(await ids(ana)).toEqual(expect.arrayContaining([draft.id, live.id]));
    expect(await ids(ben)).toContain(draft.id);
    expect(await ids(carl)).not.toContain(draft.id);
    expect(await ids(nobody)).not.toContain(draft.id);
    // Members of an unverified claim see no drafts (not even those an administrator linked to it).
    expect(await ids(dora)).not.toContain(claimDraft.id);
    expect(await ids(admin)).toEqual(expect.arrayContaining([draft.id, claimDraft.id, live.id]));
    expect((await list(carl)).every((p) => p.isActive)).toBe(true);
    expect((await list(nobody)).find((p) => p.id === live.id)).toMatchObject({
      vendorId: acme,
      vendorName: 'Acme Analytics',
    });
  });

  it('follows the latest vendor.saved: a removed member, a lost verification, a rename; late versions change nothing', async () => {
    const vendor = randomUUID();
    const owner = testUser(false, 'owner');
    const leaver = testUser(false, 'leaver');
    await deliver(ctx, vendorSaved({ vendorId: vendor, version: 1, name: 'Delta', members: [owner, leaver] }));
    const program = await created({ name: 'Delta Program', vendorId: vendor }, leaver);

    await deliver(ctx, vendorSaved({ vendorId: vendor, version: 3, name: 'Delta Corp', members: [owner] }));
    // Version 2 arrives late: it still names the leaver, and must not bring them back.
    await deliver(ctx, vendorSaved({ vendorId: vendor, version: 2, name: 'Delta Old', members: [owner, leaver] }));
    const refused = await patch(program.id, { name: 'Still mine' }, leaver);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(refusal('NOT_A_MEMBER'));
    const renamed = await patch(program.id, { name: 'Delta Referral Program' }, owner);
    expect(renamed.json<Program>()).toMatchObject({ vendorName: 'Delta Corp' });

    await deliver(
      ctx,
      vendorSaved({ vendorId: vendor, version: 4, name: 'Delta Corp', verified: false, members: [owner] }),
    );
    const unverified = await patch(program.id, { isActive: false }, owner);
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json()).toEqual(refusal('WORKSPACE_NOT_VERIFIED'));

    const { rows } = await ctx.sql.query('SELECT version, name, verified FROM programs.vendors WHERE id = $1', [
      vendor,
    ]);
    expect(rows).toEqual([{ version: 4, name: 'Delta Corp', verified: false }]);
    const members = await ctx.sql.query('SELECT user_id FROM programs.vendor_members WHERE vendor_id = $1', [vendor]);
    expect(members.rows).toEqual([{ user_id: owner.userId }]);
  });
});
