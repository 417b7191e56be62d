import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompress } from '../web/precompress.ts';

const dir = mkdtempSync(join(tmpdir(), 'precompress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the build's compressed copies (web/precompress.ts)", () => {
  it('writes .br and .gz beside the text files the gateway serves, each decoding to the file', async () => {
    const script = 'export const x = 1;\n'.repeat(500);
    const styles = '.a { color: red }\n'.repeat(200);
    mkdirSync(join(dir, 'assets'));
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<p>hello</p>'.repeat(100)}`);
    writeFileSync(join(dir, 'assets', 'app-1.js'), script);
    writeFileSync(join(dir, 'assets', 'app-1.css'), styles);
    writeFileSync(join(dir, 'assets', 'tiny-1.js'), 'export {}'); // too small to gain
    writeFileSync(join(dir, 'assets', 'noise-1.js'), randomBytes(4096)); // does not compress
    writeFileSync(join(dir, 'assets', 'logo.png'), Buffer.alloc(4096)); // an image: not text
    writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify({ a: 'x'.repeat(4000) })); // never served

    const written = await precompress(dir);

    for (const [file, text] of [
      ['assets/app-1.js', script],
      ['assets/app-1.css', styles],
    ] as const) {
      expect(brotliDecompressSync(readFileSync(join(dir, `${file}.br`))).toString(), file).toBe(text);
      expect(gunzipSync(readFileSync(join(dir, `${file}.gz`))).toString(), file).toBe(text);
      const row = written.find((entry) => entry.file === file)!;
      expect(row.br).toBeLessThan(row.raw / 10);
      expect(row.gz).toBeLessThan(row.raw / 10);
    }
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    for (const file of ['assets/tiny-1.js', 'assets/noise-1.js', 'assets/logo.png', '.vite/manifest.json']) {
      expect(existsSync(join(dir, `${file}.br`)), file).toBe(false);
      expect(existsSync(join(dir, `${file}.gz`)), file).toBe(false);
    }
    expect(written.map((entry) => entry.file).sort()).toEqual([
      'assets/app-1.css',
      'assets/app-1.js',
      'assets/noise-1.js',
      'assets/tiny-1.js',
      'index.html',
    ]);

    // A second build over the same folder compresses the files again, not their copies.
    expect((await precompress(dir)).map((entry) => entry.file).sort()).toEqual(
      written.map((entry) => entry.file).sort(),
    );
  });
});
