import { connect, type Socket } from 'node:net';
import { asksToClose, BAD_VALUE, TOKEN } from './http-syntax.ts';

/**
 * The fast path's client to a service: keep-alive HTTP/1.1 connections over TCP or a Unix socket, one
 * request at a time each, written and read by hand. It takes the place of undici's `Pool.dispatch` there:
 * the service is ours and answers plainly (Fastify: a status line, headers, a content-length or chunked
 * body), and undici's general machinery cost ~5-7 us of CPU per request out of the ~25 a bare Node proxy
 * spends (bench/README.md, gateway benchmark, "Seventh pass"). What it reads it reads strictly: anything
 * it does not understand fails the call (a 502), never passes through.
 *
 * The handler is undici's dispatch handler in miniature (fast-path.ts's `Exchange` is one): `onConnect` gets
 * an abort (again when a call that waited for a connection is sent), `onHeaders` the status and the headers as a flat `[name, value, ...]` list with lower-case
 * names and a `resume` for back-pressure, `onData` each body chunk (false pauses the service's socket),
 * then `onComplete` or `onError` (once, and nothing after).
 */
export interface UpstreamHandler {
  onConnect(abort: (error: Error) => void): void;
  onHeaders(status: number, headers: string[], resume: () => void): boolean;
  onData(chunk: Buffer): boolean;
  onComplete(): void;
  onError(error: Error): void;
}

export interface UpstreamRequest {
  /** The path and query as the client sent them. */
  path: string;
  /** Request headers as a flat `[name, value, ...]` list, values as received (no CR or LF in them). */
  headers: string[];
  /** Longest wait for the answer's headers, and for each of its body's chunks. */
  timeoutMs: number;
}

export interface UpstreamOptions {
  /** The service: `http://host:port`, reached over `socketPath` when given. */
  origin: string;
  socketPath?: string | undefined;
  /** Connections kept at most; requests past them wait in order. */
  connections: number;
  connectTimeoutMs: number;
  /** An idle connection is not reused past this, nor past the service's own `keep-alive: timeout` less a second. */
  keepAliveMs: number;
}

/** What a failed call's error carries in `code` (proxy.ts's `upstreamFailure` maps them to 504, 503, 502). */
export const UPSTREAM_ERRORS = {
  headersTimeout: 'UPSTREAM_HEADERS_TIMEOUT',
  bodyTimeout: 'UPSTREAM_BODY_TIMEOUT',
  connectTimeout: 'UPSTREAM_CONNECT_TIMEOUT',
  /** The service closed the connection before its answer ended. */
  closed: 'UPSTREAM_CLOSED',
  /** An answer that is not well-formed HTTP/1.1 (or one this client does not take). */
  malformed: 'UPSTREAM_MALFORMED',
} as const;

const upstreamError = (code: string, message: string, cause?: unknown) =>
  Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });

/**
 * Each connection reads into a buffer of its own, reused from one read to the next (net's `onread`), so an
 * answer costs no allocation: a fresh 64 KB buffer per read, as Node gives by default, is garbage the
 * collector must sweep (a fifth of the gateway's CPU on 20 KB answers went to major collections; bench/README.md,
 * gateway benchmark, "Seventh pass").
 * A chunk handed to `onData` is a view of that buffer: valid during the call. A handler that keeps it past
 * the call (a write that did not leave at once, a compressor) calls `keptChunk()`, and the connection reads
 * into a new buffer from then on, leaving the old one to whoever holds it.
 */
const READ_BYTES = 32 * 1024;
/** The buffer state of the connection whose chunk is being handed over (set while it reads). */
let reading: { lent: boolean } | null = null;

/** Said by a handler keeping the chunk it is given past `onData`: its memory is not reused. */
export function keptChunk(): void {
  if (reading) reading.lent = true;
}

/** An answer head this long without its end is not one. */
const MAX_HEAD_BYTES = 64 * 1024;
const STATUS_LINE = /^HTTP\/1\.[01] ([1-9]\d\d)(?: [^\r\n]*)?$/;
const KEEP_ALIVE_TIMEOUT = /timeout=(\d+)/i;
const CRLF = Buffer.from('\r\n');

/** Where in reading an answer a connection is. */
const Phase = {
  Head: 0,
  /** A body of `remaining` bytes (content-length). */
  Length: 1,
  /** A chunked body: a chunk's size line, its data, the CRLF after it, the trailer section. */
  ChunkSize: 2,
  ChunkData: 3,
  ChunkEnd: 4,
  Trailers: 5,
  /** No length given: the body ends when the service closes the connection. */
  UntilClose: 6,
} as const;
type Phase = (typeof Phase)[keyof typeof Phase];

