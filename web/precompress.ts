/**
 * Compressed copies of the built files, written beside them at build time (`x.js.br`, `x.js.gz`): the
 * gateway serves them to browsers that accept them (@fastify/static `preCompressed`), so a visitor downloads
 * the landing page's JavaScript at its compressed size with no compression work per request. Files the
 * server never sends (`.vite/`, the manifest) and files too small to gain are left alone; a copy that would
 * not be smaller is not written (the gateway then sends the file as it is).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text the browser loads: what compresses. Images and fonts are compressed formats already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|ico)$/;
/** Below this a compressed answer saves less than a packet. */
const MIN_BYTES = 1024;

export interface Precompressed {
  /** Relative to the folder. */
  file: string;
  raw: number;
  br: number | null;
  gz: number | null;
}

async function filesOf(dir: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue; // .vite/manifest.json: read by scripts, never served
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await filesOf(dir, path)));
    else if (COMPRESSIBLE.test(entry.name)) files.push(path);
  }
  return files;
}

/** Writes `.br` (quality 11) and `.gz` (level 9) beside every compressible file of the folder. */
export async function precompress(dir: string): Promise<Precompressed[]> {
  const files = await filesOf(dir);
  return Promise.all(
    files.map(async (file): Promise<Precompressed> => {
      const bytes = await readFile(join(dir, file));
      if (bytes.length < MIN_BYTES) return { file, raw: bytes.length, br: null, gz: null };
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        }),
        gzipped(bytes, { level: 9 }),
      ]);
      const write = async (copy: Buffer, extension: string) => {
        if (copy.length >= bytes.length) return null;
        await writeFile(join(dir, `${file}${extension}`), copy);
        return copy.length;
      };
      return { file, raw: bytes.length, br: await write(br, '.br'), gz: await write(gz, '.gz') };
    }),
  );
}

/** The Vite plugin: compressed copies of the build's output once it is written. */
export function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      await precompress(outDir);
    },
  };
}
