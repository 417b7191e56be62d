import { fail } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import type { Upload } from './documents.ts';

/** The one document of a multipart request (field `file`), read whole; refused when missing or too large. */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) fail('FILE_REQUIRED');
  const part = await request.file();
  if (!part || part.fieldname !== 'file') fail('FILE_REQUIRED');
  try {
    const bytes = await part.toBuffer();
    // Belt and braces: a file cut at the size limit is refused, never analysed or stored as if whole.
    if (part.file.truncated) fail('DOCUMENT_TOO_LARGE');
    return { bytes, fileName: part.filename };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') fail('DOCUMENT_TOO_LARGE');
    throw error;
  }
}