/** A keep-alive pool of connections to one service. */
export class Upstream {
  private readonly options: UpstreamOptions;
  /** The Host header (`host:port`), and where to connect (over TCP: the name without an IPv6 address's brackets). */
  private readonly host: string;
  private readonly target: { path: string } | { host: string; port: number };
  private readonly idle: Connection[] = [];
  private readonly waiting: Array<{ request: UpstreamRequest; handler: UpstreamHandler }> = [];
  private open = 0;
  private closed = false;

  constructor(options: UpstreamOptions) {
    this.options = options;
    const url = new URL(options.origin);
    this.host = url.host;
    this.target = options.socketPath
      ? { path: options.socketPath }
      : { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port || 80) };
  }

  dispatch(request: UpstreamRequest, handler: UpstreamHandler): void {
    if (this.closed) return handler.onError(upstreamError(UPSTREAM_ERRORS.closed, 'the gateway is closing'));
    const now = Date.now();
    for (let connection = this.idle.pop(); connection; connection = this.idle.pop()) {
      if (connection.usable(now)) return connection.send(request, handler, true);
      connection.destroy();
    }
    if (this.open >= this.options.connections) {
      const call = { request, handler };
      this.waiting.push(call);
      // A client that leaves while its call waits takes it out of the line: it is never sent.
      handler.onConnect((error) => {
        const at = this.waiting.indexOf(call);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        handler.onError(error);
      });
      return;
    }
    this.connection().send(request, handler, false);
  }

  /** Stops taking calls; idle connections close now, busy ones when their answer ends. */
  async close(): Promise<void> {
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.destroy();
    for (const { handler } of this.waiting.splice(0))
      handler.onError(upstreamError(UPSTREAM_ERRORS.closed, 'the gateway is closing'));
  }

  /** A new connection (counted until its socket closes). */
  private connection(): Connection {
    const { connectTimeoutMs, keepAliveMs } = this.options;
    this.open++;
    return new Connection(this.target, this.host, connectTimeoutMs, keepAliveMs, {
      released: (connection) => this.released(connection),
      gone: (connection) => this.gone(connection),
      retry: (request, handler) => this.connection().send(request, handler, false),
    });
  }

  /** An answer ended on a connection that can take another request. */
  private released(connection: Connection) {
    const next = this.waiting.shift();
    if (next) return connection.send(next.request, next.handler, true);
    if (this.closed) return connection.destroy();
    this.idle.push(connection);
  }

  private gone(connection: Connection) {
    this.open--;
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    // A slot came free: the next waiting call gets a connection of its own.
    const next = this.waiting.shift();
    if (next) this.connection().send(next.request, next.handler, false);
  }
}

interface Owner {
  released(connection: Connection): void;
  gone(connection: Connection): void;
  /** Sends a call again on a new connection (a reused one was closed under it before any answer). */
  retry(request: UpstreamRequest, handler: UpstreamHandler): void;
}

/** One connection to the service and the answer it is reading. */
class Connection {
  private readonly socket: Socket;
  private readonly host: string;
  private readonly owner: Owner;
  private keepAliveMs: number;
  private buffer = Buffer.allocUnsafeSlow(READ_BYTES);
  /** `lent`: a handler kept a chunk of `buffer` (`keptChunk`), so the next read goes into a new one. */
  private readonly loan = { lent: false };
  private connected = false;
  private dead = false;
  private idleSince = 0;

  // The call in progress.
  private request: UpstreamRequest | null = null;
  private handler: UpstreamHandler | null = null;
  private reused = false;
  private answered = false;
  private phase: Phase = Phase.Head;
  private head: Buffer | null = null;
  private remaining = 0;
  private line = '';
  private reusable = true;

  constructor(
    target: { path: string } | { host: string; port: number },
    host: string,
    connectTimeoutMs: number,
    keepAliveMs: number,
    owner: Owner,
  ) {
    const socket = connect({
      ...target,
      onread: {
        buffer: () => this.readBuffer(),
        callback: (bytes) => {
          this.read(this.buffer.subarray(0, bytes));
          return true;
        },
      },
    });
    this.socket = socket;
    this.host = host;
    this.owner = owner;
    this.keepAliveMs = keepAliveMs;
    socket.setNoDelay(true);
    socket.setTimeout(connectTimeoutMs);
    socket.once('connect', () => {
      this.connected = true;
      socket.setTimeout(this.request?.timeoutMs ?? 0);
    });
    socket.on('timeout', () => this.timedOut());
    socket.on('error', (error) => this.failed(error, true));
    socket.on('end', () => this.ended());
    socket.on('close', () => {
      this.dead = true;
      this.failed(upstreamError(UPSTREAM_ERRORS.closed, 'the service closed the connection'), true);
      this.owner.gone(this);
    });
  }

  /** Whether an idle connection may take a call now. */
  usable(now: number): boolean {
    return !this.dead && now - this.idleSince < this.keepAliveMs;
  }

