import { fail } from '@app/kit';
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
 * The one document of a multipart request (field `file`), read whole; refused when missing, too large (a
 * file cut at the size limit is never taken for the whole file) or cut short.
 */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) fail('FILE_REQUIRED');
  const part = await request.file();
  if (!part || part.fieldname !== 'file') fail('FILE_REQUIRED');
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') fail('DOCUMENT_TOO_LARGE');
    if (incomplete(error)) fail('UPLOAD_INCOMPLETE');
    throw error;
  }
  if (part.file.truncated) fail('DOCUMENT_TOO_LARGE');
  return { bytes, fileName: cleanFileName(part.filename) };
}
