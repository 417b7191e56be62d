import { inflatedSize } from './inflate.ts';

const STREAM = /stream\r?\n/g;
const END = Buffer.from('endstream');

/**
 * Whether the compressed (FlateDecode) streams of a PDF together expand to more than `maxExpandedBytes`:
 * a PDF bomb. Every `stream ... endstream` is inflated once, counting and dropping the output, so the check
 * itself holds no more than a chunk. Streams that are not zlib data (JPEG images, other filters) count as 0.
 */
export async function pdfExpandsPast(bytes: Buffer, maxExpandedBytes: number): Promise<boolean> {
  const text = bytes.toString('latin1');
  let total = 0;
  for (const match of text.matchAll(STREAM)) {
    const start = match.index + match[0].length;
    if (text.slice(Math.max(0, match.index - 3), match.index) === 'end') continue;
    const end = bytes.indexOf(END, start);
    if (end < 0) break;
    // Not zlib (an image, another filter) or cut short: what came out counts.
    total += (await inflatedSize(bytes.subarray(start, end), maxExpandedBytes - total, false)).size;
    if (total > maxExpandedBytes) return true;
  }
  return false;
}
