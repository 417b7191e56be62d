import { Transform, type Readable } from 'node:stream';
import { ERRORS, type ErrorCode } from '@app/contracts';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Why the gateway stopped reading the body (too large, too slow), once it did. */
    bodyRefusal: ErrorCode | null;
  }
  interface FastifyContextConfig {
    /** The largest body this route lets through, and the code it answers above it. */
    body?: { limit: number; tooLarge: ErrorCode };
  }
}

export class BodyRefusedError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  constructor(code: ErrorCode) {
    super(`request body refused: ${code}`);
    this.code = code;
    this.statusCode = ERRORS[code].status;
  }
}

/**
 * The request body as a stream that counts what passes (chunked or with a length) and fails as soon as
 * the route's limit is passed, or when the whole body has not arrived within `timeoutMs`. The upstream
 * request then aborts, so a service never receives a complete truncated body.
 */
export function countedBody(
  request: FastifyRequest,
  payload: Readable,
  limits: { limit: number; tooLarge: ErrorCode; timeoutMs: number },
  onRefused: (code: ErrorCode) => void,
): Readable {
  let received = 0;
  const refuse = (code: ErrorCode) => {
    if (request.bodyRefusal) return;
    request.bodyRefusal = code;
    clearTimeout(timer);
    payload.unpipe(counter);
    counter.destroy(new BodyRefusedError(code));
    onRefused(code);
  };
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > limits.limit) return refuse(limits.tooLarge);
      done(null, chunk);
    },
    flush(done) {
      clearTimeout(timer);
      done();
    },
  });
  const timer = setTimeout(() => refuse('BODY_TIMEOUT'), limits.timeoutMs);
  timer.unref();
  // The client went away mid-body: the upstream request is aborted too, not left waiting for the rest.
  payload.once('close', () => {
    if (payload.readableEnded) return;
    clearTimeout(timer);
    counter.destroy(new Error('the client closed the request before its body ended'));
  });
  return payload.pipe(counter);
}
