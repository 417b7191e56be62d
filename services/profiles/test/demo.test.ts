import type { EventEnvelope } from '@app/contracts';
import { eventually } from '@app/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startProfiles, type TestContext } from './helpers.ts';

let ctx: TestContext;
const submitted: EventEnvelope[] = [];
const app = () => ctx.service.app;
const json = { 'content-type': 'application/json' };

const valid = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'Grace@Navy.example',
  phone: '+1 555 0100',
  website: 'navy.example',
  referralSource: 'Industry Event',
};

const submit = (payload: unknown, headers: Record<string, string> = json) =>
  app().inject({
    method: 'POST',
    url: '/api/demo-request',
    headers,
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

async function stored() {
  const requests = (await ctx.sql.query('SELECT * FROM profiles.demo_requests ORDER BY created_at')).rows;
  const outbox = (
    await ctx.sql.query("SELECT payload FROM profiles.outbox_events WHERE name = 'demo_request.submitted'")
  ).rows;
  return { requests, outbox };
}

beforeAll(async () => {
  ctx = await startProfiles();
  await ctx.bus.subscribe({
    event: 'demo_request.submitted',
    subscriber: 'test-demo',
    handle: async (event) => void submitted.push(event),
  });
});
afterAll(async () => ctx?.close());
beforeEach(async () => {
  submitted.length = 0;
  await ctx.sql.query('TRUNCATE profiles.demo_requests');
  await ctx.sql.query("DELETE FROM profiles.outbox_events WHERE name = 'demo_request.submitted'");
});

describe('POST /api/demo-request', () => {
  it('stores the request without a user and announces it in the same transaction', async () => {
    const response = await submit(valid);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: 'Demo request received' });
    const { requests, outbox } = await stored();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@navy.example',
      phone: '+1 555 0100',
      website: 'navy.example',
      referral_source: 'Industry Event',
    });
    const expected = {
      requestId: requests[0].id,
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.example',
      phone: '+1 555 0100',
      website: 'navy.example',
      referralSource: 'Industry Event',
    };
    expect(outbox).toEqual([{ payload: expected }]);
    const event = await eventually(() => submitted[0], 5000, 'demo_request.submitted');
    expect(event.payload).toEqual(expected);
    expect(event.requestId).toBeTruthy();
  });

  it('takes the referral source as optional (null when not given) and trims the fields', async () => {
    const { referralSource: _omitted, ...rest } = valid;
    const response = await submit({ ...rest, firstName: '  Ada  ' });
    expect(response.statusCode).toBe(201);
    const { requests } = await stored();
    expect(requests[0]).toMatchObject({ first_name: 'Ada', referral_source: null });
    const event = await eventually(() => submitted[0], 5000, 'demo_request.submitted');
    expect(event.payload).toMatchObject({ referralSource: null });
  });

  it.each([
    ['a blank first name', { firstName: '  ' }, 'First name is required'],
    ['a missing first name', { firstName: undefined }, 'First name is required'],
    ['a blank last name', { lastName: '' }, 'Last name is required'],
    ['an invalid email', { email: 'not-an-email' }, 'Invalid email address'],
    ['a missing email', { email: undefined }, 'Invalid email address'],
    ['a phone under 6 characters', { phone: '12345' }, 'Phone number is required'],
    ['a missing phone', { phone: undefined }, 'Phone number is required'],
    ['a blank website', { website: ' ' }, 'Company website is required'],
    ['an unknown referral source', { referralSource: 'Carrier pigeon' }, 'Unknown referral source'],
    ['an unknown field', { plan: 'Scale' }, 'Unrecognized key: "plan"'],
    ['an overlong name', { lastName: 'x'.repeat(101) }, 'Must be at most 100 characters'],
  ])('refuses %s with a 400 and stores nothing', async (_case, override, message) => {
    const response = await submit({ ...valid, ...override });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, code: 'VALIDATION_FAILED' });
    expect(await stored()).toEqual({ requests: [], outbox: [] });
  });

  it('refuses malformed JSON, a non-JSON body and an oversized body, storing nothing', async () => {
    expect((await submit('{"firstName":')).statusCode).toBe(400);
    expect((await submit('hello', { 'content-type': 'text/plain' })).statusCode).toBe(415);
    expect((await submit({ ...valid, website: 'x'.repeat(1024 * 1024 + 10) })).statusCode).toBe(413);
    expect(await stored()).toEqual({ requests: [], outbox: [] });
    expect(submitted).toEqual([]);
  });
});
