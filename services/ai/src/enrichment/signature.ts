import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-signature';

/** `sha256=<hex HMAC-SHA256 of the exact body bytes>`, the header value both directions carry. */
export const signBody = (secret: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Whether the header signs these exact bytes; compared in constant time. */
export function verifySignature(secret: string, body: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header.trim())?.[1];
  if (!given) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}
