/**
 * The session side of the bench: the real auth service on a throwaway PostgreSQL database, with a user
 * registered through its own route so the cookie is a real session. With BENCH_AUTH=fake (or when no
 * PostgreSQL answers) a stand-in answers `/internal/sessions/resolve` instead.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createAuthService, readAuthConfig } from '@app/auth-service';
import { inProcessBus, INTERNAL_AUTH_HEADER, internalAuthToken } from '@app/kit';
import pg from 'pg';

export interface BenchAuth {
  kind: 'real' | 'fake';
  url: string;
  cookie: string;
  userId: string;
  close(): Promise<void>;
}

const adminUrl = () => process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function startAuth(internalSecret: string, log: (line: string) => void): Promise<BenchAuth> {
  if (process.env.BENCH_AUTH === 'fake') return startFakeAuth();
  const admin = new pg.Client({ connectionString: adminUrl(), connectionTimeoutMillis: 3000 });
  // Another session terminating connections (a test dropping its databases WITH (FORCE)) must not crash the
  // bench mid-run: the drop at the end then says it could not.
  admin.on('error', (error) => log(`! admin connection to PostgreSQL lost: ${error.message}`));
  try {
    await admin.connect();
  } catch (error) {
    log(`! PostgreSQL not reachable at ${adminUrl()} (${(error as Error).message}); using a stand-in session resolver`);
    return startFakeAuth();
  }
  const database = `bench_gateway_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${database}"`);
  const url = new URL(adminUrl());
  url.pathname = `/${database}`;
  const dropDatabase = async () => {
    await admin
      .query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
      .catch((error) => log(`! could not drop ${database}: ${error.message}`));
    await admin.end();
  };

  let stop = async () => {};
  try {
    const bus = await inProcessBus({ databaseUrl: url.toString(), secret: internalSecret });
    const service = await createAuthService({
      config: readAuthConfig({ INTERNAL_SECRET: internalSecret, DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' }),
      bus,
      logger: false,
    });
    stop = async () => {
      await service.close();
      await bus.close();
    };
    const authUrl = await service.app.listen({ host: '127.0.0.1', port: 0 });

    const email = `bench-${randomUUID()}@example.com`;
    const response = await fetch(`${authUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Bench',
        lastName: 'User',
        companyName: 'Bench Co',
        email,
        password: 'bench-password-123',
      }),
    });
    if (response.status !== 201)
      throw new Error(`registering the bench user failed: ${response.status} ${await response.text()}`);
    // Signing up starts no session (the emailed link verifies and signs in): the bench owns this database, so it
    // marks the address verified, as the link would, and signs in with the password.
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    await db.query('UPDATE auth.users SET email_verified_at = now() WHERE email = $1', [email]);
    await db.end();
    const login = await fetch(`${authUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench-password-123' }),
    });
    const sid = login.headers
      .getSetCookie()
      .map((c) => /^sid=([^;]+)/.exec(c)?.[1])
      .find(Boolean);
    if (login.status !== 200 || !sid)
      throw new Error(`signing the bench user in failed: ${login.status} ${await login.text()}`);

    // The identity the auth service itself resolves for this cookie: what the upstream must see.
    const resolved = await fetch(`${authUrl}/internal/sessions/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [INTERNAL_AUTH_HEADER]: internalAuthToken(internalSecret) },
      body: JSON.stringify({ token: sid }),
    });
    const body = (await resolved.json()) as { identity?: { userId: string } };
    if (!body.identity) throw new Error(`the new session does not resolve: ${resolved.status} ${JSON.stringify(body)}`);

    return {
      kind: 'real',
      url: authUrl,
      cookie: `sid=${sid}`,
      userId: body.identity.userId,
      async close() {
        await stop();
        await dropDatabase();
      },
    };
  } catch (error) {
    // Stopped before its database goes: a connection terminated under a running service would crash the bench.
    await stop().catch(() => {});
    await dropDatabase();
    throw error;
  }
}

async function startFakeAuth(): Promise<BenchAuth> {
  const userId = randomUUID();
  const sid = randomBytes(32).toString('base64url');
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const token = (() => {
        try {
          return (JSON.parse(body) as { token?: string }).token;
        } catch {
          return undefined;
        }
      })();
      if (request.method !== 'POST' || request.url !== '/internal/sessions/resolve' || token !== sid) {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: 'No session', code: 'SESSION_NOT_FOUND' }));
        return;
      }
      const expiresAt = new Date(Date.now() + 3600_000).toISOString();
      const identity = {
        userId,
        sessionId: randomUUID(),
        email: 'bench@example.com',
        isAdmin: false,
        emailVerified: true,
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ identity, expiresAt }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    kind: 'fake',
    url: `http://127.0.0.1:${port}`,
    cookie: `sid=${sid}`,
    userId,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
