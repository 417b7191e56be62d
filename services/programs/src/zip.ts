import { inflatedSize } from './inflate.ts';

/** One entry of a zip archive's central directory. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (the only two a DOCX reader supports). */
  method: number;
  compressedSize: number;
  /** As the archive declares it: it may lie, so it is checked while inflating. */
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** The entries of a zip archive, read from its central directory; null when it is not a readable zip. */
export function zipEntries(bytes: Buffer): ZipEntry[] | null {
  if (bytes.length < 22) return null;
  // End of central directory: signature PK\5\6, at most 65,535 + 22 bytes from the end (comment).
  const floor = Math.max(0, bytes.length - 65_557);
  let end = -1;
  for (let i = bytes.length - 22; i >= floor; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== 0x02014b50) return null;
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    entries.push({
      name: bytes.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'),
      method: bytes.readUInt16LE(offset + 10),
      compressedSize: bytes.readUInt32LE(offset + 20),
      uncompressedSize: bytes.readUInt32LE(offset + 24),
      localHeaderOffset: bytes.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export interface ZipLimits {
  /** The most bytes all entries together may expand to. */
  maxExpandedBytes: number;
  /** The most the archive may expand relative to its own size, once it expands past 1 MB. */
  maxRatio: number;
}

/** Why an archive is refused: it expands too much (a zip bomb), or it cannot be read at all. */
export type ZipRefusal = 'too-complex' | 'unreadable';

const RATIO_FLOOR = 1024 * 1024;

/**
 * Checks that a zip archive stays within the limits before any reader expands it: first the sizes its
 * central directory declares, then (sizes can lie) by inflating every entry, counting and dropping the
 * output, stopping once past the remaining budget: nothing but a chunk is ever held. Null when it is fine.
 */
export async function checkZip(bytes: Buffer, limits: ZipLimits): Promise<ZipRefusal | null> {
  const entries = zipEntries(bytes);
  if (!entries) return 'unreadable';
  const tooMuch = (expanded: number) =>
    expanded > limits.maxExpandedBytes || (expanded > RATIO_FLOOR && expanded > bytes.length * limits.maxRatio);

  const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (tooMuch(declared)) return 'too-complex';

  let expanded = 0;
  for (const entry of entries) {
    const local = entry.localHeaderOffset;
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) return 'unreadable';
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + entry.compressedSize > bytes.length) return 'unreadable';
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) expanded += data.length;
    else if (entry.method === 8) {
      const inflated = await inflatedSize(data, limits.maxExpandedBytes - expanded, true);
      expanded += inflated.size;
      if (tooMuch(expanded)) return 'too-complex';
      if (inflated.failed) return 'unreadable';
    } else return 'unreadable';
    if (tooMuch(expanded)) return 'too-complex';
  }
  return null;
}
