import { promisify } from 'node:util';
import {
  brotliCompress,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  type BrotliCompress,
  type Gzip,
} from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Compression of the services' answers on their way to the browser (the gateway is the public edge under
 * `npm start` and compose; behind an ingress that compresses, answers arrive already encoded and pass as they
 * are). Only what is worth it: JSON and CSV answers of at least `MIN_BYTES`, at the fastest levels, which
 * already take JSON down ~13 times: the Tee ups page's 49.6 KB is 3.8 KB as brotli quality 1 for ~54 us of CPU
 * (quality 4: 3.2 KB for ~163 us; gzip level 3: 4.0 KB for ~73 us; `npm run bench:compression`).
 * Static files are compressed once, at build time, at the highest levels (web/precompress.ts).
 */
export type Encoding = 'br' | 'gzip';

/** Below this a compressed answer saves less than a packet; an answer of unknown length is compressed. */
export const MIN_BYTES = 1024;

const COMPRESSIBLE_TYPE = /^(?:application\/(?:[\w.+-]+\+)?json|text\/csv)\s*(?:;|$)/i;

/**
 * The encoding to answer a request with, from its Accept-Encoding (RFC 9110 12.5.3): brotli, else gzip, when
 * the client accepts it (a weight of 0 refuses; `*` accepts what is not named).
 */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/** What decides whether an answer is compressed, read off its status and headers. */
export interface AnswerTraits {
  status: number;
  contentType: string | undefined;
  /** A Content-Encoding is set already. */
  encoded: boolean;
  /** Its Cache-Control, where `no-transform` forbids a proxy to change the content (RFC 9110 7.7). */
  cacheControl: string | undefined;
  /** Its Content-Length, -1 when not given. */
  length: number;
}

/**
 * Whether an answer should be compressed: a success with a body (not 204, 206 or 304), a JSON or CSV type,
 * not encoded already, not marked `no-transform`, and not known to be under `MIN_BYTES`.
 */
export function compressible({ status, contentType, encoded, cacheControl, length }: AnswerTraits): boolean {
  if (status < 200 || status >= 300 || status === 204 || status === 206 || encoded) return false;
  if (!contentType || !COMPRESSIBLE_TYPE.test(contentType)) return false;
  if (cacheControl && /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl)) return false;
  return length < 0 || length >= MIN_BYTES;
}

/** A compressing stream for one answer. */
export function compressor(encoding: Encoding, length: number): BrotliCompress | Gzip {
  if (encoding === 'gzip') return createGzip({ level: 3 });
  return createBrotliCompress({
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 1,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      ...(length > 0 ? { [constants.BROTLI_PARAM_SIZE_HINT]: length } : {}),
    },
  });
}

/** A Vary header's value with Accept-Encoding among its names. */
export function varyWithEncoding(vary: string | undefined): string {
  if (!vary) return 'accept-encoding';
  if (vary.split(',').some((name) => ['accept-encoding', '*'].includes(name.trim().toLowerCase()))) return vary;
  return `${vary}, accept-encoding`;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * A handler for an answer that never changes while the gateway runs (the API's OpenAPI document and its
 * docs page: 201 and 422 KB of text, 14 and 17 KB as brotli): serialized once, and compressed once per
 * encoding, at a high level, off the event loop, when first asked for.
 */
export function fixedAnswer(text: string, contentType: string) {
  const body = Buffer.from(text);
  const copies = new Map<Encoding, Promise<Buffer>>();
  const copy = (encoding: Encoding) => {
    let compressed = copies.get(encoding);
    if (!compressed) {
      compressed =
        encoding === 'br'
          ? brotliAsync(body, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
            })
          : gzipAsync(body, { level: 9 });
      copies.set(encoding, compressed);
    }
    return compressed;
  };
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.type(contentType).header('vary', 'accept-encoding');
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(body);
    return reply.header('content-encoding', encoding).send(await copy(encoding));
  };
}
