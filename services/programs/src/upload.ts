import { fail, HttpError } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import type { Upload } from './documents.ts';

/** Control (C0, DEL, C1) and format characters (bidi overrides, zero-width...): never part of a kept name. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * The name kept for an uploaded file: its last path segment (a browser may send `C:\fakepath\x.pdf`),
 * Unicode-normalized, without control or format characters, at most 255 characters; 'document' when
 * nothing is left. The user did not type it, so it is cleaned rather than refused.
 */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base.normalize('NFC').replace(UNPRINTABLE, '').replace(/\s+/g, ' ').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'document' : [...clean].slice(0, 255).join('');
}

/** The multipart body ended before the file did (the client or a proxy cut it). */
const incomplete = (error: unknown) =>
  /unexpected end of (form|multipart)|terminated early|premature close/i.test((error as Error).message ?? '');

/**
 * Why reading the multipart body failed, as the answer: too large (413), cut short (400 UPLOAD_INCOMPLETE),
 * otherwise not a readable form with a file in it (400 FILE_REQUIRED). Only the request is read here, so
 * every failure is the request's, never a 500.
 */
function refuseUpload(request: FastifyRequest, error: unknown): never {
  if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') fail('DOCUMENT_TOO_LARGE');
  request.log.info({ reason: (error as Error).message }, 'unreadable multipart upload');
  return fail(incomplete(error) ? 'UPLOAD_INCOMPLETE' : 'FILE_REQUIRED');
}

/**
 * The one document of a multipart request (field `file`), read whole; refused when missing, too large (a
 * file cut at the size limit is never taken for the whole file), cut short or malformed.
 */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) fail('FILE_REQUIRED');
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  let bytes: Buffer;
  try {
    part = await request.file();
    if (!part || part.fieldname !== 'file') return fail('FILE_REQUIRED');
    bytes = await part.toBuffer();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    return refuseUpload(request, error);
  }
  if (part.file.truncated) fail('DOCUMENT_TOO_LARGE');
  return { bytes, fileName: cleanFileName(part.filename) };
}
