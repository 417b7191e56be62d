/**
 * `npm start` on another port (`PORT=3300`, 3000 being taken) without PUBLIC_URL: the public address follows
 * the port. Before, it stayed http://localhost:3000, so the browser's sign-up on the real port was refused as
 * cross-site (403), the verification link pointed at port 3000 and the terminal named the wrong address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './processes.ts';

let app: RunningApp | undefined;
let port: string;

beforeAll(async () => {
  // An empty variable counts as unset (the helper sets PUBLIC_URL otherwise).
  app = await startApp('public-url', { PUBLIC_URL: '', LOG_LEVEL: 'info' });
  port = new URL(app.url).port;
}, 90_000);

afterAll(async () => {
  await app?.stop();
});

describe('npm start without PUBLIC_URL', () => {
  it('is reached at http://localhost:$PORT: origin, email links and the terminal', async () => {
    const origin = `http://localhost:${port}`;
    // The log line (JSON here: not a terminal) names the address, the whole of it.
    expect(app!.stdout()).toContain(`App ready: ${origin}"`);

    // What a browser on the printed address sends: the page's own origin.
    const register = await fetch(`${app!.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({
        firstName: 'Pat',
        lastName: 'Port',
        companyName: 'P',
        email: 'pat@example.com',
        password: 'pw pw pw',
      }),
    });
    expect(register.status).toBe(201);
    // Another origin is still refused.
    const foreign = await fetch(`${app!.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({
        firstName: 'E',
        lastName: 'E',
        companyName: 'E',
        email: 'e@example.com',
        password: 'pw pw pw',
      }),
    });
    expect(foreign.status).toBe(403);

    const deadline = Date.now() + 20_000;
    let text: string | undefined;
    while (!text && Date.now() < deadline) {
      const messages = (await (await fetch(`${app!.url}/dev/inbox/messages`)).json()) as Array<{
        to: string[];
        text: string;
      }>;
      text = messages.find((message) => message.to.includes('pat@example.com'))?.text;
      if (!text) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(text, 'the verification email in the dev inbox').toBeDefined();
    expect(text).toMatch(new RegExp(`${origin}/verify-email\\?token=`));
  });
});
