/**
 * deploy/Dockerfile and .dockerignore, read as text (no Docker engine runs here): the runtime stage has
 * production dependencies of everything the processes import, their sources and migrations, runs as a
 * non-root user and has a HEALTHCHECK that finds each process's port.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEPLOYED_PROCESSES } from '../scripts/deploy/processes.ts';
import { HEALTH_PORTS } from '../scripts/healthcheck.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dockerfile = readFileSync(`${root}deploy/Dockerfile`, 'utf8');
const stages = dockerfile.split(/^FROM /m);
const runtime = stages.at(-1)!;
const ignored = readFileSync(`${root}.dockerignore`, 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('#'));

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}
const manifest = (dir: string) => JSON.parse(readFileSync(`${root}${dir}/package.json`, 'utf8')) as Manifest;
const workspaceDirs = [
  'gateway',
  ...['auth', 'referrals', 'programs', 'profiles', 'ai', 'mail'].map((s) => `services/${s}`),
];
const byName = new Map<string, string>();
for (const dir of [
  ...workspaceDirs,
  'packages/contracts',
  'packages/domain',
  'packages/kit',
  'packages/llm',
  'packages/testing',
  'packages/prisma-bridge',
]) {
  byName.set(manifest(dir).name, dir);
}

/** The workspaces a process needs at run time: its own and every @app/* it depends on, transitively. */
function runtimeWorkspaces(): Set<string> {
  const needed = new Set<string>();
  const visit = (dir: string) => {
    if (needed.has(dir)) return;
    needed.add(dir);
    for (const name of Object.keys(manifest(dir).dependencies ?? {})) {
      const found = byName.get(name);
      if (found) visit(found);
      else if (name.startsWith('@app/')) throw new Error(`${dir} depends on unknown workspace ${name}`);
    }
  };
  for (const dir of workspaceDirs) visit(dir);
  return needed;
}

describe('deploy/Dockerfile', () => {
  it('installs production dependencies only, for every workspace the processes import', () => {
    const install = stages.find((stage) => stage.includes('--omit=dev'))!;
    expect(install).toMatch(/npm ci --omit=dev/);
    const listed = new Set([...install.matchAll(/-w ([\w/-]+)/g)].map((match) => match[1]));
    expect([...runtimeWorkspaces()].filter((dir) => !listed.has(dir))).toEqual([]);
    expect(runtime).toContain('COPY --from=deps /app/ ./');
  });

  it('copies what each process runs: its sources, generated clients and migrations, the web app, the scripts', () => {
    for (const dir of runtimeWorkspaces()) {
      const copied = dir.startsWith('services/') ? 'services/' : `${dir}/src`;
      expect(runtime, dir).toContain(`/app/${copied}`);
    }
    expect(runtime).toContain('/app/packages/kit/migrations');
    expect(runtime).toContain('/app/web/dist');
    for (const script of [
      'scripts/migrate.ts',
      'scripts/healthcheck.ts',
      'scripts/replay-events.ts',
      'scripts/deploy/topology.ts',
    ]) {
      expect(runtime).toContain(`/app/${script}`);
      expect(existsSync(`${root}${script}`)).toBe(true);
    }
  });

  it('runs as a non-root user with a HEALTHCHECK', () => {
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*scripts\/healthcheck\.ts/m);
    expect(runtime).not.toMatch(/apt-get install/);
  });

  it('.dockerignore keeps history, local state, tests and tools out of the build context', () => {
    for (const entry of ['.git', '.data', '.env', '**/node_modules', '**/test', 'e2e', 'bench', 'loadtest', 'docs']) {
      expect(ignored).toContain(entry);
    }
  });

  it("the healthcheck knows each process's port variable and default (its config schema's)", () => {
    for (const process of DEPLOYED_PROCESSES) {
      const { variable, port } = HEALTH_PORTS[process.name]!;
      const field = process.schema.shape[variable] as { parse(value: unknown): unknown } | undefined;
      expect(field, `${process.name} reads ${variable}`).toBeDefined();
      expect(field!.parse(undefined)).toBe(port);
    }
  });
});
