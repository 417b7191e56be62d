import { Writable } from 'node:stream';
import { pino, type DestinationStream, type LoggerOptions } from 'pino';

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

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };

/** One JSON log line as a person reads it: `12:01:02 INFO  auth  message key=value`, errors with their stack. */
export function prettyLine(line: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, time, service, msg, pid: _pid, hostname: _hostname, err, ...rest } = entry;
  const paint = (code: string, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const stamp = new Date(typeof time === 'number' ? time : Date.now()).toTimeString().slice(0, 8);
  const fields = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  const error = err as { type?: string; message?: string; stack?: string } | undefined;
  return [
    `${paint('90', stamp)} ${paint(COLOURS[level as number] ?? '0', LEVELS[level as number] ?? String(level))} ${paint('36', String(service ?? ''))}  ${String(msg ?? '')}`,
    fields ? ` ${paint('90', fields)}` : '',
    error
      ? `\n  ${paint('31', error.stack ?? `${error.type ?? 'Error'}: ${error.message ?? ''}`).replaceAll('\n', '\n  ')}`
      : '',
  ].join('');
}

/** Pretty lines on a terminal; JSON (one object a line, for collectors) everywhere else. */
export function logDestination(): DestinationStream | undefined {
  if (!process.stdout.isTTY) return undefined;
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line) process.stdout.write(`${prettyLine(line, true)}\n`);
      }
      done();
    },
  });
}

export function loggerOptions(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
): LoggerOptions & { stream?: DestinationStream } {
  const stream = logDestination();
  return {
    ...(stream ? { stream } : {}),
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
export const createLogger = (service: string, level?: string) => {
  const { stream, ...options } = loggerOptions(service, level);
  return stream ? pino(options, stream) : pino(options);
};
