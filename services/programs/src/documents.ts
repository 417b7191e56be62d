import { createHash, randomUUID } from 'node:crypto';
import { PROGRAM_DOCUMENT_MAX_BYTES, type ProgramAnalysis } from '@app/contracts';
import { fail } from '@app/kit';
import type { LanguageModel } from '@app/llm';
import type { FastifyBaseLogger } from 'fastify';
import { analyzeImage, analyzeText, type Analysis } from './analyze.ts';
import { CONTENT_TYPES, detectType } from './detect.ts';
import { documentText, UnreadableDocument } from './extract.ts';
import type { ProgramsRepository } from './repository.ts';
import type { DocumentStorage } from './storage.ts';

/** An uploaded document as the request carried it. */
export interface Upload {
  bytes: Buffer;
  fileName: string;
}

/**
 * POST /api/analyze-referral-program: the document's type from its content, its text, the bytes kept in
 * object storage, the fields found by the model or the extractor, and the record of it. Everything that
 * refuses the document does so before anything is stored.
 */
export function documentAnalysis(deps: {
  repository: ProgramsRepository;
  storage: DocumentStorage;
  model: LanguageModel | null;
  vision: boolean;
}) {
  const { repository, storage, model, vision } = deps;

  return async function analyzeDocument(
    upload: Upload,
    uploadedBy: string,
    log: FastifyBaseLogger,
  ): Promise<ProgramAnalysis> {
    const { bytes } = upload;
    if (bytes.length === 0) fail('EMPTY_FILE');
    if (bytes.length > PROGRAM_DOCUMENT_MAX_BYTES) fail('DOCUMENT_TOO_LARGE');

    // The content decides the type; the name and the browser's MIME type are not trusted.
    const type = detectType(bytes) ?? fail('UNSUPPORTED_FILE_TYPE');
    const image = type === 'png' || type === 'jpeg';
    if (image && !(vision && model)) fail('IMAGE_NEEDS_VISION');

    // Read the text before storing, so an unreadable document leaves nothing behind.
    let text = '';
    if (!image) {
      try {
        text = await documentText(type, bytes);
      } catch (error) {
        if (!(error instanceof UnreadableDocument)) throw error;
        log.info({ type, reason: error.message }, 'unreadable program document');
        fail('DOCUMENT_UNREADABLE');
      }
      if (!text.trim()) fail('DOCUMENT_HAS_NO_TEXT');
    }

    const documentId = randomUUID();
    const fileName = (upload.fileName || 'document').slice(0, 255);
    const storageKey = `documents/${documentId}.${type}`;
    await storage.put(storageKey, bytes, CONTENT_TYPES[type]);

    const analysis: Analysis | null =
      image && model
        ? await analyzeImage(bytes, CONTENT_TYPES[type], fileName, model, log)
        : await analyzeText(text, fileName, model, log);
    const result: ProgramAnalysis | null = analysis ? { ...analysis, documentId } : null;
    await repository.recordDocument({
      id: documentId,
      storageKey,
      originalFileName: fileName,
      detectedType: type,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      uploadedBy,
      ...(result ? { analysis: result } : {}),
    });
    return result ?? fail('ANALYSIS_UNAVAILABLE');
  };
}

export type DocumentAnalysis = ReturnType<typeof documentAnalysis>;
