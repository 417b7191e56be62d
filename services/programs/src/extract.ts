import mammoth from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';
import WordExtractor from 'word-extractor';
import type { DocumentType } from './detect.ts';

/** The document could not be read although its type is supported (damaged, encrypted...). */
export class UnreadableDocument extends Error {}

/** Line endings normalized, trailing spaces per line and a BOM dropped; nothing else changes. */
export function normalizeText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The text of a PDF, DOCX, DOC or TXT document (images have none: the model reads them). */
export async function documentText(type: Exclude<DocumentType, 'png' | 'jpeg'>, bytes: Buffer): Promise<string> {
  try {
    switch (type) {
      case 'txt':
        return normalizeText(bytes.toString('utf8'));
      case 'pdf': {
        const pdf = await getDocumentProxy(new Uint8Array(bytes));
        try {
          const { text } = await extractText(pdf, { mergePages: true });
          return normalizeText(text);
        } finally {
          await pdf.destroy();
        }
      }
      case 'docx':
        return normalizeText((await mammoth.extractRawText({ buffer: bytes })).value);
      case 'doc':
        return normalizeText((await new WordExtractor().extract(bytes)).getBody());
    }
  } catch (error) {
    throw new UnreadableDocument(error instanceof Error ? error.message : String(error));
  }
}
