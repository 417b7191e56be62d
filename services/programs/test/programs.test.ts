import { randomUUID } from 'node:crypto';
import { ERRORS, type Program } from '@app/contracts';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programInput, snapshot, startPrograms, testUser, type TestContext } from './helpers.ts';

let ctx: TestContext;
const admin = testUser(true);
const user = testUser(false);

beforeAll(async () => {
  ctx = await startPrograms();
});
afterAll(async () => ctx?.close());

const create = (body: unknown, headers = admin.headers) =>
  ctx.service.app.inject({ method: 'POST', url: '/api/programs', headers, payload: body as object });
const patch = (id: string, body: unknown, headers = admin.headers) =>
  ctx.service.app.inject({ method: 'PATCH', url: `/api/programs/${id}`, headers, payload: body as object });
const list = (headers: Record<string, string>) =>
  ctx.service.app.inject({ method: 'GET', url: '/api/programs/all', headers });

describe('programs', () => {
  it('requires a signed-in user on every route', async () => {
    const before = await snapshot(ctx.sql);
    for (const [method, url] of [
      ['GET', '/api/programs/all'],
      ['POST', '/api/programs'],
      ['PATCH', `/api/programs/${randomUUID()}`],
      ['POST', '/api/analyze-referral-program'],
    ] as const) {
      const response = await ctx.service.app.inject({
        method,
        url,
        payload: method === 'GET' ? undefined : programInput(),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
    }
    // A forged identity is no identity.
    const forged = await list({ 'x-identity': 'forged.token' });
    expect(forged.statusCode).toBe(401);
    expect(await snapshot(ctx.sql)).toEqual(before);
  });

  it('lets administrators create programs, with program.saved in the outbox', async () => {
    const response = await create(programInput());
    expect(response.statusCode).toBe(201);
    const program = response.json<Program>();
    expect(program).toMatchObject({ ...programInput(), vendorId: null, vendorName: null, isActive: true });
    expect(program.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(program.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const event = await eventually(
      () =>
        ctx.published.find(
          (e) => e.name === 'program.saved' && (e.payload as { programId: string }).programId === program.id,
        ),
      5000,
      'program.saved',
    );
    expect(event?.payload).toEqual({
      programId: program.id,
      name: program.name,
      description: program.description,
      website: program.website,
      rewardDetails: program.rewardDetails,
      vendorId: null,
      companyName: null,
      isActive: true,
    });
    const { rows } = await ctx.sql.query(
      "SELECT created_by, published_at FROM programs.programs p JOIN programs.outbox_events o ON o.payload->>'programId' = p.id::text WHERE p.id = $1",
      [program.id],
    );
    expect(rows[0].created_by).toBe(admin.userId);
    expect(rows[0].published_at).not.toBeNull();
    expect(rows).toHaveLength(1);
  });

  it('refuses users without a vendor workspace with 403 and changes nothing', async () => {
    const before = await snapshot(ctx.sql);
    const created = await create(programInput(), user.headers);
    expect(created.statusCode).toBe(403);
    expect(created.json()).toEqual({ message: ERRORS.ADMIN_ONLY.message, code: 'ADMIN_ONLY' });
    const existing = (await list(admin.headers)).json<Program[]>()[0]!;
    const changed = await patch(existing.id, { isActive: false }, user.headers);
    expect(changed.statusCode).toBe(403);
    expect(changed.json()).toEqual({ message: ERRORS.ADMIN_ONLY.message, code: 'ADMIN_ONLY' });
    expect(await snapshot(ctx.sql)).toEqual(before);
  });

  it.each([
    [{ name: '' }, 'Program name is required'],
    [{ name: '   ' }, 'Program name is required'],
    [{ name: undefined }, 'Program name is required'],
    [{ description: '' }, 'Description is required'],
    [{ website: 'not a url' }, 'Must be a valid URL'],
    [{ website: 'javascript:alert(1)' }, 'Must be a valid URL'],
    [{ website: 'ftp://acme.example.com' }, 'Must be a valid URL'],
    [{ rewardDetails: '' }, 'Reward details are required'],
    [{ name: 'x'.repeat(201) }, 'Must be at most 200 characters'],
    [{ rewardDetails: 'x'.repeat(20_001) }, 'Must be at most 20000 characters'],
    [{ isActive: 'yes' }, undefined],
    [{ vendorId: 42 }, undefined],
    [{ vendorId: 'x'.repeat(65) }, undefined],
    [{ unknown: 1 }, undefined],
  ])('refuses invalid input %j with 400 and changes nothing', async (override, message) => {
    const before = await snapshot(ctx.sql);
    const response = await create(programInput(override));
    expect(response.statusCode).toBe(400);
    if (message)
      expect(response.json()).toEqual({ message, code: 'VALIDATION_FAILED', field: Object.keys(override)[0] });
    else expect(response.json()).toMatchObject({ message: expect.any(String), code: 'VALIDATION_FAILED' });
    expect(await snapshot(ctx.sql)).toEqual(before);
  });

  it('refuses malformed JSON and a body that is not JSON', async () => {
    const before = await snapshot(ctx.sql);
    const malformed = await ctx.service.app.inject({
      method: 'POST',
      url: '/api/programs',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'Malformed JSON body', code: 'MALFORMED_BODY' });
    const text = await ctx.service.app.inject({
      method: 'POST',
      url: '/api/programs',
      headers: { ...admin.headers, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const array = await create([programInput()]);
    expect(array.statusCode).toBe(400);
    expect(await snapshot(ctx.sql)).toEqual(before);
  });

  it('toggles isActive, hides inactive programs from other users and publishes each change', async () => {
    const program = (await create(programInput({ name: 'Toggle Program' }))).json<Program>();
    const events = () => ctx.published.filter((e) => (e.payload as { programId: string }).programId === program.id);
    await eventually(() => events().length === 1, 5000, 'first event');

    const off = await patch(program.id, { isActive: false });
    expect(off.statusCode).toBe(200);
    expect(off.json<Program>()).toMatchObject({ id: program.id, isActive: false, name: 'Toggle Program' });
    expect(new Date(off.json<Program>().updatedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(program.updatedAt).getTime(),
    );
    await eventually(() => events().length === 2, 5000, 'second event');
    expect(events().at(-1)?.payload).toMatchObject({ programId: program.id, isActive: false });

    expect((await list(admin.headers)).json<Program[]>().map((p) => p.id)).toContain(program.id);
    const seen = await list(user.headers);
    expect(seen.statusCode).toBe(200);
    expect(seen.json<Program[]>().map((p) => p.id)).not.toContain(program.id);
    expect(seen.json<Program[]>().every((p) => p.isActive)).toBe(true);

    const on = await patch(program.id, { isActive: true });
    expect(on.json<Program>().isActive).toBe(true);
    expect((await list(user.headers)).json<Program[]>().map((p) => p.id)).toContain(program.id);
    await eventually(() => events().length === 3, 5000, 'third event');
    expect(events().at(-1)?.payload).toMatchObject({ programId: program.id, isActive: true });

    const renamed = await patch(program.id, { name: '  Renamed  ', rewardDetails: 'Now 25%.' });
    expect(renamed.json<Program>()).toMatchObject({
      name: 'Renamed',
      rewardDetails: 'Now 25%.',
      website: program.website,
      isActive: true,
    });

    // A change that does not mention isActive leaves an inactive program inactive.
    await patch(program.id, { isActive: false });
    const edited = await patch(program.id, { description: 'Still off' });
    expect(edited.json<Program>()).toMatchObject({ description: 'Still off', isActive: false });
  });

  it('answers 404 for an unknown program, 400 for a bad id or body, and changes nothing', async () => {
    const program = (await create(programInput({ name: 'Stable' }))).json<Program>();
    const before = await snapshot(ctx.sql);
    const missing = await patch(randomUUID(), { isActive: false });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Program not found', code: 'PROGRAM_NOT_FOUND' });
    const badId = await patch('not-a-uuid', { isActive: false });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toEqual({ message: 'Invalid program id', code: 'VALIDATION_FAILED', field: 'id' });
    for (const body of [
      {},
      { isActive: 'no' },
      { vendorId: 7 },
      { website: 'nope' },
      { name: '' },
      { unknown: true },
      { description: 'x'.repeat(5001) },
    ]) {
      const response = await patch(program.id, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 50)).toBe(400);
    }
    expect((await patch(program.id, {})).json()).toEqual({ message: 'Nothing to update', code: 'NOTHING_TO_UPDATE' });
    expect((await patch(program.id, { website: 'nope' })).json()).toEqual({
      message: 'Must be a valid URL',
      code: 'VALIDATION_FAILED',
      field: 'website',
    });
    expect(await snapshot(ctx.sql)).toEqual(before);
  });
});
