// Loads the WASM schema engine that ships inside the `prisma` CLI package
// (node_modules/prisma/build/schema_engine_bg.wasm) with the wasm-bindgen JS glue
// of the published `@prisma/schema-engine-wasm` package (same import/export surface).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as glue from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { ErrorCapturingSqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

export type { SchemaEngine };

/** Where a Rust panic inside the WASM engine leaves its message (the glue calls `set_message`). */
export const panicRegistry = {
  message: '',
  set_message(value: string): void {
    panicRegistry.message = value;
  },
};

declare global {
  var PRISMA_WASM_PANIC_REGISTRY: typeof panicRegistry | undefined;
}

const requireFromHere = createRequire(import.meta.url);

// The slice of the WebAssembly JS API used here (the `WebAssembly` global is typed only by lib.dom).
interface WasmModule {
  readonly brand?: 'WebAssembly.Module';
}
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(
    module: WasmModule,
    imports: Record<string, Record<string, unknown>>,
  ): Promise<{ exports: Record<string, unknown> }>;
  Module: { imports(module: WasmModule): { module: string; name: string; kind: string }[] };
  RuntimeError: new (message?: string) => Error;
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Path of the WASM schema engine bundled with the installed prisma CLI. */
export function bundledWasmPath(): string {
  return path.join(path.dirname(requireFromHere.resolve('prisma/package.json')), 'build', 'schema_engine_bg.wasm');
}

/** Engine commit of the installed prisma CLI, e.g. `d1b3f377...` (what `schema-engine --version` reports). */
export function enginesVersion(): string {
  const prismaRequire = createRequire(requireFromHere.resolve('prisma/package.json'));
  const enginesRequire = createRequire(prismaRequire.resolve('@prisma/engines/package.json'));
  const pkg = enginesRequire('@prisma/engines-version/package.json') as { prisma?: { enginesVersion?: string } };
  return pkg.prisma?.enginesVersion ?? 'unknown';
}

let initialized: Promise<void> | undefined;

async function instantiate(): Promise<void> {
  globalThis.PRISMA_WASM_PANIC_REGISTRY = panicRegistry;
  const bytes = await readFile(bundledWasmPath());
  const imports: Record<string, unknown> = { ...glue };
  // The engine schedules timers (pool/idle housekeeping); unref them so they never keep the process alive.
  const setTimeoutImport = Object.keys(imports).find((name) => name.startsWith('__wbg_setTimeout_'));
  if (setTimeoutImport === undefined) throw new Error('prisma-bridge: wasm glue has no setTimeout import');
  imports[setTimeoutImport] = (callback: () => void, ms: number) => setTimeout(callback, ms >>> 0).unref();
  const module = await wasmApi.compile(bytes);
  const missing = wasmApi.Module.imports(module).filter((imp) => typeof imports[imp.name] !== 'function');
  if (missing.length > 0) {
    throw new Error(
      `prisma-bridge: wasm glue does not match ${bundledWasmPath()}: missing ${missing.map((m) => m.name).join(', ')}`,
    );
  }
  const instance = await wasmApi.instantiate(module, { './schema_engine_bg.js': imports });
  glue.__wbg_set_wasm(instance.exports);
  const start = instance.exports['__wbindgen_start'];
  if (typeof start === 'function') start();
}

export async function createSchemaEngine(
  datamodels: [string, string][] | undefined,
  log: (line: string) => void,
  adapterFactory: ErrorCapturingSqlMigrationAwareDriverAdapterFactory,
): Promise<SchemaEngine> {
  initialized ??= instantiate();
  await initialized;
  return glue.SchemaEngine.new({ datamodels }, log, adapterFactory);
}

/** A Rust panic surfaces as a WebAssembly.RuntimeError ("unreachable"); its message is in `panicRegistry`. */
export function isWasmPanic(error: unknown): error is Error {
  return error instanceof wasmApi.RuntimeError;
}
