import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * The signed-in user as the gateway vouches for it. The gateway resolves the session cookie, then sends
 * this in the `x-identity` header, signed with a key derived from INTERNAL_SECRET; services verify the
 * signature and expiry, so a request that reaches a service directly cannot pose as a user.
 */
export interface Identity {
  userId: string;
  sessionId: string;
  email: string;
  isAdmin: boolean;
  emailVerified: boolean;
}

export const IDENTITY_HEADER = 'x-identity';
export const INTERNAL_AUTH_HEADER = 'x-internal-auth';

interface Claims extends Identity {
  exp: number;
}

function keyFor(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'referral-platform', purpose, 32));
}

/** Verified header values, reused while they are valid: the gateway sends the same value for a session. */
const VERIFIED_CACHE_SIZE = 10_000;

export function identitySigner(secret: string) {
  // A KeyObject is imported once; a raw Buffer key would be re-imported by every createHmac call.
  const key: KeyObject = createSecretKey(keyFor(secret, 'identity'));
  const mac = (data: string) => createHmac('sha256', key).update(data).digest('base64url');
  const verified = new Map<string, Claims>();

  return {
    /** A header value valid for `ttlSeconds`. */
    sign(identity: Identity, ttlSeconds: number, now = Date.now()): string {
      const claims: Claims = { ...identity, exp: Math.floor(now / 1000) + ttlSeconds };
      const data = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${data}.${mac(data)}`;
    },
    /** The identity, or null when the value is missing, forged, malformed or expired. */
    verify(value: string | undefined, now = Date.now()): Identity | null {
      if (!value) return null;
      const known = verified.get(value);
      if (known) return known.exp * 1000 >= now ? withoutExpiry(known) : null;
      const dot = value.indexOf('.');
      if (dot <= 0) return null;
      const data = value.slice(0, dot);
      const given = Buffer.from(value.slice(dot + 1), 'base64url');
      const expected = Buffer.from(mac(data), 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const claims = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as Claims;
        if (typeof claims.exp !== 'number' || claims.exp * 1000 < now) return null;
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
        verified.set(value, claims);
        return withoutExpiry(claims);
      } catch {
        return null;
      }
    },
  };
}

const withoutExpiry = ({ exp: _exp, ...identity }: Claims): Identity => identity;

export type IdentitySigner = ReturnType<typeof identitySigner>;

/** A static credential for service-to-service calls (`/internal/*` routes). */
export function internalAuthToken(secret: string): string {
  return keyFor(secret, 'internal-call').toString('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