  destroy() {
    this.dead = true;
    this.socket.destroy();
  }

  send(request: UpstreamRequest, handler: UpstreamHandler, reused: boolean) {
    this.request = request;
    this.handler = handler;
    this.reused = reused;
    this.answered = false;
    this.phase = Phase.Head;
    this.head = null;
    this.reusable = true;
    handler.onConnect((error) => this.abort(error));
    if (this.connected) this.socket.setTimeout(request.timeoutMs);
    this.socket.ref();
    let text = `GET ${request.path} HTTP/1.1\r\nhost: ${this.host}\r\n`;
    const { headers } = request;
    for (let i = 0; i < headers.length; i += 2) text += `${headers[i]}: ${headers[i + 1]}\r\n`;
    this.socket.write(`${text}\r\n`, 'latin1');
  }

  /** The client went away: the answer is not wanted, and this connection is in the middle of it. */
  private abort(error: Error) {
    if (!this.handler) return;
    this.finish(error);
    this.destroy();
  }

  private timedOut() {
    if (!this.connected)
      return this.failed(upstreamError(UPSTREAM_ERRORS.connectTimeout, 'could not connect to the service in time'));
    if (!this.handler) return;
    const headers = this.phase === Phase.Head;
    this.failed(
      upstreamError(
        headers ? UPSTREAM_ERRORS.headersTimeout : UPSTREAM_ERRORS.bodyTimeout,
        headers ? 'the service did not answer in time' : 'the service stopped sending its answer',
      ),
    );
  }

  /**
   * The connection failed or closed: the call in progress fails, and the connection is not reused. A
   * kept-alive connection the service closed as the call went out (`closing`: not a time-out), before any
   * byte of answer, has the call sent again once on a new connection (a GET: asking twice is harmless).
   */
  private failed(error: Error, closing = false) {
    this.dead = true;
    const { request, handler } = this;
    if (!this.socket.destroyed) this.socket.destroy();
    if (!handler || !request) return;
    if (closing && this.reused && !this.answered) {
      this.request = null;
      this.handler = null;
      return this.owner.retry(request, handler);
    }
    this.finish(error);
  }

  /** The service ended its side: the end of a body read until close, else a failure. */
  private ended() {
    if (this.handler && this.phase === Phase.UntilClose) {
      this.reusable = false;
      this.finish(null);
      return;
    }
    this.failed(upstreamError(UPSTREAM_ERRORS.closed, 'the service closed the connection'), true);
  }

  /** Ends the call in progress: complete (error null) or failed. The handler hears nothing after. */
  private finish(error: Error | null) {
    const handler = this.handler;
    if (!handler) return;
    this.handler = null;
    this.request = null;
    if (error) {
      this.dead = true;
      handler.onError(error);
      return;
    }
    handler.onComplete();
    if (this.dead || !this.reusable) return this.destroy();
    this.socket.setTimeout(0);
    this.socket.unref();
    this.idleSince = Date.now();
    this.owner.released(this);
  }

  private malformed(detail: string) {
    this.failed(upstreamError(UPSTREAM_ERRORS.malformed, `the service's answer is not valid HTTP/1.1: ${detail}`));
  }

  /** Where the next read goes: the same buffer, unless a handler kept part of it. */
  private readBuffer(): Buffer {
    if (this.loan.lent) {
      this.loan.lent = false;
      this.buffer = Buffer.allocUnsafeSlow(READ_BYTES);
    }
    return this.buffer;
  }

  private read(chunk: Buffer) {
    reading = this.loan;
    try {
      this.readChunk(chunk);
    } finally {
      reading = null;
    }
  }

