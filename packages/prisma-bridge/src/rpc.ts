// JSON-RPC 2.0 server over stdio, one JSON message per line: the protocol the prisma CLI speaks
// with the native schema-engine binary (packages/migrate/src/SchemaEngineCLI.ts in prisma/prisma).
// Every request is delegated to the WASM schema engine; anything that goes wrong becomes a
// JSON-RPC error, so the CLI command fails.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { isWasmPanic, panicRegistry } from './wasm-engine.ts';
import type { SchemaEngine } from './wasm-engine.ts';
import { UserFacingError } from './cli-commands.ts';

type Params = Record<string, unknown>;
/** Parameter type of an engine method (params arrive as JSON from the CLI, which speaks the same types). */
type Input<M extends keyof SchemaEngine> = SchemaEngine[M] extends (input: infer I) => unknown ? I & Params : never;

interface RpcMessage {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: Params;
  result?: unknown;
  error?: unknown;
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data: { is_panic: boolean; message: string; error_code?: string; meta?: unknown };
}

/** Raised for a WASM panic: the engine instance is unusable afterwards, the process must exit non-zero. */
export class EnginePanic extends Error {}

export class MethodNotFound extends Error {}

export interface EngineHost {
  /** Lazily created engine (connecting needs the datasource; some commands never need it). */
  engine(): Promise<SchemaEngine>;
  createDatabase(params: Params): Promise<{ databaseName: string }>;
}

const ENGINE_ERROR_CODE = 4466; // what the native engine uses: "An error happened. Check the data field for details."
const METHOD_NOT_FOUND = -32601;

/** JSON-RPC error object in the native engine's shape (the CLI reads `data.message` and `data.error_code`). */
export function toRpcError(error: unknown): RpcErrorObject {
  if (isWasmPanic(error) || error instanceof EnginePanic) {
    const reason = panicRegistry.message || error.message;
    const message =
      error instanceof EnginePanic ? `${error.message} (${reason})` : `The WASM schema engine panicked: ${reason}`;
    return { code: ENGINE_ERROR_CODE, message, data: { is_panic: false, message } };
  }
  if (error instanceof MethodNotFound) {
    return { code: METHOD_NOT_FOUND, message: `Method not found`, data: { is_panic: false, message: error.message } };
  }
  if (error instanceof UserFacingError) {
    return {
      code: ENGINE_ERROR_CODE,
      message: error.message,
      data: { is_panic: false, message: error.message, error_code: error.errorCode },
    };
  }
  if (error instanceof Error) {
    // Errors from the WASM engine carry the Prisma error code (e.g. P3018) in `code` and details in `meta`.
    const { code, meta } = error as Error & { code?: unknown; meta?: unknown };
    const message = error.message || error.name || 'Unknown schema engine error';
    const data: RpcErrorObject['data'] = { is_panic: false, message };
    if (typeof code === 'string' && /^P\d{4}$/.test(code)) data.error_code = code;
    if (meta !== undefined) data.meta = meta;
    return { code: ENGINE_ERROR_CODE, message, data };
  }
  const message = `Schema engine error: ${JSON.stringify(error)}`;
  return { code: ENGINE_ERROR_CODE, message, data: { is_panic: false, message } };
}

export class RpcServer {
  readonly #host: EngineHost;
  readonly #output: Writable;
  readonly #pendingReplies = new Map<number, (message: RpcMessage) => void>();
  #nextId = 1;
  #queue: Promise<void> = Promise.resolve();
  /** Migration lists (as JSON) whose shadow-database schema the engine has cached, see `#ensureShadowSchemaCache`. */
  readonly #cachedMigrationLists = new Set<string>();
  inFlight = 0;
  panicked = false;

  constructor(host: EngineHost, output: Writable) {
    this.#host = host;
    this.#output = output;
  }

