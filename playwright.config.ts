import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  throw new Error(`Chromium not found at ${chromium}: install it (apt-get install chromium) or set CHROMIUM_PATH. Browser tests cannot run without it.`);
}

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  // The app exactly as `npm start` runs it with nothing configured: embedded PostgreSQL (in a fresh
  // temp dir), in-process events, the built-in mail catcher whose inbox the tests read.
  webServer: {
    command: 'node scripts/start.ts',
    url: `${baseURL}/readyz`,
    timeout: 90_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { PORT: String(port), PUBLIC_URL: baseURL, DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-data-')), LOG_LEVEL: 'warn', DATABASE_URL: '', NATS_URL: '', SMTP_URL: '' },
  },
});
