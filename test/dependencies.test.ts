/**
 * Every runtime dependency a workspace declares is imported by that workspace's own code: a dependency
 * nobody uses (the gateway once declared @fastify/http-proxy and @fastify/cookie) is dead weight in every
 * image and a wrong map for the next reader.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const workspaces = [
  'gateway',
  'web',
  ...['services', 'packages'].flatMap((dir) => readdirSync(join(root, dir)).map((name) => `${dir}/${name}`)),
];

/** Used without an import in the workspace's code, and why. */
const USED_OTHERWISE: Record<string, string> = {
  '@prisma/client': 'the generated Prisma client imports it',
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name === 'generated' || name.startsWith('.')) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|js|mjs)$/.test(name) ? [path] : [];
  });
}

describe('declared dependencies', () => {
  for (const workspace of workspaces) {
    const manifest = join(root, workspace, 'package.json');
    let dependencies: string[];
    try {
      dependencies = Object.keys(JSON.parse(readFileSync(manifest, 'utf8')).dependencies ?? {});
    } catch {
      continue;
    }
    it(`${workspace} imports every dependency it declares`, () => {
      const code = sources(join(root, workspace))
        .map((file) => readFileSync(file, 'utf8'))
        .join('\n');
      const unused = dependencies.filter((name) => {
        if (USED_OTHERWISE[name]) return false;
        const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
        return !new RegExp(`(from|import\\(|require\\()\\s*['"]${escaped}(/[^'"]*)?['"]`).test(code);
      });
      expect(unused).toEqual([]);
    });
  }
});
