/**
 * Issue 11, item 7: the development inbox (`npm start` without SMTP_URL) shows every email to whoever
 * reaches it, so whoever registers an ADMIN_EMAILS address first could verify it there and become
 * administrator. The app as `npm start` runs it (a child process, a fresh database): the administrator's
 * verification email never reaches the inbox, its link is printed once on the terminal, and only that link
 * makes the account an administrator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@app/kit';
import { freshDatabase } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const ADMIN = 'root@admin.example';
let app: ChildProcess | undefined;
let stdout = '';
let output = '';
let baseUrl: string;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let dataDir: string;

beforeAll(async () => {
  db = await freshDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'dev-inbox-admin-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['NATS_URL', 'SMTP_URL', 'S3_ENDPOINT', 'OPENAI_API_KEY', 'ENRICHMENT_WEBHOOK_URL'])
    delete env[name];
  app = spawn(`${root}node_modules/.bin/node`, [`${root}scripts/start.ts`], {
    env: {
      ...env,
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ADMIN_EMAILS: ` ${ADMIN.toUpperCase()} ,other-admin@admin.example`,
      RATE_LIMIT_AUTH_MAX: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  app.stdout!.on('data', (chunk) => {
    stdout += chunk;
    output += chunk;
  });
  app.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (app.exitCode !== null) throw new Error(`the app exited with ${app.exitCode}:\n${output}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the app did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 90_000);

afterAll(async () => {
  if (app && app.exitCode === null) {
    const exited = new Promise((resolve) => app!.once('exit', resolve));
    app.kill('SIGTERM');
    await exited;
  }
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const register = (email: string) =>
  fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: 'Eve', lastName: 'Attacker', companyName: 'E', email, password: 'pw pw pw' }),
  });

async function until<T>(check: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const inbox = async () =>
  (await (await fetch(`${baseUrl}/dev/inbox/messages`)).json()) as Array<{ to: string[]; text: string }>;

describe('npm start without SMTP_URL: administrators and the dev inbox', () => {
  it("keeps an administrator's link out of the inbox and prints it once on the terminal", async () => {
    // An attacker registers the administrator's address first; someone else registers an ordinary one.
    expect((await register(ADMIN)).status).toBe(201);
    expect((await register('someone@example.com')).status).toBe(201);
    await until(
      async () => ((await inbox()).some((m) => m.to.includes('someone@example.com')) ? true : undefined),
      "the ordinary user's email in the inbox",
    );
    const line = await until(
      () =>
        new RegExp(`Administrator sign-up for ${ADMIN}: open (\\S+) \\(not shown in the dev inbox\\)`).exec(stdout) ??
        undefined,
      'the printed administrator link',
    );
    const link = new URL(line[1]!);
    const token = link.searchParams.get('token')!;
    expect(link.pathname).toBe('/verify-email');

    // The inbox (page and JSON) never shows the administrator's email or its token.
    const messages = await inbox();
    expect(messages.some((m) => m.to.includes(ADMIN))).toBe(false);
    const page = await (await fetch(`${baseUrl}/dev/inbox`)).text();
    expect(page).toContain('someone@example.com');
    expect(page).not.toContain(ADMIN);
    expect(page).not.toContain(token);
    // Printed once, and nowhere else in the output (no second log line with the link).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(output.split(token).length - 1).toBe(1);

    // Without the link the account is not an administrator (it cannot even sign in); with it, it is.
    const login = await fetch(`${baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN, password: 'pw pw pw' }),
    });
    expect(login.status).toBe(403);
    const verified = await fetch(`${baseUrl}/api/verify-email${link.search}`, {
      headers: { accept: 'application/json' },
    });
    expect(verified.status).toBe(200);
    const cookie = verified.headers
      .getSetCookie()
      .find((c) => c.startsWith('sid='))!
      .split(';')[0]!;
    const user = await (await fetch(`${baseUrl}/api/user`, { headers: { cookie } })).json();
    expect(user).toMatchObject({ email: ADMIN, isAdmin: true, emailVerified: true });
  });
});
