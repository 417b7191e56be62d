import { baseConfig, ConfigError, port, readConfig } from '@app/kit';
import { z } from 'zod';

const upstream = (fallback: string) => z.url().default(fallback);
/** A Unix socket the service also listens on (`listenOnSocket` in @app/kit), when it shares the gateway's host. */
const socket = z.string().min(1).optional();
const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((value) => value === 'true');

export const gatewayConfigSchema = z
  .object({
    ...baseConfig,
    PORT: port(3000),
    PUBLIC_URL: z.url().default('http://localhost:3000'),
    /** Extra origins allowed to send state-changing requests (comma-separated), besides PUBLIC_URL's. */
    ALLOWED_ORIGINS: z.string().default(''),
    AUTH_URL: upstream('http://127.0.0.1:4001'),
    REFERRALS_URL: upstream('http://127.0.0.1:4002'),
    PROGRAMS_URL: upstream('http://127.0.0.1:4003'),
    PROFILES_URL: upstream('http://127.0.0.1:4004'),
    AI_URL: upstream('http://127.0.0.1:4005'),
    MAIL_URL: upstream('http://127.0.0.1:4006'),
    /**
     * The same services over a Unix socket, for the gateway's hot path (fast-path.ts): cheaper than loopback
     * TCP when gateway and service share a host (`npm start` sets them). The URL still names the service
     * (Host header, every other call).
     */
    AUTH_SOCKET: socket,
    REFERRALS_SOCKET: socket,
    PROGRAMS_SOCKET: socket,
    PROFILES_SOCKET: socket,
    AI_SOCKET: socket,
    MAIL_SOCKET: socket,
    /** The built web app; when the folder has no index.html the gateway serves the API only. */
    WEB_DIST: z.string().optional(),
    /** How long a resolved session is reused before asking the auth service again. */
    SESSION_CACHE_MS: z.coerce.number().int().min(0).default(5000),
    RATE_LIMIT_AUTH_MAX: z.coerce.number().int().positive().default(10),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(60_000),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    /** Program documents (10 MB) plus the multipart envelope, for the upload route only. */
    UPLOAD_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(11 * 1024 * 1024),
    /**
     * Client-facing: how long a connection may stay silent (the socket timeout). Longer than every upstream
     * timeout, so a hung service gets a JSON 504 from the gateway, never an empty reply.
     */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(75_000),
    /** How long a service may take to answer an ordinary request before the gateway answers 504. */
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
    /** The same for operations that wait on a language model (search, match, program check, document analysis). */
    UPSTREAM_MODEL_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
    /** A request body must arrive whole within this time (408 after), however slowly it trickles. */
    BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    /** Honour X-Forwarded-For from a proxy in front (for rate limits and logs). */
    TRUST_PROXY: flag,
    /**
     * Gateway processes sharing the port: `auto` is one per core. Above 1 the rate-limit counts and session
     * evictions must be shared, so NATS_URL is required.
     */
    GATEWAY_WORKERS: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)]).default(1),
    /**
     * Read clients' connections by hand until a request is not the fast path's (front.ts): a plain GET with a
     * cached session skips Node's HTTP server. `false` leaves every connection to Node's server (the fast path
     * still answers after its parser).
     */
    RAW_CONNECTIONS: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    /** Proxy /dev/inbox to the mail service's built-in catcher (set by `npm start` when SMTP_URL is unset). */
    DEV_INBOX: flag,
  })
  .refine(
    (c) => c.REQUEST_TIMEOUT_MS > Math.max(c.UPSTREAM_TIMEOUT_MS, c.UPSTREAM_MODEL_TIMEOUT_MS, c.BODY_TIMEOUT_MS),
    {
      path: ['REQUEST_TIMEOUT_MS'],
      message: 'must be longer than UPSTREAM_TIMEOUT_MS, UPSTREAM_MODEL_TIMEOUT_MS and BODY_TIMEOUT_MS',
    },
  )
  .refine((c) => c.GATEWAY_WORKERS === 1 || c.NATS_URL, {
    path: ['GATEWAY_WORKERS'],
    message: 'more than one worker needs NATS_URL (rate-limit counts and session evictions shared by every worker)',
  });

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

export function readGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const config = readConfig(gatewayConfigSchema, env);
  if (config.DEV_INBOX && env.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration:\n  DEV_INBOX: the development inbox shows every email; it never runs with NODE_ENV=production',
    );
  }
  return config;
}
