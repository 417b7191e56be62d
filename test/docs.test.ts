/**
 * The documentation a clone carries is whole: the product specification is in the repository, every
 * "spec N" a comment cites is one of its numbered sections, and relative links in the Markdown files
 * lead to files that exist (nothing points outside the repository, as `../shared/spec/...` once did).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const SKIP = new Set(['node_modules', 'dist', 'generated', 'test-results', 'playwright-report', '.git']);

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name) || name.startsWith('.')) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

const spec = readFileSync(join(root, 'docs/product-spec.md'), 'utf8');
const sections = new Set([...spec.matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1])));

describe('the documentation', () => {
  it('keeps the product specification in docs/, with its numbered sections', () => {
    expect([...sections].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('cites only sections the specification has', () => {
    const wrong: string[] = [];
    for (const file of files(root, /\.(ts|tsx|md|prisma)$/)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bspec (\d+)\b/g)) {
        if (!sections.has(Number(match[1]))) wrong.push(`${relative(root, file)}: ${match[0]}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('links only to files inside the repository that exist', () => {
    const broken: string[] = [];
    for (const file of files(root, /\.md$/)) {
      const text = readFileSync(file, 'utf8');
      if (text.includes('../shared/')) broken.push(`${relative(root, file)}: refers to ../shared/`);
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = join(dirname(file), decodeURI(target!.split('#')[0]!));
        if (!path.startsWith(root) || !existsSync(path)) broken.push(`${relative(root, file)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
