import { Transform, type Readable } from 'node:stream';
import { ERRORS, type ErrorCode } from '@app/contracts';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Why the gateway stopped reading the body (too large, too slow), once it did. */
    bodyRefusal: ErrorCode | null;
    /** Ends the body's counting once the answer is out, read or not (`countedBody`). */
    bodyDone: (() => void) | null;
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
 *
 * A body nobody reads (the gateway answered first: 401, 403, 429...) never fails the process: its stream's
 * error has a listener, and `request.bodyDone` (called once the answer is out) stops the timer and lets the
 * rest of the body be read and dropped, as Node's server drops an unread body, so the connection can serve
 * its next request.
 */
export function countedBody(
  request: FastifyRequest,
  payload: Readable,
  limits: { limit: number; tooLarge: ErrorCode; timeoutMs: number },
  onRefused: (code: ErrorCode) => void,
): Readable {
  let received = 0;
  let ended = false;
  const refuse = (code: ErrorCode) => {
    if (request.bodyRefusal || ended) return;
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
      ended = true;
      clearTimeout(timer);
      done();
    },
  });
  // Whoever reads the body gets its errors through the pipe; with no reader they are nobody's.
  counter.on('error', () => {});
  const timer = setTimeout(() => refuse('BODY_TIMEOUT'), limits.timeoutMs);
  timer.unref();
  // The client went away mid-body: the upstream request is aborted too, not left waiting for the rest.
  payload.once('close', () => {
    if (payload.readableEnded) return;
    clearTimeout(timer);
    counter.destroy(new Error('the client closed the request before its body ended'));
  });
  request.bodyDone = () => {
    if (ended || request.bodyRefusal) return;
    ended = true;
    clearTimeout(timer);
    payload.unpipe(counter);
    counter.destroy();
    payload.resume();
  };
  return payload.pipe(counter);
}
