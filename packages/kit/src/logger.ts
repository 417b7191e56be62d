import { pino, type LoggerOptions } from 'pino';

/** Secrets never reach the logs, whichever object they ride on. */
export const redactPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-identity"]',
  'req.headers["x-internal-auth"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.sealedToken',
  '*.secret',
  'password',
  'token',
];

/** Path segments that carry a secret-like value (an invitation id is what its email link carries). */
const SECRET_SEGMENTS = /(\/vendor-invitations\/)[^/?#]+/g;

/**
 * A URL as logs may show it: the query string never appears (verification and email-change tokens,
 * search words, filters), nor do path segments that carry a secret-like value.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  const path = (query === -1 ? url : url.slice(0, query)).replace(SECRET_SEGMENTS, '$1[redacted]');
  return query === -1 ? path : `${path}?[redacted]`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  id?: string;
}

export function loggerOptions(service: string, level = process.env.LOG_LEVEL ?? 'info'): LoggerOptions {
  return {
    level,
    base: { service },
    redact: { paths: redactPaths, censor: '[redacted]' },
    // Fastify's request log line: method, redacted URL and client address; never headers, query or body.
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: typeof request.url === 'string' ? redactUrl(request.url) : undefined,
        remoteAddress: request.ip,
      }),
    },
  };
}

/** A logger for what runs outside a request (bus connections, relays, the launcher). */
export const createLogger = (service: string, level?: string) => pino(loggerOptions(service, level));
