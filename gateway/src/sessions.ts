import { INTERNAL_AUTH_HEADER, internalAuthToken, identitySigner, type Identity } from '@app/kit';
import { request } from 'undici';

interface CacheEntry {
  /** The signed x-identity header value, or null for "no such session". */
  header: string | null;
  identity: Identity | null;
  until: number;
}

const MAX_ENTRIES = 50_000;
/** A signed identity stays valid this long; a cache entry never outlives it. */
const IDENTITY_TTL_SECONDS = 60;

export class UpstreamUnavailableError extends Error {}

/**
 * Resolves session cookies through the auth service and caches the answer briefly. Logout through any
 * gateway evicts at once (here directly, elsewhere through the `session.ended` event); expiry is
 * honoured because an entry never outlives the session's own expiry.
 */
export class SessionResolver {
  private readonly cache = new Map<string, CacheEntry>();
  /**
   * Lookups under way, by token, while caching is on: the requests of one session that arrive while its
   * entry is being resolved share the one lookup. Without it, each time a busy session's entry aged out
   * every request in flight asked the auth service at once (50 lookups at once in the gateway benchmark).
   */
  private readonly pending = new Map<string, Promise<CacheEntry>>();
  /** Counts evictions: a lookup that one overtook answers its own requests but is not cached. */
  private evictions = 0;
  private readonly authUrl: string;
  private readonly cacheMs: number;
  private readonly internalToken: string;
  private readonly signer: ReturnType<typeof identitySigner>;

  private readonly timeoutMs: number;

  constructor(options: { authUrl: string; internalSecret: string; cacheMs: number; timeoutMs?: number }) {
    this.authUrl = options.authUrl;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.cacheMs = options.cacheMs;
    this.internalToken = internalAuthToken(options.internalSecret);
    this.signer = identitySigner(options.internalSecret);
  }

  /**
   * The cached answer for a token while it is fresh; undefined means ask `resolve`. In the last fifth of
   * its life, the next lookup starts (in the background, once): a busy session's requests find the fresh
   * entry in place when the old one ages out, instead of all waiting for a lookup together. An entry is
   * never used past its own time either way.
   */
  cached(token: string): CacheEntry | undefined {
    const cached = this.cache.get(token);
    if (!cached) return undefined;
    const left = cached.until - Date.now();
    if (left <= 0) return undefined;
    if (left < this.cacheMs / 5 && !this.pending.has(token)) {
      // A failed refresh changes nothing: the entry ages out and the next request's lookup answers for it.
      this.shared(token, {}).catch(() => {});
    }
    return cached;
  }

  /**
   * `headers`: what the lookup carries on behalf of the request (its x-request-id, the trace context); a
   * request that joins a lookup under way is answered by it, which carries the first request's.
   */
  async resolve(token: string, headers: Record<string, string> = {}): Promise<CacheEntry> {
    const cached = this.cached(token);
    if (cached) return cached;
    if (this.cacheMs <= 0) return this.lookup(token, headers);
    return this.pending.get(token) ?? this.shared(token, headers);
  }

  /** A lookup the requests of its token that come while it runs share. */
  private shared(token: string, headers: Record<string, string>): Promise<CacheEntry> {
    const lookup = this.lookup(token, headers).finally(() => {
      if (this.pending.get(token) === lookup) this.pending.delete(token);
    });
    this.pending.set(token, lookup);
    return lookup;
  }

  private async lookup(token: string, headers: Record<string, string>): Promise<CacheEntry> {
    const now = Date.now();
    const evictions = this.evictions;

    let response;
    let body: { identity?: Identity; expiresAt?: string };
    try {
      // A hung auth service (accepts, never answers) fails the lookup within the timeout, whole.
      response = await request(`${this.authUrl}/internal/sessions/resolve`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', [INTERNAL_AUTH_HEADER]: this.internalToken },
        body: JSON.stringify({ token }),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      body = (await response.body.json()) as typeof body;
    } catch (error) {
      throw new UpstreamUnavailableError('auth service unreachable', { cause: error });
    }
    let entry: CacheEntry;
    if (response.statusCode === 200 && body.identity && body.expiresAt) {
      const until = Math.min(now + this.cacheMs, Date.parse(body.expiresAt), now + (IDENTITY_TTL_SECONDS - 5) * 1000);
      entry = { header: this.signer.sign(body.identity, IDENTITY_TTL_SECONDS, now), identity: body.identity, until };
    } else if (response.statusCode === 404) {
      entry = { header: null, identity: null, until: now + this.cacheMs };
    } else {
      throw new UpstreamUnavailableError(`auth service answered ${response.statusCode}`);
    }
    if (this.cacheMs > 0 && this.evictions === evictions) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(token, entry);
    }
    return entry;
  }

  evictToken(token: string): void {
    this.evicted();
    this.cache.delete(token);
  }

  /** Sessions end rarely (logout elsewhere), so a scan beats keeping a second index in step. */
  evictSession(sessionId: string): void {
    this.evicted();
    for (const [token, entry] of this.cache) {
      if (entry.identity?.sessionId === sessionId) this.cache.delete(token);
    }
  }

  /** The user's identity changed (email verified): their next request is resolved afresh. */
  evictUser(userId: string): void {
    this.evicted();
    for (const [token, entry] of this.cache) {
      if (entry.identity?.userId === userId) this.cache.delete(token);
    }
  }

  /**
   * A lookup under way may predate what ended (its session, or the user's old state): the requests that
   * come next ask afresh, and its answer is not cached (which session it names is not known before).
   */
  private evicted(): void {
    this.evictions++;
    this.pending.clear();
  }
}
