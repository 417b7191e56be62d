import { createServer, type IncomingMessage, type Server } from 'node:http';
import { identitySigner, type Identity } from '@app/kit';
import { TEST_SECRET } from '@app/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionResolver } from '../src/sessions.ts';

const identity: Identity = {
  userId: 'u1',
  sessionId: 's1',
  email: 'one@example.com',
  isAdmin: false,
  emailVerified: true,
};

/** A stand-in auth service: counts the lookups, answers each once `hold` (when set) lets it. */
let lookups: Array<{ token: string; requestId: string | undefined }> = [];
let hold: Promise<void> | null = null;
let arrived: () => void = () => {};
let server: Server;
let authUrl: string;

const bodyOf = async (request: IncomingMessage) => {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text) as { token: string };
};

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const { token } = await bodyOf(request);
    lookups.push({ token, requestId: request.headers['x-request-id'] as string | undefined });
    arrived();
    await hold;
    const known = token !== 'unknown';
    response.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(known ? { identity, expiresAt: new Date(Date.now() + 3_600_000).toISOString() } : {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  authUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  lookups = [];
  hold = null;
});

/** Holds the stand-in's answers until `release`; `came` settles when the next lookup reaches it. */
function holdLookups(): { release: () => void; came: Promise<void> } {
  let release!: () => void;
  hold = new Promise((resolve) => (release = resolve));
  const came = new Promise<void>((resolve) => (arrived = resolve));
  return { release, came };
}

const resolver = (cacheMs = 5000) => new SessionResolver({ authUrl, internalSecret: TEST_SECRET, cacheMs });

describe('SessionResolver', () => {
  it('asks the auth service once for the requests of one session that arrive together', async () => {
    const sessions = resolver();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sessions.resolve('tok', { 'x-request-id': `req-${i}` })),
    );
    expect(lookups).toEqual([{ token: 'tok', requestId: 'req-0' }]);
    expect(new Set(answers).size).toBe(1);
    expect(identitySigner(TEST_SECRET).verify(answers[0]!.header!)).toEqual(identity);
    // Other tokens have lookups of their own; an unknown one is "no session".
    const [other, unknown] = await Promise.all([sessions.resolve('other'), sessions.resolve('unknown')]);
    expect(other.identity).toEqual(identity);
    expect(unknown.header).toBeNull();
    expect(lookups.map((lookup) => lookup.token)).toEqual(['tok', 'other', 'unknown']);
    // Cached from here on.
    await sessions.resolve('tok');
    expect(lookups).toHaveLength(3);
  });

  it('asks for every request when caching is off (SESSION_CACHE_MS=0)', async () => {
    const sessions = resolver(0);
    await Promise.all([sessions.resolve('tok'), sessions.resolve('tok'), sessions.resolve('tok')]);
    expect(lookups).toHaveLength(3);
  });

  it("starts the next lookup in the last fifth of an entry's life, answering from the entry meanwhile", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const sessions = resolver(5000);
      const first = await sessions.resolve('tok');
      vi.setSystemTime(Date.now() + 3500);
      expect(sessions.cached('tok')).toBe(first);
      expect(lookups).toHaveLength(1);
      const { release, came } = holdLookups();
      vi.setSystemTime(Date.now() + 1000);
      // 4.5 s old: still answered from the cache, and the next lookup has started, once.
      expect(sessions.cached('tok')).toBe(first);
      await came;
      expect(await sessions.resolve('tok')).toBe(first);
      release();
      while (sessions.cached('tok') === first) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(lookups).toHaveLength(2);
      expect(sessions.cached('tok')!.until).toBe(Date.now() + 5000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('neither shares nor caches a lookup that a logout overtook', async () => {
    const sessions = resolver();
    const { release, came } = holdLookups();
    const before = sessions.resolve('tok');
    await came;
    // The session ends while its lookup is under way.
    sessions.evictToken('tok');
    hold = null;
    // A request after the logout asks afresh (joining the lookup under way, it would wait for it).
    const after = await sessions.resolve('tok');
    release();
    // The request that came first has the answer of its own lookup, which is not cached: the fresh one is.
    expect((await before).identity).toEqual(identity);
    expect(lookups).toHaveLength(2);
    expect(sessions.cached('tok')).toBe(after);
  });

  it('does not cache a lookup that a session.ended or user.email_verified event overtook', async () => {
    for (const evict of [(s: SessionResolver) => s.evictSession('s1'), (s: SessionResolver) => s.evictUser('u1')]) {
      lookups = [];
      const sessions = resolver();
      const { release, came } = holdLookups();
      const answer = sessions.resolve('tok');
      await came;
      evict(sessions);
      release();
      await answer;
      expect(sessions.cached('tok')).toBeUndefined();
      hold = null;
      await sessions.resolve('tok');
      expect(lookups).toHaveLength(2);
    }
  });
});
