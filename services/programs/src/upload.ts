import { fail } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import type { Upload } from './documents.ts';

/** The one document of a multipart request (field `file`), read whole; refused when missing or too large. */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) fail('FILE_REQUIRED');
  const part = await request.file();
  if (!part || part.fieldname !== 'file') fail('FILE_REQUIRED');
  try {
    return { bytes: await part.toBuffer(), fileName: part.filename };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') fail('DOCUMENT_TOO_LARGE');
    throw error;
  }
}
