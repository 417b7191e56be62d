import { describe, expect, it } from 'vitest';
import { identitySigner, sealer } from '../src/index.ts';

const secret = 'a-secret-for-tests-that-is-long-enough-0001';
const identity = { userId: 'u1', sessionId: 's1', email: 'a@b.co', isAdmin: false, emailVerified: true };

describe('identity header', () => {
  const signer = identitySigner(secret);

  it('round-trips a signed identity', () => {
    expect(signer.verify(signer.sign(identity, 60))).toEqual(identity);
  });

  it('rejects a tampered, forged, expired or malformed value', () => {
    const value = signer.sign(identity, 60);
    const [data, mac] = value.split('.');
    const elevated = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(data!, 'base64url').toString()), isAdmin: true }),
    ).toString('base64url');
    expect(signer.verify(`${elevated}.${mac}`)).toBeNull();
    expect(identitySigner('another-secret-that-is-long-enough-00002').verify(value)).toBeNull();
    expect(signer.verify(signer.sign(identity, 60, Date.now() - 120_000))).toBeNull();
    expect(signer.verify('garbage')).toBeNull();
    expect(signer.verify(undefined)).toBeNull();
  });
});

describe('sealer', () => {
  it('opens what it sealed and refuses anything altered', () => {
    const box = sealer(secret, 'purpose');
    const sealed = box.seal('token-123');
    expect(sealed).not.toContain('token-123');
    expect(box.open(sealed)).toBe('token-123');
    const altered = Buffer.from(sealed, 'base64url');
    altered[altered.length - 1]! ^= 1;
    expect(() => box.open(altered.toString('base64url'))).toThrow();
    expect(() => sealer(secret, 'other purpose').open(sealed)).toThrow();
  });
});

describe('identity verification cache', () => {
  it('still refuses a cached value once it has expired', () => {
    const signer = identitySigner(secret);
    const now = Date.now();
    const value = signer.sign(identity, 10, now);
    expect(signer.verify(value, now)).toEqual(identity);
    expect(signer.verify(value, now + 5_000)).toEqual(identity);
    expect(signer.verify(value, now + 11_000)).toBeNull();
  });
});
