/**
 * The SMTP server the browser tests run: the app sends its mail here (SMTP_URL), and the tests read what
 * arrived from a small JSON endpoint. Started by Playwright as a second webServer.
 */
import { createServer } from 'node:http';
import { startMailCatcher } from '@app/testing';

// Ports chosen by playwright.config.ts (free ones).
const smtpPort = Number(process.env.E2E_SMTP_PORT);
const httpPort = Number(process.env.E2E_SMTP_HTTP_PORT);
if (!smtpPort || !httpPort)
  throw new Error('E2E_SMTP_PORT and E2E_SMTP_HTTP_PORT must be set (playwright.config.ts does)');

const catcher = await startMailCatcher({ port: smtpPort });
const server = createServer((request, response) => {
  if (request.url === '/healthz' || request.url === '/messages') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(request.url === '/messages' ? catcher.messages : { status: 'ok' }));
    return;
  }
  response.writeHead(404).end();
});
server.listen(httpPort, '127.0.0.1');
const stop = () => server.close(() => void catcher.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