  private readChunk(chunk: Buffer) {
    if (!this.handler) {
      // Bytes with no call in progress (after an answer ended): the connection is out of step.
      if (chunk.length) this.destroy();
      return;
    }
    this.answered = true;
    let at = 0;
    while (at < chunk.length && this.handler) {
      switch (this.phase) {
        case Phase.Head: {
          const data = this.head ? Buffer.concat([this.head, chunk.subarray(at)]) : chunk.subarray(at);
          const end = data.indexOf('\r\n\r\n');
          if (end < 0) {
            if (data.length > MAX_HEAD_BYTES) return this.malformed('its head is too long');
            this.head = Buffer.from(data); // out of the read buffer, which the next read overwrites
            return;
          }
          this.head = null;
          const rest = data.subarray(end + 4);
          const body = this.parseHead(data.toString('latin1', 0, end));
          if (body === 'failed') return;
          if (body === 'none') {
            if (rest.length) this.reusable = false; // bytes after an answer without a body: out of step
            return this.finish(null);
          }
          chunk = rest;
          at = 0;
          break;
        }
        case Phase.Length: {
          const take = Math.min(this.remaining, chunk.length - at);
          const piece = at === 0 && take === chunk.length ? chunk : chunk.subarray(at, at + take);
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) {
            // More bytes than announced: delivered as announced, but the connection cannot be trusted again.
            if (at < chunk.length) this.reusable = false;
            this.deliver(piece);
            return this.finish(null);
          }
          this.deliver(piece);
          break;
        }
        case Phase.UntilClose:
          this.deliver(at === 0 ? chunk : chunk.subarray(at));
          return;
        case Phase.ChunkSize:
        case Phase.Trailers: {
          let line: string;
          if (this.line.endsWith('\r') && chunk[at] === 0x0a) {
            // The line's CRLF split between two reads.
            line = this.line.slice(0, -1);
            at++;
          } else {
            const end = chunk.indexOf(CRLF, at);
            const part = chunk.toString('latin1', at, end < 0 ? chunk.length : end);
            if (end < 0) {
              this.line += part;
              if (this.line.length > 8192) return this.malformed('a chunk line is too long');
              return;
            }
            at = end + 2;
            line = this.line + part;
          }
          this.line = '';
          if (this.phase === Phase.Trailers) {
            if (line !== '') continue;
            if (at < chunk.length) this.reusable = false; // bytes after the answer's end: out of step
            return this.finish(null);
          }
          const size = /^([0-9a-fA-F]{1,8})[ \t]*(?:;.*)?$/.exec(line);
          if (!size) return this.malformed('a bad chunk size');
          this.remaining = Number.parseInt(size[1]!, 16);
          this.phase = this.remaining === 0 ? Phase.Trailers : Phase.ChunkData;
          break;
        }
        case Phase.ChunkData: {
          const take = Math.min(this.remaining, chunk.length - at);
          const piece = chunk.subarray(at, at + take);
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) this.phase = Phase.ChunkEnd;
          this.deliver(piece);
          break;
        }
        case Phase.ChunkEnd: {
          // The CRLF after a chunk's data, possibly split across reads.
          const expected = this.line === '\r' ? 0x0a : 0x0d;
          if (chunk[at] !== expected) return this.malformed('a chunk without its CRLF');
          at++;
          if (expected === 0x0d) this.line = '\r';
          else {
            this.line = '';
            this.phase = Phase.ChunkSize;
          }
          break;
        }
      }
    }
  }

  /**
   * Reads an answer's head and hands it over; says what follows: a body (its phase set), none, a failure
   * (the call already failed), or `body` with the phase still on Head after an informational 1xx answer.
   */
  private parseHead(text: string): 'body' | 'none' | 'failed' {
    const lines = text.split('\r\n');
    const status = STATUS_LINE.exec(lines[0]!);
    if (!status) {
      this.malformed('a bad status line');
      return 'failed';
    }
    const code = Number(status[1]);
    if (code < 200) return 'body'; // informational (100 Continue...): the real answer comes next
    const headers: string[] = [];
    let length = -1;
    let chunked = false;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon).toLowerCase() : '';
      if (!TOKEN.test(name)) {
        this.malformed('a bad header line');
        return 'failed';
      }
      const value = line.slice(colon + 1).trim();
      if (BAD_VALUE.test(value)) {
        this.malformed('a bad header value');
        return 'failed';
      }
      if (name === 'content-length') {
        if (!/^\d{1,15}$/.test(value) || (length !== -1 && length !== Number(value))) {
          this.malformed('a bad content-length');
          return 'failed';
        }
        length = Number(value);
      } else if (name === 'transfer-encoding') {
        if (value.toLowerCase() !== 'chunked') {
          this.malformed(`a transfer-encoding of ${value}`);
          return 'failed';
        }
        chunked = true;
      } else if (name === 'connection') {
        if (asksToClose(value)) this.reusable = false;
      } else if (name === 'keep-alive') {
        const seconds = KEEP_ALIVE_TIMEOUT.exec(value);
        if (seconds) this.keepAliveMs = Math.min(this.keepAliveMs, Math.max(0, Number(seconds[1]) * 1000 - 1000));
      }
      headers.push(name, value);
    }
    if (chunked && length !== -1) {
      this.malformed('both a content-length and chunked');
      return 'failed';
    }
    this.handler!.onHeaders(code, headers, () => this.socket.resume());
    if (!this.handler) return 'failed'; // the client left meanwhile (the call was aborted)
    if (code === 204 || code === 304 || length === 0) return 'none';
    if (chunked) this.phase = Phase.ChunkSize;
    else if (length > 0) {
      this.phase = Phase.Length;
      this.remaining = length;
    } else {
      this.phase = Phase.UntilClose;
      this.reusable = false;
    }
    return 'body';
  }

  private deliver(piece: Buffer) {
    if (piece.length && this.handler && !this.handler.onData(piece)) this.socket.pause();
  }
}
