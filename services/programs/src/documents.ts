import { createHash, randomUUID } from 'node:crypto';
import { PROGRAM_DOCUMENT_MAX_BYTES, type ProgramAnalysis } from '@app/contracts';
import { fail } from '@app/kit';
import type { LanguageModel } from '@app/llm';
import type { FastifyBaseLogger } from 'fastify';
import { analyzeImage, analyzeText, type Analysis } from './analyze.ts';
import { CONTENT_TYPES, detectType } from './detect.ts';
import {
  documentText,
  DocumentTooComplex,
  EXTRACTION_LIMITS,
  UnreadableDocument,
  type ExtractionLimits,
} from './extract.ts';
import type { ProgramsRepository } from './repository.ts';
import type { DocumentStorage } from './storage.ts';

/** An uploaded document as the request carried it (the name already cleaned: `cleanFileName`). */
export interface Upload {
  bytes: Buffer;
  fileName: string;
}

/**
 * The proposal cut to what the program form takes (contracts' program fields), so an answer never carries
 * more of the document than the screen can use.
 */
const withinForm = (analysis: Analysis): Analysis => ({
  ...analysis,
  programName: analysis.programName.slice(0, 200),
  description: analysis.description.slice(0, 5000),
  website: analysis.website.slice(0, 500),
  rewardDetails: analysis.rewardDetails.slice(0, 20_000),
  vendorName: analysis.vendorName.slice(0, 200),
});

/**
 * POST /api/analyze-referral-program: the document's type from its content, its text, the bytes kept in
 * object storage, the fields found by the model or the extractor, and the record of it. Everything that
 * refuses the document does so before anything is stored; the object is stored last and removed again
 * when its record cannot be written, so a refusal or a failure never leaves an object behind.
 */
export function documentAnalysis(deps: {
  repository: ProgramsRepository;
  storage: DocumentStorage;
  model: LanguageModel | null;
  vision: boolean;
  /** Reading limits (tests lower them). */
  limits?: ExtractionLimits;
}) {
  const { repository, storage, model, vision, limits = EXTRACTION_LIMITS } = deps;

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
        text = await documentText(type, bytes, limits);
      } catch (error) {
        if (error instanceof DocumentTooComplex) {
          log.warn({ type, size: bytes.length, reason: error.message }, 'program document refused: too complex');
          fail('DOCUMENT_TOO_COMPLEX');
        }
        if (!(error instanceof UnreadableDocument)) throw error;
        log.info({ type, reason: error.message }, 'unreadable program document');
        fail('DOCUMENT_UNREADABLE');
      }
      if (!text.trim()) fail('DOCUMENT_HAS_NO_TEXT');
    }

    const documentId = randomUUID();
    const fileName = upload.fileName || 'document';
    const analysis: Analysis | null =
      image && model
        ? await analyzeImage(bytes, CONTENT_TYPES[type], fileName, model, log)
        : await analyzeText(text, fileName, model, log);
    const result: ProgramAnalysis | null = analysis ? { ...withinForm(analysis), documentId } : null;

    const storageKey = `documents/${documentId}.${type}`;
    await storage.put(storageKey, bytes, CONTENT_TYPES[type]);
    try {
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
    } catch (error) {
      await storage.delete(storageKey).catch((reason: unknown) => {
        log.error({ storageKey, err: reason }, 'orphan program document left in storage');
      });
      throw error;
    }
    return result ?? fail('ANALYSIS_UNAVAILABLE');
  };
}

export type DocumentAnalysis = ReturnType<typeof documentAnalysis>;
