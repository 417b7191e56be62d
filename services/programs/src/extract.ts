import { Worker } from 'node:worker_threads';
import type { DocumentType } from './detect.ts';
import { pdfExpandsPast } from './pdf.ts';
import { checkZip } from './zip.ts';

/** The document could not be read although its type is supported (damaged, encrypted...). */
export class UnreadableDocument extends Error {}

/** The document expands past the limits (a zip or PDF bomb, too much text, too slow to read). */
export class DocumentTooComplex extends Error {}

/** How much reading one document may take; see docs/product-decisions.md (Hardening). */
export interface ExtractionLimits {
  /** The most text kept from a document, in characters. */
  maxChars: number;
  /** A DOCX's entries, or a PDF's compressed streams, together expand to at most this many bytes... */
  maxExpandedBytes: number;
  /** ...and a DOCX to at most this many times its own size (once past 1 MB). */
  maxRatio: number;
  /** The reader (a worker thread) is stopped after this long. */
  timeoutMs: number;
  /** The reader's JavaScript heap, in MB: past it the worker is stopped, never the service. */
  maxHeapMb: number;
}

export const EXTRACTION_LIMITS: ExtractionLimits = {
  maxChars: 1_000_000,
  maxExpandedBytes: 50 * 1024 * 1024,
  maxRatio: 100,
  timeoutMs: 20_000,
  maxHeapMb: 256,
};

/** Page breaks, vertical tabs and Unicode line and paragraph separators: line breaks of the text. */
const LINE_BREAKS = /[\f\v\u2028\u2029]/g;
/**
 * What the text rule refuses in a multi-line field (packages/contracts/src/common.ts): control characters
 * but line feeds and tabs, lone surrogates, format characters but the zero-width (non-)joiner. Left in, the
 * analysis would fill the program form with text it cannot save.
 */
const NOT_TEXT = /(?![\n\t])\p{Cc}|\p{Cs}|(?![\u200C\u200D])\p{Cf}/gu;

/**
 * Line endings normalized, trailing spaces per line and a BOM dropped, characters the program form refuses
 * (escape sequences, bidi overrides, NUL...) removed; nothing else changes.
 */
export function normalizeText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(LINE_BREAKS, '\n')
    .replace(NOT_TEXT, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

type WorkerAnswer = { text: string } | { tooLong: true } | { unreadable: string };

/** Runs the reader in a worker thread with a bounded heap and a time limit; the worker ends either way. */
function readInWorker(type: 'pdf' | 'docx' | 'doc', bytes: Buffer, limits: ExtractionLimits): Promise<string> {
  // A copy the worker owns (transferred, not copied again); the caller keeps its bytes for storage.
  const copy = new Uint8Array(bytes);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./extract-worker.ts', import.meta.url), {
      workerData: { type, bytes: copy, maxChars: limits.maxChars },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => settle(() => reject(new DocumentTooComplex(`reading took longer than ${limits.timeoutMs} ms`))),
      limits.timeoutMs,
    );
    worker.once('message', (answer: WorkerAnswer) =>
      settle(() => {
        if ('text' in answer) resolve(answer.text);
        else if ('tooLong' in answer) reject(new DocumentTooComplex(`more than ${limits.maxChars} characters`));
        else reject(new UnreadableDocument(answer.unreadable));
      }),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new DocumentTooComplex('reading needed more memory than allowed')
            : new UnreadableDocument(error.message),
        ),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new UnreadableDocument(`the reader stopped (exit code ${code})`))),
    );
  });
}

/**
 * The text of a PDF, DOCX, DOC or TXT document (images have none: the model reads them), within the limits:
 * a DOCX or PDF is checked before anything expands it (sizes counted while inflating, output dropped), PDF,
 * DOCX and DOC are read in a worker thread with a bounded heap and a time limit, and the text is refused past
 * `maxChars`.
 */
export async function documentText(
  type: Exclude<DocumentType, 'png' | 'jpeg'>,
  bytes: Buffer,
  limits: ExtractionLimits = EXTRACTION_LIMITS,
): Promise<string> {
  if (type === 'txt') {
    const text = normalizeText(bytes.toString('utf8'));
    if (text.length > limits.maxChars) throw new DocumentTooComplex(`more than ${limits.maxChars} characters`);
    return text;
  }
  if (type === 'docx') {
    const refusal = await checkZip(bytes, limits);
    if (refusal === 'too-complex') throw new DocumentTooComplex('the archive expands past the limits');
    if (refusal === 'unreadable') throw new UnreadableDocument('not a readable zip archive');
  }
  if (type === 'pdf' && (await pdfExpandsPast(bytes, limits.maxExpandedBytes)))
    throw new DocumentTooComplex('the compressed streams expand past the limits');
  return normalizeText(await readInWorker(type, bytes, limits));
}
