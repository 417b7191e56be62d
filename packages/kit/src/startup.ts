import { createServer } from 'node:net';

/**
 * A start that cannot go on, said in one line naming the variable and its target (never a password):
 * `runProcess` and `npm start` print the message alone, without a stack.
 */
export class StartupError extends Error {}

/** Network failures worth one clear line; anything else (a failing migration, a bug) keeps its stack. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'CONNECTION_REFUSED',
  'ESOCKET', // nodemailer: the SMTP connection failed
  'ECONNECTION', // nodemailer: the SMTP server closed or refused the connection
  '28P01', // password authentication failed
  '28000', // no pg_hba.conf entry / role not allowed
  '3D000', // database does not exist
  '57P03', // the database system is starting up
]);

function errorCode(error: unknown): string | undefined {
  for (let current = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined; current;) {
    if (typeof current.code === 'string' && UNREACHABLE.has(current.code)) return current.code;
    const inner = current.errors?.[0] ?? current.cause;
    current = inner as typeof current;
  }
  return undefined;
}

/** A connection URL as a start message may show it: host:port and path, never user or password. */
export function connectionTarget(url: string): string {
  return url
    .split(',')
    .map((one) => {
      try {
        const parsed = new URL(one.trim().includes('://') ? one.trim() : `nats://${one.trim()}`);
        return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
      } catch {
        return '(unparsable URL)';
      }
    })
    .join(', ');
}

/**
 * Runs a first connection; if the target cannot be reached, fails with one line such as
 * `Cannot reach PostgreSQL at db:5432/app (DATABASE_URL): connect ECONNREFUSED 10.0.0.5:5432`.
 */
export async function connecting<T>(
  what: string,
  variable: string,
  url: string,
  connect: () => Promise<T>,
): Promise<T> {
  try {
    return await connect();
  } catch (error) {
    const line = unreachableLine(what, variable, url, error);
    if (!line) throw error;
    throw new StartupError(line, { cause: error });
  }
}

/**
 * The one line for a connection failure, naming what, where and the variable (`Cannot reach SMTP at
 * mail:587 (SMTP_URL): ...`); undefined when the error is not a failure to reach the target.
 */
export function unreachableLine(what: string, variable: string, url: string, error: unknown): string | undefined {
  const code = errorCode(error);
  if (!code) return undefined;
  const reason = error instanceof Error && error.message ? error.message : code;
  return `Cannot reach ${what} at ${connectionTarget(url)} (${variable}): ${reason}`;
}

/**
 * Checked before anything else starts, so a taken port fails at once: "Port 3000 is in use (PORT)".
 * (Port 0, the system's choice, is always free.)
 */
export function checkPortFree(host: string, port: number, variable: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new StartupError(`Port ${port} is in use (${variable})`));
      else if (error.code === 'EACCES') reject(new StartupError(`Port ${port} needs privileges (${variable})`));
      else if (error.code === 'EADDRNOTAVAIL') reject(new StartupError(`Cannot listen on ${host} (HOST)`));
      else reject(error);
    });
    server.listen(port, host, () => server.close(() => resolve()));
  });
}
