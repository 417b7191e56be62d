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

export function loggerOptions(service: string, level = process.env.LOG_LEVEL ?? 'info'): LoggerOptions {
  return {
    level,
    base: { service },
    redact: { paths: redactPaths, censor: '[redacted]' },
  };
}

/** A logger for what runs outside a request (bus connections, relays, the launcher). */
export const createLogger = (service: string, level?: string) => pino(loggerOptions(service, level));
