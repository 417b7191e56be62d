import { createHmac, timingSafeEqual } from 'node:crypto';
import { ENRICHMENT_SIGNATURE_HEADER, ENRICHMENT_TIMESTAMP_HEADER } from '@app/contracts';

export const SIGNATURE_HEADER = ENRICHMENT_SIGNATURE_HEADER;
export const TIMESTAMP_HEADER = ENRICHMENT_TIMESTAMP_HEADER;

const hmac = (secret: string, timestamp: string, body: string | Buffer) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

/**
 * The two headers both directions carry: the time of signing (Unix seconds) and
 * `sha256=<hex HMAC-SHA256 of "<timestamp>.<exact body bytes>">`, so a signature is only good with its time.
 */
export function signBody(
  secret: string,
  body: string | Buffer,
  timestamp = Math.floor(Date.now() / 1000),
): Record<string, string> {
  return {
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: `sha256=${hmac(secret, String(timestamp), body).toString('hex')}`,
  };
}

/** A signature that verified: its time and its value (the replay key). */
export interface VerifiedSignature {
  timestamp: number;
  signature: string;
}

/** The signature when the headers sign these exact bytes at that time (compared in constant time), else null. */
export function verifySignature(
  secret: string,
  body: Buffer,
  headers: { signature: string | string[] | undefined; timestamp: string | string[] | undefined },
): VerifiedSignature | null {
  const { signature, timestamp } = headers;
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return null;
  if (!/^\d{1,12}$/.test(timestamp.trim())) return null;
  const given = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim())?.[1]?.toLowerCase();
  if (!given) return null;
  if (!timingSafeEqual(Buffer.from(given, 'hex'), hmac(secret, timestamp.trim(), body))) return null;
  return { timestamp: Number(timestamp.trim()), signature: given };
}
