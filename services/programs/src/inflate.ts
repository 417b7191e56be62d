import { createInflate, createInflateRaw } from 'node:zlib';

/**
 * How many bytes deflated data expands to, counted and dropped as they come (never held), stopping as
 * soon as it passes `limit` (then the answer is over `limit`). `raw`: deflate without the zlib wrapper
 * (zip entries); otherwise zlib (PDF FlateDecode). Data that is not deflated, or is cut short, counts what
 * came out before the error; `failed` tells it apart.
 */
export function inflatedSize(data: Buffer, limit: number, raw: boolean): Promise<{ size: number; failed: boolean }> {
  return new Promise((resolve) => {
    const inflate = raw ? createInflateRaw() : createInflate();
    let size = 0;
    let settled = false;
    const done = (failed: boolean) => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      resolve({ size, failed });
    };
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) done(false);
    });
    inflate.on('end', () => done(false));
    inflate.on('error', () => done(true));
    inflate.end(data);
  });
}
