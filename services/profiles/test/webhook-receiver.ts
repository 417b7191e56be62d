import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  /** https://localhost:<port> */
  origin: string;
  /** The PEM of its self-signed certificate (WEBHOOK_CA_FILE). */
  caFile: string;
  received: Received[];
  /** What a path answers: its status for the n-th request (0-based) to it; 200 when not set, 0 never answers. */
  respond(path: string, status: (n: number) => number): void;
  on(path: string): Received[];
  close(): Promise<void>;
}

/**
 * A real HTTPS server for deliveries, with a certificate for localhost, 127.0.0.1 and pinned.invalid (a name
 * no DNS answers) made now by the openssl CLI (self-signed: the service trusts it through WEBHOOK_CA_FILE
 * only).
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-receiver-'));
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,DNS:pinned.invalid,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const received: Received[] = [];
  const responders = new Map<string, (n: number) => number>();
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const n = received.filter((r) => r.path === path).length;
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = responders.get(path)?.(n) ?? 200;
      if (status === 0) return; // hangs until the client gives up or the server closes
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status < 300 ? `ok ${n}` : `no ${n} ${'x'.repeat(2000)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `https://localhost:${port}`,
    caFile: cert,
    received,
    respond: (path, status) => void responders.set(path, status),
    on: (path) => received.filter((r) => r.path === path),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
