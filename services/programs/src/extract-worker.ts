/**
 * Runs in a worker thread (extract.ts): reads the text of one PDF, DOCX or DOC, so the main thread can
 * bound its memory and time and terminate it. Answers `{ text }`, `{ tooLong: true }` once the text passes
 * `maxChars`, or `{ unreadable: message }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import mammoth from 'mammoth';
import { getDocumentProxy } from 'unpdf';
import WordExtractor from 'word-extractor';

interface Job {
  type: 'pdf' | 'docx' | 'doc';
  bytes: Uint8Array;
  maxChars: number;
}

class TooLong extends Error {}

/** The text of a PDF, page by page, stopping as soon as it passes the limit (unpdf's extractText joins). */
async function pdfText(bytes: Uint8Array, maxChars: number): Promise<string> {
  const pdf = await getDocumentProxy(bytes);
  try {
    const pages: string[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const content = await (await pdf.getPage(number)).getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      length += text.length + 1;
      if (length > maxChars) throw new TooLong();
      pages.push(text);
    }
    return pages
      .join('\n')
      .replace(/[^\S\n]+/g, ' ')
      .replace(/ ?\n ?/g, '\n');
  } finally {
    await pdf.destroy();
  }
}

async function extract({ type, bytes, maxChars }: Job): Promise<string> {
  switch (type) {
    case 'pdf':
      return pdfText(bytes, maxChars);
    case 'docx':
      return (await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) }))
        .value;
    case 'doc':
      return (await new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length))).getBody();
  }
}

const job = workerData as Job;
try {
  const text = await extract(job);
  parentPort!.postMessage(text.length > job.maxChars ? { tooLong: true } : { text });
} catch (error) {
  parentPort!.postMessage(
    error instanceof TooLong
      ? { tooLong: true }
      : { unreadable: error instanceof Error ? error.message : String(error) },
  );
}