  /** Serve until `input` ends and every request has been answered. */
  async serve(input: Readable): Promise<void> {
    const lines = createInterface({ input, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      this.#receive(line);
      if (this.panicked) break;
    }
    await this.#queue;
  }

  #send(message: RpcMessage): void {
    this.#output.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  #receive(line: string): void {
    let message: RpcMessage;
    try {
      message = JSON.parse(line) as RpcMessage;
    } catch {
      this.#send({
        id: null,
        error: {
          code: -32700,
          message: 'Parse error',
          data: { is_panic: false, message: `Invalid JSON: ${line.slice(0, 200)}` },
        },
      });
      return;
    }
    if (message.method === undefined) {
      // A reply to a request we sent (the `print` notification-with-ack).
      if (typeof message.id === 'number') this.#pendingReplies.get(message.id)?.(message);
      return;
    }
    const { id, method, params } = message;
    this.inFlight++;
    this.#queue = this.#queue.then(async () => {
      try {
        if (this.panicked) throw new EnginePanic('an earlier request made the engine panic');
        const result = await this.#dispatch(method, params ?? {});
        if (id !== undefined) this.#send({ id, result: result ?? null });
      } catch (error) {
        if (isWasmPanic(error) || error instanceof EnginePanic) this.panicked = true;
        if (id !== undefined) this.#send({ id, error: toRpcError(error) });
        else process.stderr.write(`${toRpcError(error).message}\n`);
      } finally {
        this.inFlight--;
      }
    });
  }

  /** Ask the CLI to print `content` on its stdout (the native engine does this for `diff`). */
  #print(content: string): Promise<void> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pendingReplies.set(id, () => {
        this.#pendingReplies.delete(id);
        resolve();
      });
      this.#send({ id, method: 'print', params: { content } });
    });
  }

  /**
   * The WASM engine has no shadow database of its own in createMigration/evaluateDataLoss: they read the schema
   * of the migrations directory from a cache that only diagnoseMigrationHistory/devDiagnostic fill (through the
   * adapter's shadow database), and only for the migrations applied to the database at that moment. `migrate dev`
   * calls devDiagnostic, then applies pending migrations, then evaluateDataLoss: with a database that was behind,
   * the cache misses. So: track when the cache holds the full list, and otherwise fill it first.
   */
  async #withShadowSchemaCache<T>(engine: SchemaEngine, params: Params, run: () => Promise<T>): Promise<T> {
    const key = JSON.stringify(params['migrationsList']);
    if (!this.#cachedMigrationLists.has(key) && isFullyApplied(await diagnose(engine, params, true))) {
      this.#cachedMigrationLists.add(key);
    }
    try {
      return await run();
    } catch (error) {
      if (error instanceof Error && error.message.includes('shadow DB must be provided through an external factory')) {
        throw new UserFacingError(
          'P3000',
          'prisma-bridge: the migrations directory is not fully applied to the database (pending, failed or rolled-back ' +
            'migrations), so the WASM schema engine cannot compute the schema it describes. Apply or resolve them first ' +
            '(`prisma migrate status` shows which).',
        );
      }
      throw error;
    }
  }

  readonly #handlers: Record<string, (engine: SchemaEngine, params: Params) => Promise<unknown>> = {
    applyMigrations: (engine, params) => engine.applyMigrations(params as Input<'applyMigrations'>),
    createMigration: (engine, params) =>
      this.#withShadowSchemaCache(engine, params, () => engine.createMigration(params as Input<'createMigration'>)),
    evaluateDataLoss: (engine, params) =>
      this.#withShadowSchemaCache(engine, params, () => engine.evaluateDataLoss(params as Input<'evaluateDataLoss'>)),
    devDiagnostic: async (engine, params) => {
      const result = await engine.devDiagnostic(params as Input<'devDiagnostic'>);
      // devDiagnostic diagnosed with the shadow database; a cheap look (no shadow) tells whether that covered the whole list.
      if (isFullyApplied(await diagnose(engine, params, false)))
        this.#cachedMigrationLists.add(JSON.stringify(params['migrationsList']));
      return result;
    },
    diagnoseMigrationHistory: async (engine, params) => {
      const optIn = params['optInToShadowDatabase'] === true;
      const result = await diagnose(engine, params, optIn);
      if (optIn && isFullyApplied(result)) this.#cachedMigrationLists.add(JSON.stringify(params['migrationsList']));
      return result;
    },
    dbExecute: async (engine, params) => {
      await engine.dbExecute(params as Input<'dbExecute'>);
      return null;
    },
    diff: async (engine, params) => {
      const { stdout, ...rest } = await engine.diff(params as Input<'diff'>);
      if (stdout) await this.#print(stdout.replace(/\n$/, ''));
      return rest;
    },
    ensureConnectionValidity: (engine, params) =>
      engine.ensureConnectionValidity(params as Input<'ensureConnectionValidity'>),
    getDatabaseVersion: (engine, params) =>
      engine.version(Object.keys(params).length > 0 ? (params as Input<'version'>) : null),
    introspect: (engine, params) =>
      engine.introspect({ ...params, namespaces: params['namespaces'] ?? null } as Input<'introspect'>),
    introspectSql: (engine, params) => engine.introspectSql(params as Input<'introspectSql'>),
    markMigrationApplied: (engine, params) => engine.markMigrationApplied(params as Input<'markMigrationApplied'>),
    markMigrationRolledBack: (engine, params) =>
      engine.markMigrationRolledBack(params as Input<'markMigrationRolledBack'>),
    reset: async (engine, params) => {
      await engine.reset(params as Input<'reset'>);
      return null;
    },
    schemaPush: (engine, params) => engine.schemaPush(params as Input<'schemaPush'>),
    debugPanic: (engine) => {
      engine.debugPanic();
      throw new EnginePanic('debugPanic did not panic');
    },
  };

  async #dispatch(method: string, params: Params): Promise<unknown> {
    // Not part of the WASM engine: done with pg directly.
    if (method === 'createDatabase') return this.#host.createDatabase(params);
    const handler = Object.hasOwn(this.#handlers, method) ? this.#handlers[method] : undefined;
    if (handler === undefined)
      throw new MethodNotFound(`prisma-bridge: the schema engine method "${method}" is not supported.`);
    return handler(await this.#host.engine(), params);
  }
}

type Diagnosis = Awaited<ReturnType<SchemaEngine['diagnoseMigrationHistory']>>;

function diagnose(engine: SchemaEngine, params: Params, optInToShadowDatabase: boolean): Promise<Diagnosis> {
  return engine.diagnoseMigrationHistory({
    migrationsList: params['migrationsList'],
    optInToShadowDatabase,
    filters: params['filters'] ?? { externalTables: [], externalEnums: [] },
  } as Input<'diagnoseMigrationHistory'>);
}

/** Every migration of the list is applied (so the shadow schema the engine computed covers the whole list). */
function isFullyApplied(diagnosis: Diagnosis): boolean {
  return diagnosis.history === null && diagnosis.failedMigrationNames.length === 0;
}
