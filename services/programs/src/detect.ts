/** Document types recognized from their content (never from the file name). */
export type DocumentType = 'pdf' | 'docx' | 'doc' | 'txt' | 'png' | 'jpeg';

export const CONTENT_TYPES: Record<DocumentType, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  txt: 'text/plain; charset=utf-8',
  png: 'image/png',
  jpeg: 'image/jpeg',
};

const startsWith = (bytes: Buffer, magic: number[]) => magic.every((byte, index) => bytes[index] === byte);

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/** The names of a zip archive's entries, read from its central directory; null when it is not a readable zip. */
export function zipEntryNames(bytes: Buffer): string[] | null {
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
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== 0x02014b50) return null;
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    names.push(bytes.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

const WORD_STREAM = Buffer.from('WordDocument', 'utf16le');

/** Valid UTF-8 without NUL bytes (a BOM is allowed). */
function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The document's type from its bytes, or null when it is none of the supported ones. */
export function detectType(bytes: Buffer): DocumentType | null {
  if (startsWith(bytes, PDF)) return 'pdf';
  if (startsWith(bytes, PNG)) return 'png';
  if (startsWith(bytes, JPEG)) return 'jpeg';
  if (startsWith(bytes, ZIP)) return zipEntryNames(bytes)?.includes('word/document.xml') ? 'docx' : null;
  // An OLE compound file is also what .xls and .ppt are: only one with a WordDocument stream is a .doc.
  if (startsWith(bytes, OLE)) return bytes.includes(WORD_STREAM) ? 'doc' : null;
  return isText(bytes) ? 'txt' : null;
}
