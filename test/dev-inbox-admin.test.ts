/**
 * Issue 11, item 7: the development inbox (`npm start` without SMTP_URL) shows every email to whoever
 * reaches it, so whoever registers an ADMIN_EMAILS address first could verify it there and become
 * administrator. The app as `npm start` runs it (a child process, a fresh database): the administrator's
 * verification email never reaches the inbox, its link is printed once on the terminal, and only that link
 * makes the account an administrator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './processes.ts';

const ADMIN = 'root@admin.example';
let app: RunningApp | undefined;
let baseUrl: string;

beforeAll(async () => {
  app = await startApp('dev-inbox-admin', {
    LOG_LEVEL: 'info',
    ADMIN_EMAILS: ` ${ADMIN.toUpperCase()} ,other-admin@admin.example`,
    RATE_LIMIT_AUTH_MAX: '1000',
  });
  baseUrl = app.url;
}, 90_000);

afterAll(async () => {
  await app?.stop();
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
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${app!.output()}`);
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
        new RegExp(`Administrator sign-up for ${ADMIN}: open (\\S+) \\(not shown in the dev inbox\\)`).exec(
          app!.stdout(),
        ) ?? undefined,
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
    expect(app!.output().split(token).length - 1).toBe(1);

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
