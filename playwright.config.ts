import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  throw new Error(
    `Chromium not found at ${chromium}: install it (apt-get install chromium) or set CHROMIUM_PATH. Browser tests cannot run without it.`,
  );
}

/**
 * Five loopback ports the system has free: the app, the test SMTP server (SMTP and its JSON reader) and the
 * test webhook receiver (HTTPS and its JSON reader).
 * The config is read synchronously, so a child process asks for them (port 0, closed again at once). They
 * go into the environment: the workers, which read this file again, and e2e/support.ts get the same ones.
 * Ports set beforehand are kept.
 */
function freePorts(count: number): number[] {
  const script = `
    const { createServer } = require('node:net');
    const servers = Array.from({ length: ${count} }, () => createServer());
    Promise.all(servers.map((s) => new Promise((ok) => s.listen(0, '127.0.0.1', ok)))).then(() => {
      process.stdout.write(JSON.stringify(servers.map((s) => s.address().port)));
      for (const s of servers) s.close();
    });`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as number[];
}

const portsNeeded = ['E2E_PORT', 'E2E_SMTP_PORT', 'E2E_SMTP_HTTP_PORT', 'E2E_WEBHOOK_PORT', 'E2E_WEBHOOK_READER_PORT'];
if (portsNeeded.some((name) => !process.env[name])) {
  const [app, smtp, smtpHttp, webhook, webhookReader] = freePorts(5);
  process.env.E2E_PORT ??= String(app);
  process.env.E2E_SMTP_PORT ??= String(smtp);
  process.env.E2E_SMTP_HTTP_PORT ??= String(smtpHttp);
  process.env.E2E_WEBHOOK_PORT ??= String(webhook);
  process.env.E2E_WEBHOOK_READER_PORT ??= String(webhookReader);
}

/**
 * The vendor's CRM (e2e/webhook-receiver.ts) serves HTTPS with a self-signed certificate for 127.0.0.1,
 * made here once with openssl; the app trusts it through WEBHOOK_CA_FILE, as an operator would add a CA.
 */
if (!process.env.E2E_WEBHOOK_DIR) {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-webhooks-'));
  // prettier-ignore
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  process.env.E2E_WEBHOOK_DIR = dir;
}
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
const smtpPort = Number(process.env.E2E_SMTP_PORT);
const smtpHttpPort = Number(process.env.E2E_SMTP_HTTP_PORT);
const webhookDir = process.env.E2E_WEBHOOK_DIR;

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two spec files at a time against the one app: every test signs up its own users.
  workers: 2,
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: [
    // The SMTP server the tests run and read.
    {
      command: 'node e2e/smtp-server.ts',
      url: `http://127.0.0.1:${smtpHttpPort}/healthz`,
      reuseExistingServer: false,
      env: { E2E_SMTP_PORT: String(smtpPort), E2E_SMTP_HTTP_PORT: String(smtpHttpPort) },
    },
    // The vendor's CRM receiving webhooks over HTTPS.
    {
      command: 'node e2e/webhook-receiver.ts',
      url: `http://127.0.0.1:${process.env.E2E_WEBHOOK_READER_PORT}/healthz`,
      reuseExistingServer: false,
      env: {
        E2E_WEBHOOK_PORT: String(process.env.E2E_WEBHOOK_PORT),
        E2E_WEBHOOK_READER_PORT: String(process.env.E2E_WEBHOOK_READER_PORT),
        E2E_WEBHOOK_DIR: String(webhookDir),
      },
    },
    // The app as `npm start` runs it with nothing else configured: embedded PostgreSQL (in a fresh temp
    // dir), in-process events, no AI key (local catalogue and templates); mail goes to the server above.
    {
      command: 'node scripts/start.ts',
      url: `${baseURL}/readyz`,
      timeout: 90_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        PUBLIC_URL: baseURL,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-data-')),
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        NATS_URL: '',
        OPENAI_API_KEY: '',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        // One administrator per spec file: files run side by side against the one app.
        ADMIN_EMAILS:
          'admin@e2e.test,admin-workspaces@e2e.test,admin-money@e2e.test,admin-phone@e2e.test,admin-revoke@e2e.test',
        S3_ENDPOINT: '',
        // Every browser signs up from 127.0.0.1, two spec files at a time: the per-address limit on sign-ups
        // and logins (10 a minute) is for people, and is tested in gateway/test.
        RATE_LIMIT_AUTH_MAX: '1000',
        // Webhooks go to the test's receiver on 127.0.0.1 (refused in production), over HTTPS with its own CA,
        // and a failed delivery is retried after 1 s instead of 5 s.
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_CA_FILE: join(String(webhookDir), 'cert.pem'),
        WEBHOOK_RETRY_DELAYS_MS: '1000,2000,4000',
      },
    },
  ],
});
