import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { checkWebhookUrl, type ResolvedAddress, type Resolver } from './webhook-address.ts';

/** Standard Webhooks (https://www.standardwebhooks.com): the secret, the signature, one attempt. */

const SECRET_PREFIX = 'whsec_';

/** A fresh signing secret: "whsec_" + base64 of 24 random bytes. */
export const newWebhookSecret = () => SECRET_PREFIX + randomBytes(24).toString('base64');

/** The last characters of a secret, to tell endpoints apart without showing it. */
export const secretHint = (secret: string) => secret.slice(-4);

/** "v1,<base64 HMAC-SHA256(key = the secret's bytes after whsec_, `${id}.${timestamp}.${body}`)>" */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  /** The first 1 KB of the answer. */
  body: string | null;
  error: string | null;
  /** The worker is stopping: the attempt does not count. */
  aborted?: boolean;
}

export interface SenderOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Extra CA certificates (PEM), e.g. a test server's self-signed one. */
  caFile?: string | undefined;
  resolve?: Resolver;
}

const RESPONSE_KEEP = 1024;

/**
 * Sends one signed attempt: the host is resolved and checked again now, and the connection goes to the
 * address checked (a custom `lookup`), never to a second DNS answer. TLS is verified against the URL's host
 * name. Redirects are not followed. Any 2xx is a success.
 */
export function webhookSender(options: SenderOptions) {
  const ca = options.caFile ? [...rootCertificates, readFileSync(options.caFile, 'utf8')] : undefined;
  const agent = new https.Agent({ keepAlive: false, ...(ca ? { ca } : {}) });

  return async function attempt(
    delivery: { url: string; secret: string; eventId: string; body: string },
    signal: AbortSignal,
  ): Promise<AttemptResult> {
    const stopped: AttemptResult = { ok: false, status: null, body: null, error: 'Stopped', aborted: true };
    if (signal.aborted) return stopped;
    const check = await checkWebhookUrl(delivery.url, {
      allowPrivate: options.allowPrivate,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    if (!check.ok)
      return {
        ok: false,
        status: null,
        body: null,
        error: check.reason === 'private' ? `Refused: ${check.detail}` : check.detail,
      };
    if (signal.aborted) return stopped;
    const pinned = check.addresses[0]!;
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'ReferralHub-Webhooks/1.0',
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(delivery.secret, delivery.eventId, timestamp, delivery.body),
    };
    return post(delivery.url, headers, delivery.body, pinned, agent, options.timeoutMs, signal);
  };
}

export type WebhookAttempt = ReturnType<typeof webhookSender>;

/** A lookup that answers the one address already checked, whatever is asked. */
const pinnedLookup =
  (pinned: ResolvedAddress): LookupFunction =>
  (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };

function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  pinned: ResolvedAddress,
  agent: https.Agent,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const request = https.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent,
      lookup: pinnedLookup(pinned),
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, status: null, body: null, error: `No answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    const onAbort = () => {
      request.destroy();
      finish({ ok: false, status: null, body: null, error: 'Stopped', aborted: true });
    };
    signal.addEventListener('abort', onAbort);
    request.on('error', (error) =>
      finish({ ok: false, status: null, body: null, error: error.message || 'Connection failed' }),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () => {
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_KEEP).toString('utf8');
        finish({
          ok: status >= 200 && status < 300,
          status,
          body: text,
          error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
        });
      };
      response.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_KEEP) {
          chunks.push(chunk);
          kept += chunk.length;
        }
        if (kept >= RESPONSE_KEEP) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
