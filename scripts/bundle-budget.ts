/**
 * Bundle budget of the landing page (issue 5; 80 KB since issue 15, was 100): the gzip size of the JavaScript
 * the browser loads for `/` when signed out: the entry chunk, its static imports, and the landing chunk with its
 * static imports. The app's chunk (React Router, TanStack Query, route tables) is not among them: the entry
 * (web/src/app/start.tsx) loads it only when the visitor leaves the landing page or is signed in.
 * The gateway sends each file as the build's brotli copy (web/precompress.ts) to browsers that accept it: that
 * size is printed too, and a landing file without its copy fails like a budget overrun.
 * Run after `npm run build -w web`: `node scripts/bundle-budget.ts [--budget KB]`. Exit 1 above the budget.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const DEFAULT_BUDGET_KB = 80;
const LANDING_SRC = 'src/features/landing/components/landing-page.tsx';

const dist = new URL('../web/dist/', import.meta.url).pathname;
const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`No ${manifestPath}: run \`npm run build -w web\` first (build.manifest is on in web/vite.config.ts).`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;

const flag = process.argv.indexOf('--budget');
const budgetKb = flag > 0 ? Number(process.argv[flag + 1]) : DEFAULT_BUDGET_KB;

const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
if (!entryKey) throw new Error('The manifest has no entry chunk');
if (!manifest[LANDING_SRC])
  throw new Error(`The manifest has no chunk for ${LANDING_SRC}: is the landing page still lazily loaded?`);

/** A chunk and everything it imports statically (what the browser must fetch before running it). */
function closure(key: string, into: Set<string>): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, into);
  return into;
}

const keys = closure(LANDING_SRC, closure(entryKey, new Set()));
const rows = [...keys]
  .map((key) => {
    const file = manifest[key]!.file;
    const bytes = readFileSync(join(dist, file));
    // What a browser is sent: the build's brotli copy (web/precompress.ts), which the gateway serves.
    const served = join(dist, `${file}.br`);
    const br = existsSync(served) ? readFileSync(served).length : null;
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, br };
  })
  .filter((r) => r.file.endsWith('.js'))
  .sort((a, b) => b.gzip - a.gzip);

const kb = (n: number) => (n / 1024).toFixed(2);
for (const r of rows)
  console.log(
    `${kb(r.gzip).padStart(8)} KB gzip  ${(r.br === null ? '-' : kb(r.br)).padStart(8)} KB brotli  ${kb(r.raw).padStart(8)} KB  ${r.file}`,
  );
const total = rows.reduce((sum, r) => sum + r.gzip, 0);
const servedTotal = rows.reduce((sum, r) => sum + (r.br ?? r.raw), 0);
console.log(`Landing page JavaScript: ${kb(total)} KB gzip in ${rows.length} files (budget ${budgetKb} KB)`);
console.log(`Sent to a browser that accepts brotli (the build's .br copies): ${kb(servedTotal)} KB`);
let failed = false;
// Without the copies the gateway sends the files as they are: the budget would hold on paper only.
for (const r of rows.filter((row) => row.br === null && row.raw >= 1024)) {
  console.error(`${r.file} has no compressed copy (${r.file}.br): is web/precompress.ts still in the build?`);
  failed = true;
}
if (total > budgetKb * 1024) {
  console.error(`Over budget by ${kb(total - budgetKb * 1024)} KB`);
  failed = true;
}
if (failed) process.exit(1);
