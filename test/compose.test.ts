/**
 * docker-compose.yml, as `docker-compose config` resolves it (offline, no engine): every container has a
 * healthcheck and starts after what it needs is healthy, images are pinned, each process gets what it
 * needs to start and every README variable it reads, NATS users match the generated ones, and
 * .env.example lists exactly the variables the file reads.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEPLOYED_PROCESSES, requiredVariables, variablesToSet } from '../scripts/deploy/processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const INTERNAL_SECRET = 'compose-test-'.padEnd(48, 'x');

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string | number | null>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  ports?: unknown[];
  volumes?: unknown[];
  profiles?: string[];
}

function composeBinary(): string[] {
  const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
  if (has('docker-compose')) return ['docker-compose'];
  if (has('docker') && spawnSync('docker', ['compose', 'version']).status === 0) return ['docker', 'compose'];
  throw new Error(
    'docker-compose not found: the compose test validates docker-compose.yml with `docker-compose config` ' +
      "(offline, no engine). Install Debian's docker-compose (apt-get install -y docker-compose); .ci/run does.",
  );
}

function resolvedCompose(): Record<string, ComposeService> {
  // An empty env file: a developer's own .env must not change what is checked.
  const envFile = join(mkdtempSync(join(tmpdir(), 'compose-')), 'empty.env');
  writeFileSync(envFile, '');
  const [binary, ...args] = composeBinary();
  const result = spawnSync(binary!, [...args, '--env-file', envFile, '-f', `${root}docker-compose.yml`, 'config'], {
    cwd: root,
    env: { PATH: process.env.PATH, INTERNAL_SECRET },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`docker-compose config failed:\n${result.stderr}`);
  return (parse(result.stdout) as { services: Record<string, ComposeService> }).services;
}

const services = resolvedCompose();
const text = readFileSync(`${root}docker-compose.yml`, 'utf8');

describe('docker-compose.yml', () => {
  it('gives every container a healthcheck and starts each after what it needs is healthy', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck?.test, `${name} healthcheck`).toBeDefined();
      expect(service.healthcheck?.disable, name).not.toBe(true);
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(condition, `${name} -> ${dependency}`).toBe('service_healthy');
      }
    }
    for (const process of DEPLOYED_PROCESSES) {
      expect(Object.keys(services[process.name]!.depends_on ?? {}), process.name).toContain('nats');
    }
  });

  it('pins every image to a published version (no latest, no minio/minio)', () => {
    for (const [name, service] of Object.entries(services)) {
      const image = service.image!;
      expect(image, name).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(image, name).not.toMatch(/:latest$/);
      expect(image, name).not.toMatch(/^minio\//);
    }
  });

  it.each(DEPLOYED_PROCESSES.map((process) => [process.name, process] as const))(
    '%s: runs its main.ts with every variable it needs and every README variable it reads',
    (name, process) => {
      const service = services[name]!;
      expect(service.command).toEqual(['node', process.main]);
      const env = Object.fromEntries(
        Object.entries(service.environment ?? {}).map(([key, value]) => [key, value === null ? '' : String(value)]),
      );
      expect(variablesToSet(process).filter((variable) => !(variable in env))).toEqual([]);
      for (const variable of requiredVariables(process)) expect(env[variable], `${name} ${variable}`).not.toBe('');
      const parsed = process.schema.safeParse(
        Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')),
      );
      expect(parsed.error?.issues ?? [], `${name}'s configuration`).toEqual([]);
    },
  );

  it('connects each process to NATS as its own user, with the generated permissions', () => {
    const nats = services.nats!;
    expect(JSON.stringify(nats.volumes)).toContain('deploy/k8s/base/nats/auth.conf');
    expect(JSON.stringify(nats.ports)).toMatch(/8222/);
    for (const process of DEPLOYED_PROCESSES) {
      const url = new URL(String(services[process.name]!.environment!.NATS_URL).replace(/^nats:/, 'http:'));
      expect(url.username).toBe(process.name);
      expect(url.password).toBe(nats.environment![`NATS_${process.name.toUpperCase()}_PASSWORD`]);
    }
    // The operator's replay tool (profile "tools", never started by `up`) is the replay user.
    const replay = services['events-replay']!;
    const url = new URL(String(replay.environment!.NATS_URL).replace(/^nats:/, 'http:'));
    expect([url.username, url.password]).toEqual(['replay', nats.environment!.NATS_REPLAY_PASSWORD]);
    expect(replay.profiles).toEqual(['tools']);
  });

  it('publishes only the gateway, the Mailpit inbox and NATS monitoring on the host', () => {
    const published = Object.entries(services)
      .filter(([, service]) => service.ports?.length)
      .map(([name]) => name)
      .sort();
    expect(published).toEqual(['gateway', 'mailpit', 'nats']);
  });

  it('.env.example lists exactly the variables docker-compose.yml reads, each explained', () => {
    const read = new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!));
    const lines = readFileSync(`${root}.env.example`, 'utf8').split('\n');
    const listed = lines.filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line)).map((line) => line.split('=')[0]!);
    expect([...listed].sort()).toEqual([...read].sort());
    // Each variable sits under a comment (alone or in a group of variables the comment explains).
    lines.forEach((line, index) => {
      if (!/^[A-Z]/.test(line)) return;
      const above = lines
        .slice(0, index)
        .reverse()
        .find((previous) => !/^[A-Z]/.test(previous));
      expect(above, `${line} has a comment`).toMatch(/^#/);
    });
  });
});
