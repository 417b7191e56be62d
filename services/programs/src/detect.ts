import { zipEntries } from './zip.ts';

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
  if (startsWith(bytes, ZIP))
    return zipEntries(bytes)?.some((entry) => entry.name === 'word/document.xml') ? 'docx' : null;
  // An OLE compound file is also what .xls and .ppt are: only one with a WordDocument stream is a .doc.
  if (startsWith(bytes, OLE)) return bytes.includes(WORD_STREAM) ? 'doc' : null;
  return isText(bytes) ? 'txt' : null;
}
