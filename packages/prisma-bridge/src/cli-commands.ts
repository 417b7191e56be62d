// `schema-engine --datasource <json> cli <command>`: one-shot commands the prisma CLI runs before
// migrate/db commands (does the database exist? create it). The CLI reads the outcome from the exit
// code and, on failure, from JSON log lines on stderr (it skips the first line), looking for
// { level: "ERROR", target: "schema_engine::logger", fields: { message, error_code } }.
import pg from 'pg';
import { parsePostgresUrl, quoteIdent, withDatabase } from './adapter.ts';
import type { PgTarget } from './adapter.ts';
import type { Datasource } from './args.ts';

export class UserFacingError extends Error {
  readonly errorCode: string;
  constructor(errorCode: string, message: string) {
    super(message);
    this.errorCode = errorCode;
  }
}

interface PgError extends Error {
  code?: string;
}

function location(target: PgTarget): string {
  const url = new URL(target.connectionString);
  return `${url.hostname}:${url.port || '5432'}`;
}

/** Map a pg connection failure to the Prisma error codes the native engine reports. */
export function connectionError(error: unknown, target: PgTarget): Error {
  const e = error as PgError;
  switch (e?.code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
    case 'EAI_AGAIN':
      return new UserFacingError(
        'P1001',
        `Can't reach database server at \`${location(target)}\`\n\nPlease make sure your database server is running at \`${location(target)}\`.`,
      );
    case '3D000':
      return new UserFacingError(
        'P1003',
        `Database \`${target.database}\` does not exist on the database server at \`${location(target)}\`.`,
      );
    case '28P01':
    case '28000':
      return new UserFacingError(
        'P1000',
        `Authentication failed against database server at \`${location(target)}\`: ${e.message}`,
      );
    default:
      return e instanceof Error ? e : new Error(String(error));
  }
}

async function withClient<T>(target: PgTarget, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: target.connectionString, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw connectionError(error, target);
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function canConnect(target: PgTarget): Promise<void> {
  await withClient(target, (client) => client.query('SELECT 1'));
}

/** CREATE DATABASE from the server's `postgres` database. Returns the database name. */
export async function createDatabase(target: PgTarget): Promise<string> {
  await withClient(withDatabase(target, 'postgres'), async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [target.database]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${quoteIdent(target.database)}`);
  });
  return target.database;
}

export async function dropDatabase(target: PgTarget): Promise<void> {
  await withClient(withDatabase(target, 'postgres'), (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(target.database)} WITH (FORCE)`),
  );
}

function logLine(level: 'INFO' | 'ERROR', fields: Record<string, unknown>): string {
  return JSON.stringify({ timestamp: new Date().toISOString(), level, fields, target: 'schema_engine::logger' });
}

/** Runs one `cli` command; returns the process exit code. */
export async function runCliCommand(command: string, datasource: Datasource): Promise<number> {
  process.stderr.write(`${logLine('INFO', { message: `prisma-bridge schema engine: cli ${command}` })}\n`);
  try {
    if (datasource.url === undefined)
      throw new UserFacingError('P1012', 'No datasource URL was given (--datasource {"url": ...}).');
    const target = parsePostgresUrl(datasource.url);
    switch (command) {
      case 'can-connect-to-database':
        await canConnect(target);
        break;
      case 'create-database':
        await createDatabase(target);
        break;
      case 'drop-database':
        await dropDatabase(target);
        break;
      default:
        throw new Error(`prisma-bridge: unsupported cli command "${command}"`);
    }
    return 0;
  } catch (error) {
    const fields: Record<string, unknown> = { message: error instanceof Error ? error.message : String(error) };
    if (error instanceof UserFacingError) fields['error_code'] = error.errorCode;
    process.stderr.write(`${logLine('ERROR', fields)}\n`);
    return 1;
  }
}
