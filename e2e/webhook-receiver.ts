/**
 * A vendor's CRM as the browser tests see it: an HTTPS server (certificate made by playwright.config.ts,
 * trusted by the app through WEBHOOK_CA_FILE) that records every webhook delivery it receives, headers and
 * raw body, so the test can verify the signatures itself. `/ok/<name>` answers 200; `/flaky/<name>` answers
 * 500 to the first delivery of each webhook-id and 200 to the retry. The tests read what arrived from a
 * plain-HTTP JSON endpoint on the second port.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';

const httpsPort = Number(process.env.E2E_WEBHOOK_PORT);
const readerPort = Number(process.env.E2E_WEBHOOK_READER_PORT);
const dir = process.env.E2E_WEBHOOK_DIR;
if (!httpsPort || !readerPort || !dir)
  throw new Error(
    'E2E_WEBHOOK_PORT, E2E_WEBHOOK_READER_PORT and E2E_WEBHOOK_DIR must be set (playwright.config.ts does)',
  );

export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  answered: number;
  at: string;
}

const received: ReceivedDelivery[] = [];
const failedOnce = new Set<string>();

const hooks = createHttpsServer(
  { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
  (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = String(request.headers['webhook-id'] ?? '');
      const flaky = request.url?.startsWith('/flaky/') ?? false;
      const answered = flaky && !failedOnce.has(id) ? 500 : 200;
      if (answered === 500) failedOnce.add(id);
      received.push({
        path: request.url ?? '',
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        answered,
        at: new Date().toISOString(),
      });
      response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'thanks' : 'try again');
    });
  },
);
hooks.listen(httpsPort, '127.0.0.1');

const reader = createServer((request, response) => {
  if (request.url === '/healthz' || request.url === '/deliveries') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(request.url === '/deliveries' ? received : { status: 'ok' }));
    return;
  }
  response.writeHead(404).end();
});
reader.listen(readerPort, '127.0.0.1');

const stop = () => reader.close(() => hooks.close(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
