// Driver adapter given to the WASM schema engine: @prisma/adapter-pg with the fixes the
// schema engine needs (see README.md "Pitfalls").
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

/** Query parameters Prisma understands in a PostgreSQL URL that pg does not. */
const PRISMA_ONLY_PARAMS = [
  'schema',
  'connection_limit',
  'pool_timeout',
  'pgbouncer',
  'statement_cache_size',
  'socket_timeout',
];

export interface PgTarget {
  /** Connection string for pg, without Prisma-only parameters. */
  connectionString: string;
  /** Database name from the URL path (PostgreSQL's default is the user name, Prisma's is `postgres`). */
  database: string;
  /** `?schema=` of the Prisma URL, default `public`. */
  schema: string;
}

export function parsePostgresUrl(url: string): PgTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('The datasource URL is not a valid URL.');
  }
  if (parsed.protocol !== 'postgresql:' && parsed.protocol !== 'postgres:') {
    throw new Error(`prisma-bridge only supports PostgreSQL URLs (postgresql://...), got ${parsed.protocol}//...`);
  }
  const schema = parsed.searchParams.get('schema') ?? 'public';
  for (const param of PRISMA_ONLY_PARAMS) parsed.searchParams.delete(param);
  // Like the native engine, work inside the schema: the engine leaves _prisma_migrations and the
  // migration scripts unqualified. (libpq `options`: spaces and backslashes are backslash-escaped.)
  const searchPath = `-c search_path=${quoteIdent(schema).replace(/[\\ ]/g, '\\$&')}`;
  const options = parsed.searchParams.get('options');
  parsed.searchParams.set('options', options === null ? searchPath : `${options} ${searchPath}`);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres';
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return { connectionString: parsed.toString(), database, schema };
}

/** The same server and credentials, another database. */
export function withDatabase(target: PgTarget, database: string): PgTarget {
  const url = new URL(target.connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return { connectionString: url.toString(), database, schema: target.schema };
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

// adapter-pg has no column type for OID 18 (the one-byte `"char"` of pg_catalog, e.g. relkind), which the
// schema engine's introspection queries return. Report it as bpchar (1042), a character type adapter-pg maps to Text.
const PG_CHAR_OID = 18;
const PG_BPCHAR_OID = 1042;
type ResultWithAddFields = { addFields(fields: { dataTypeID: number }[]): void };
const resultProto = (pg as unknown as { Result: { prototype: ResultWithAddFields } }).Result.prototype;
const originalAddFields = resultProto.addFields;
resultProto.addFields = function addFields(this: ResultWithAddFields, fields) {
  for (const field of fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_BPCHAR_OID;
  originalAddFields.call(this, fields);
};

interface PgError extends Error {
  code?: string;
  severity?: string;
  detail?: string;
  column?: string;
  hint?: string;
  address?: string;
  port?: number;
}

/** Turn a pg error into the error shape the engine understands (what adapter-pg does internally). */
export function toDriverAdapterError(error: unknown): unknown {
  const e = error as PgError;
  if (typeof e?.code !== 'string') return error;
  if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND') {
    return new DriverAdapterError({ kind: 'DatabaseNotReachable', host: e.address, port: e.port });
  }
  if (typeof e.severity !== 'string') return error;
  if (e.code === '3D000')
    return new DriverAdapterError({ kind: 'DatabaseDoesNotExist', db: /"([^"]+)"/.exec(e.message)?.[1] });
  return new DriverAdapterError({
    kind: 'postgres',
    code: e.code,
    severity: e.severity,
    message: e.message,
    detail: e.detail,
    column: e.column,
    hint: e.hint,
  });
}

/**
 * adapter-pg's executeScript splits the script on `;`, which breaks `$$` function bodies and string literals.
 * The native engine sends a migration script as one simple-protocol query; do the same.
 */
function sendScriptsWhole(adapter: SqlDriverAdapter, run: (script: string) => Promise<unknown>): SqlDriverAdapter {
  adapter.executeScript = async (script: string): Promise<void> => {
    try {
      await run(script);
    } catch (error) {
      throw toDriverAdapterError(error);
    }
  };
  return adapter;
}

/** Shadow databases currently alive, so a signal handler can still drop them. */
export const liveShadowDatabases = new Map<string, () => Promise<void>>();

export class BridgeAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';
  readonly #target: PgTarget;
  readonly #shadowDatabaseUrl: string | undefined;

  constructor(target: PgTarget, shadowDatabaseUrl?: string) {
    this.#target = target;
    this.#shadowDatabaseUrl = shadowDatabaseUrl;
  }

  async connect(): Promise<SqlDriverAdapter> {
    const pool = new pg.Pool({ connectionString: this.#target.connectionString });
    const adapter = await new PrismaPg(pool, { schema: this.#target.schema, disposeExternalPool: true }).connect();
    return sendScriptsWhole(adapter, (script) => pool.query(script));
  }

  /**
   * A fresh temporary database on the same server, dropped WITH (FORCE) on dispose.
   * (adapter-pg's own factory, given a connection string, ends up connected to the main database:
   * pg lets `connectionString` override `database`.)
   */
  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    if (this.#shadowDatabaseUrl !== undefined) {
      throw new Error(
        'prisma-bridge does not support datasource.shadowDatabaseUrl: it creates (and drops) a temporary shadow database ' +
          'on the main database server instead. Remove shadowDatabaseUrl from prisma.config.ts.',
      );
    }
    // Named after the main database, so a leftover is easy to trace (and to find in tests).
    const name = `${this.#target.database.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 30)}_prisma_shadow_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: this.#target.connectionString });
    try {
      await admin.connect();
      await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
    } catch (error) {
      await admin.end().catch(() => undefined);
      throw toDriverAdapterError(error);
    }
    let dropped = false;
    const drop = async (): Promise<void> => {
      if (dropped) return;
      dropped = true;
      liveShadowDatabases.delete(name);
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      } finally {
        await admin.end().catch(() => undefined);
      }
    };
    liveShadowDatabases.set(name, drop);

    const shadow = withDatabase(this.#target, name);
    const pool = new pg.Pool({ connectionString: shadow.connectionString });
    try {
      const { rows } = await pool.query<{ db: string }>('SELECT current_database() AS db');
      if (rows[0]?.db !== name) {
        throw new Error(`prisma-bridge: shadow database connection landed in "${rows[0]?.db}", expected "${name}"`);
      }
      const adapter = await new PrismaPg(pool, { schema: this.#target.schema, disposeExternalPool: true }).connect();
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        try {
          await dispose();
        } finally {
          await drop();
        }
      };
      return sendScriptsWhole(adapter, (script) => pool.query(script));
    } catch (error) {
      await pool.end().catch(() => undefined);
      await drop();
      throw toDriverAdapterError(error);
    }
  }
}

/**
 * Used when the CLI gives no datasource URL. The WASM engine queries the database as soon as it is
 * constructed, so even database-free commands (`migrate diff --from-empty --to-schema`) need one.
 */
export class NoDatabaseAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';

  connect(): Promise<SqlDriverAdapter> {
    return Promise.reject(
      new Error(
        'No datasource URL was given to the schema engine: set datasource.url in prisma.config.ts ' +
          '(the WASM schema engine needs a database even for `migrate diff --from-empty`).',
      ),
    );
  }

  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.connect();
  }
}
