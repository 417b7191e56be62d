/**
 * `node bench/compression.ts [answer.json ...]`: what compressing an API answer costs the gateway and saves
 * the browser, at the levels the gateway uses (gateway/src/compression.ts: brotli quality 1, gzip level 3)
 * and a few others, as bytes and CPU time per answer (the mean of many sync calls of node:zlib, the library
 * the gateway's streams use). The answers: `BENCH_SAVE_ANSWERS=<dir> npm run bench:referrals` writes the
 * Tee ups page's (list-dashboard.json, ~48 KB for 25 referrals with their histories and money); without
 * arguments, those in bench/results/answers/. See bench/README.md, "Compression".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const folder = new URL('results/answers/', import.meta.url).pathname;
const files = process.argv.slice(2);
if (files.length === 0) {
  try {
    files.push(...readdirSync(folder).map((file) => join(folder, file)));
  } catch {
    // no saved answers
  }
}
if (files.length === 0) {
  console.error(
    'No answers: BENCH_SAVE_ANSWERS=bench/results/answers npm run bench:referrals, or name JSON files as arguments.',
  );
  process.exit(2);
}

const brotli = (quality: number) => (body: Buffer) =>
  brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
const levels: Array<[string, (body: Buffer) => Buffer]> = [
  ['brotli 1 (the gateway)', brotli(1)],
  ['brotli 4', brotli(4)],
  ['brotli 11 (static files)', brotli(11)],
  ['gzip 3 (the gateway)', (body) => gzipSync(body, { level: 3 })],
  ['gzip 6', (body) => gzipSync(body, { level: 6 })],
];

/** CPU time per call (us): this process's, over enough calls to last ~0.3 s, after a warm-up. */
function cost(compress: (body: Buffer) => Buffer, body: Buffer) {
  for (let i = 0; i < 10; i++) compress(body);
  let calls = 0;
  const start = process.cpuUsage();
  const until = performance.now() + 300;
  while (performance.now() < until) {
    compress(body);
    calls++;
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

for (const file of files) {
  const body = readFileSync(file);
  console.log(`\n${basename(file)}: ${(body.length / 1024).toFixed(1)} KB`);
  console.log('level                     |   bytes | smaller by | CPU us per answer');
  for (const [label, compress] of levels) {
    const size = compress(body).length;
    const us = cost(compress, body);
    console.log(
      `${label.padEnd(25)} | ${String(size).padStart(7)} | ${`${(body.length / size).toFixed(1)}x`.padStart(10)} | ${us.toFixed(0).padStart(6)}`,
    );
  }
}
