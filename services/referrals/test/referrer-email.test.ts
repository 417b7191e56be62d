import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, redeliver, startReferrals, testUser, type TestContext } from './helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startReferrals();
});
afterAll(async () => {
  await ctx?.close();
});

const emailOf = async (userId: string) =>
  (await ctx.sql.query('SELECT email FROM referrals.referrers WHERE user_id = $1', [userId])).rows[0]?.email;

describe('user.email_changed', () => {
  it("moves the referrer's copy to the new address, once, and never back", async () => {
    const user = testUser('mover');
    const profile = { userId: user.userId, firstName: 'Mo', lastName: 'Ver', companyName: 'Moves Ltd' };
    await deliver(ctx, 'user.registered', { ...profile, email: 'first@example.com' });
    const first = await deliver(ctx, 'user.email_changed', {
      userId: user.userId,
      oldEmail: 'first@example.com',
      newEmail: 'second@example.com',
      firstName: 'Mo',
    });
    expect(await emailOf(user.userId)).toBe('second@example.com');
    await deliver(ctx, 'user.email_changed', {
      userId: user.userId,
      oldEmail: 'second@example.com',
      newEmail: 'third@example.com',
      firstName: 'Mo',
    });
    expect(await emailOf(user.userId)).toBe('third@example.com');
    // The first change delivered again (a lost acknowledgement) leaves the newer address alone.
    await redeliver(ctx, first);
    expect(await emailOf(user.userId)).toBe('third@example.com');
  });

  it('ignores a user the service has no copy of', async () => {
    const user = testUser('stranger');
    await deliver(ctx, 'user.email_changed', {
      userId: user.userId,
      oldEmail: 'a@example.com',
      newEmail: 'b@example.com',
      firstName: 'S',
    });
    expect(await emailOf(user.userId)).toBeUndefined();
  });
});
