/**
 * `node bench/lib/profile-summary.ts <file.cpuprofile> [top]`: the "flame graph" of a V8 CPU profile as text,
 * self time summed per function and per file (package), biggest first, in % of the sampled time.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/lib/profile-summary.ts <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** node_modules/<pkg> (or the workspace file), so a package's many small functions add up. */
const fileOf = (url: string) => {
  if (!url) return '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 13).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return url.replace(/^file:\/\/.*?\/(gateway|packages|bench)\//, '$1/');
};

const perFunction = new Map<string, number>();
const perFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const where = fileOf(url);
  const name = `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`;
  perFunction.set(name, (perFunction.get(name) ?? 0) + us);
  perFile.set(where, (perFile.get(where) ?? 0) + us);
}

const print = (title: string, entries: Map<string, number>) => {
  process.stdout.write(`\n${title} (self time, ${(total / 1e6).toFixed(1)} s sampled)\n`);
  for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((us / total) * 100).toFixed(1).padStart(5)} %  ${name}\n`);
  }
};
print('per function', perFunction);
print('per file or package', perFile);
