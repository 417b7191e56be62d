// Entry point of bin/schema-engine: a drop-in for Prisma's native `schema-engine` binary.
import { readFile } from 'node:fs/promises';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { ErrorCapturingSqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { BridgeAdapterFactory, NoDatabaseAdapterFactory, liveShadowDatabases, parsePostgresUrl } from './adapter.ts';
import { parseArgs, USAGE } from './args.ts';
import type { Datasource } from './args.ts';
import { createDatabase, runCliCommand, UserFacingError } from './cli-commands.ts';
import { RpcServer } from './rpc.ts';
import type { EngineHost } from './rpc.ts';
import { createSchemaEngine, enginesVersion } from './wasm-engine.ts';
import type { SchemaEngine } from './wasm-engine.ts';

async function dropLiveShadowDatabases(): Promise<void> {
  await Promise.allSettled([...liveShadowDatabases.values()].map((drop) => drop()));
}

/** Errors thrown inside driver-adapter calls reach the engine as "External error id#N"; put the real message back. */
function withAdapterErrors(error: unknown, factory: ErrorCapturingSqlMigrationAwareDriverAdapterFactory): unknown {
  if (error instanceof Error) {
    error.message = error.message.replace(/External error id#(\d+)/g, (text, id: string) => {
      const original = factory.errorRegistry.consumeError(Number(id))?.error;
      return original instanceof Error ? original.message : text;
    });
  }
  return error;
}

function engineHost(datamodelPaths: string[], datasource: Datasource): EngineHost {
  let engine: Promise<SchemaEngine> | undefined;
  const target = datasource.url === undefined ? undefined : parsePostgresUrl(datasource.url);
  const factory = bindMigrationAwareSqlAdapterFactory(
    target === undefined
      ? new NoDatabaseAdapterFactory()
      : new BridgeAdapterFactory(target, datasource.shadowDatabaseUrl),
  );
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const create = async (): Promise<SchemaEngine> => {
    const datamodels = await Promise.all(
      datamodelPaths.map(async (file): Promise<[string, string]> => [file, await readFile(file, 'utf8')]),
    );
    const created = await createSchemaEngine(datamodels.length > 0 ? datamodels : undefined, log, factory).catch(
      (error: unknown) => Promise.reject(withAdapterErrors(error, factory)),
    );
    // Wrap every method so adapter (pg) errors surface with their real message.
    return new Proxy(created, {
      get(targetEngine, property, receiver) {
        const value: unknown = Reflect.get(targetEngine, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          try {
            const result: unknown = Reflect.apply(value, targetEngine, args);
            return result instanceof Promise
              ? result.catch((error: unknown) => Promise.reject(withAdapterErrors(error, factory)))
              : result;
          } catch (error) {
            throw withAdapterErrors(error, factory);
          }
        };
      },
    });
  };
  return {
    engine: () => (engine ??= create()),
    createDatabase: async () => {
      if (target === undefined) throw new UserFacingError('P1012', 'No datasource URL was given to the schema engine.');
      return { databaseName: await createDatabase(target) };
    },
  };
}

async function main(argv: readonly string[]): Promise<number> {
  const invocation = parseArgs(argv);
  switch (invocation.kind) {
    case 'version':
      process.stdout.write(`schema-engine-cli ${enginesVersion()} (prisma-bridge, wasm)\n`);
      return 0;
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case 'cli':
      return runCliCommand(invocation.command, invocation.datasource);
    case 'rpc': {
      const server = new RpcServer(engineHost(invocation.datamodels, invocation.datasource), process.stdout);
      process.on('beforeExit', () => {
        // The event loop ran dry with a request still unanswered: never let that look like success.
        if (server.inFlight > 0) {
          process.stderr.write('prisma-bridge: the WASM schema engine stopped with a request unanswered\n');
          process.exit(1);
        }
      });
      await server.serve(process.stdin);
      await dropLiveShadowDatabases();
      return server.panicked ? 101 : 0;
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void dropLiveShadowDatabases().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

try {
  process.exit(await main(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(
    `prisma-bridge schema-engine: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
