/**
 * The pieces of HTTP/1.1's syntax the gateway's hand-written reader and writers share: the clients' side
 * (front.ts), the services' side (upstream.ts) and the fast path (fast-path.ts).
 */

/** A header name: a token (RFC 9110 5.6.2). */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A character Node's HTTP server refuses in a header value, and never writes in one (CR, LF, NUL...). */
export const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** The header names a Connection header lists (RFC 9110 7.6.1), in lower case: hop-by-hop, never forwarded. */
export function connectionHeaders(value: string): string[] {
  return value
    .toLowerCase()
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Whether a Connection header asks to close the connection after this message (`close` among its names). */
export const asksToClose = (value: string | undefined) =>
  value !== undefined && connectionHeaders(value).includes('close');
