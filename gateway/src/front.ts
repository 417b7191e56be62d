import { STATUS_CODES, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { metrics } from '@app/kit';
import type { Answer, SessionWait } from './fast-path.ts';
import { asksToClose, BAD_VALUE, TOKEN } from './http-syntax.ts';

/**
 * The gateway's connections from clients, read by hand until a request is not the fast path's. Node's HTTP
 * server (its parser, `IncomingMessage` and `ServerResponse`) cost about as much CPU per request as
 * everything else the gateway does (bench/README.md, gateway benchmark, "Seventh pass"); a fast-path request
 * does not need it.
 *
 * Each new connection starts here. A request whose head arrived whole, is a plain `GET ... HTTP/1.1` with
 * well-formed headers, each once, and that the fast path takes (`take`: a forwarded GET with a cached
 * session...) is answered on the socket directly, as Node would frame it (the same status line and the
 * same Date, Connection and Keep-Alive headers). Anything else (another method, a body, a head split across
 * reads, an odd or repeated header, a request the fast path leaves to Fastify) hands the connection, with
 * every byte not yet handled, to Node's HTTP server for good: its parser, limits and time-outs, then Fastify.
 * So this code only ever accepts a strict subset of HTTP/1.1 and never refuses anything itself.
 */
export interface FrontOptions {
  /**
   * The exchange that will answer a request, or null when it is not the fast path's; or what to wait for
   * before asking again (its session's lookup).
   */
  take: (
    url: string,
    headers: IncomingHttpHeaders,
    socket: Socket,
  ) => { start(answer: Answer): void } | SessionWait | null;
  /** Node's `keepAliveTimeout` of the server, ms: announced in each answer (`Keep-Alive: timeout=`). */
  keepAliveTimeoutMs: number;
  /**
   * The server's socket time-out (Node's `server.timeout`, Fastify's `connectionTimeout`), ms: a connection
   * with nothing read or written for this long is destroyed. Longer than every upstream time-out (config.ts),
   * so an answer in progress always ends first; longer than the keep-alive clients are told.
   */
  timeoutMs: number;
}

const REQUEST_LINE = /^GET (\/[\x21-\x7e]*) HTTP\/1\.1$/;
/** A head larger than this is Node's to judge (its limit is 16 KB by default). */
const MAX_HEAD_BYTES = 8192;
/** Bytes of later requests buffered while one is answered; past it the socket is paused. */
const MAX_BUFFERED = 64 * 1024;

/** Takes over a Node HTTP server's connections: call once, before it listens. */
export function rawFront(server: Server, options: FrontOptions) {
  const nodeListeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const connections = new Set<FrontConnection>();
  const raw = metrics.gatewayConnections.labels('raw');
  const handedOver = metrics.gatewayConnections.labels('handed_over');
  const shared: FrontShared = {
    options,
    keepAlive: `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(options.keepAliveTimeoutMs / 1000)}\r\n`,
    closing: false,
    connections,
    handOver: (socket) => {
      handedOver.inc();
      for (const listener of nodeListeners) listener.call(server, socket);
    },
  };
  server.on('connection', (socket: Socket) => {
    raw.inc();
    if (shared.closing) return shared.handOver(socket);
    connections.add(new FrontConnection(shared, socket));
  });
  return {
    /** The server is closing: idle connections close now, busy ones once their answer ends. */
    close() {
      shared.closing = true;
      for (const connection of connections) connection.closeWhenIdle();
    },
  };
}

export type RawFront = ReturnType<typeof rawFront>;

interface FrontShared {
  options: FrontOptions;
  keepAlive: string;
  closing: boolean;
  connections: Set<FrontConnection>;
  /** Gives a connection to Node's HTTP server for good (counted). */
  handOver: (socket: Socket) => void;
}

/** A plain request's head: its target and headers (lower-case names, each once), or null for Node to read. */
export function parseRequestHead(text: string): { url: string; headers: IncomingHttpHeaders } | null {
  const lines = text.split('\r\n');
  const line = REQUEST_LINE.exec(lines[0]!);
  if (!line) return null;
  const headers: IncomingHttpHeaders = Object.create(null) as IncomingHttpHeaders;
  for (let i = 1; i < lines.length; i++) {
    const header = lines[i]!;
    const colon = header.indexOf(':');
    if (colon <= 0) return null;
    const name = header.slice(0, colon);
    if (!TOKEN.test(name)) return null;
    let start = colon + 1;
    let end = header.length;
    while (start < end && (header.charCodeAt(start) === 32 || header.charCodeAt(start) === 9)) start++;
    while (end > start && (header.charCodeAt(end - 1) === 32 || header.charCodeAt(end - 1) === 9)) end--;
    const value = header.slice(start, end);
    if (BAD_VALUE.test(value)) return null;
    const lower = name.toLowerCase();
    if (headers[lower] !== undefined) return null;
    headers[lower] = value;
  }
  if (headers.host === undefined) return null;
  return { url: line[1]!, headers };
}

/** One client connection while it is read by hand. */
class FrontConnection {
  private readonly shared: FrontShared;
  private readonly socket: Socket;
  private buffered: Buffer | null = null;
  private answer: RawAnswer | null = null;
  /** Close once the answer in progress ends (the client asked, the client ended its side, the server closes). */
  private closeAfter = false;
  private done = false;
  /** The next request waits for its session's lookup (once: a second wait hands the connection over). */
  private waiting = false;
  private waited = false;
  /** Its listeners on the socket, by event: added when it starts, every one taken off at the hand-over. */
  private readonly listeners: Record<string, (chunk: Buffer) => void> = {
    data: (chunk) => this.read(chunk),
    end: () => this.ended(),
    timeout: () => this.socket.destroy(),
    close: () => this.closed(),
    drain: () => this.answer?.drained(),
    error: () => {},
  };

  constructor(shared: FrontShared, socket: Socket) {
    this.shared = shared;
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setTimeout(shared.options.timeoutMs);
    for (const [event, listener] of Object.entries(this.listeners)) socket.on(event, listener);
  }

  /** The answer in progress said `Connection: close`: the connection ends with it. */
  closeAfterAnswer() {
    this.closeAfter = true;
  }

  /** The server closes: now when idle; else after the answer, or (a request waiting for its session) by Node. */
  closeWhenIdle() {
    this.closeAfter = true;
    if (!this.answer && !this.waiting) this.socket.end();
  }

  private read(chunk: Buffer) {
    this.buffered = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    if (!this.answer && !this.waiting) this.next();
    else if (this.buffered.length > MAX_BUFFERED) this.socket.pause();
  }

  /** Starts on the next buffered request, or hands the connection over. */
  private next() {
    const data = this.buffered;
    if (!data || this.answer || this.done || this.waiting) return;
    const end = data.indexOf('\r\n\r\n');
    // Not whole in what came (a slow or large head): Node's parser and its time limits take it from here.
    if (end < 0 || end > MAX_HEAD_BYTES) return this.handOver();
    const head = parseRequestHead(data.toString('latin1', 0, end));
    const exchange = head && this.shared.options.take(head.url, head.headers, this.socket);
    if (!head || !exchange) return this.handOver();
    if ('wait' in exchange) {
      if (this.waited) return this.handOver(); // looked up, still not cached (SESSION_CACHE_MS=0, an eviction)
      this.waiting = this.waited = true;
      const again = () => {
        this.waiting = false;
        if (!this.done) this.next();
      };
      // A failed lookup: Fastify's route answers (503) as it always did.
      exchange.wait.then(again, () => {
        this.waiting = false;
        if (!this.done) this.handOver();
      });
      return;
    }
    this.waited = false;
    this.buffered = end + 4 === data.length ? null : data.subarray(end + 4);
    if (asksToClose(head.headers.connection)) this.closeAfter = true;
    const closing = this.closeAfter || this.shared.closing;
    this.answer = new RawAnswer(this, closing ? 'Connection: close\r\n' : this.shared.keepAlive);
    exchange.start(this.answer);
  }

  /** The connection is Node's from now on, with every byte not yet handled. */
  private handOver() {
    const { socket } = this;
    this.done = true;
    this.shared.connections.delete(this);
    for (const [event, listener] of Object.entries(this.listeners)) socket.off(event, listener);
    socket.setTimeout(0);
    socket.pause();
    if (this.buffered) socket.unshift(this.buffered);
    this.buffered = null;
    this.shared.handOver(socket);
    socket.resume();
  }

  /** Writes a string of bytes (latin1), or with a large body chunk its parts, in one system call. */
  write(text: string, chunk?: Buffer, after?: string): boolean {
    const { socket } = this;
    if (!chunk) return socket.write(text, 'latin1');
    socket.cork();
    if (text) socket.write(text, 'latin1');
    let flowing = socket.write(chunk);
    if (after) flowing = socket.write(after, 'latin1');
    socket.uncork();
    return flowing;
  }

  /** The answer in progress ended: the next request, or the end of the connection. */
  answered() {
    this.answer = null;
    if (this.closeAfter || this.shared.closing) {
      this.done = true;
      this.socket.end();
      return;
    }
    if (this.socket.isPaused()) this.socket.resume();
    // Pipelined requests: the next one once this call stack has unwound.
    if (this.buffered) queueMicrotask(() => this.next());
  }

  destroy(error?: Error) {
    this.done = true;
    this.socket.destroy(error);
  }

  /** Nothing written is waiting in the socket (every chunk given has been copied to the kernel). */
  flushed(): boolean {
    return this.socket.writableLength === 0;
  }

  /**
   * The client ended its side: the connection closes, and an answer in progress is abandoned (its service call
   * dropped), as Node's HTTP server does (it aborts the request unless `httpAllowHalfOpen`).
   */
  private ended() {
    this.done = true;
    const answer = this.answer;
    this.answer = null;
    answer?.lost();
    this.socket.end();
  }

  private closed() {
    this.done = true;
    this.shared.connections.delete(this);
    this.answer?.lost();
    this.answer = null;
  }
}

/** The Date header's value, made once a second (as Node's HTTP server does). */
let dateSecond = -1;
let dateText = '';
function httpDate(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}

/**
 * An answer written straight to a connection, framed as Node's `ServerResponse` frames it: status line,
 * the headers given, then Date, Connection and Keep-Alive (or `Connection: close`), and
 * `Transfer-Encoding: chunked` when there is no content-length. The head goes out with the first bytes of the body.
 */
class RawAnswer implements Answer {
  statusCode = 200;
  headersSent = false;
  destroyed = false;
  writableEnded = false;
  writableFinished = false;
  private readonly connection: FrontConnection;
  /** The Connection (and Keep-Alive) header lines this answer ends its head with. */
  private readonly persistence: string;
  private head: string | null = null;
  private chunked = false;
  private bodyless = false;
  private drainListeners: Array<() => void> = [];
  private closeListener: (() => void) | null = null;

  constructor(connection: FrontConnection, persistence: string) {
    this.connection = connection;
    this.persistence = persistence;
  }

  on(_event: 'drain', listener: () => void) {
    this.drainListeners.push(listener);
    return this;
  }

  once(_event: 'close', listener: () => void) {
    this.closeListener = listener;
    return this;
  }

  /**
   * As `ServerResponse.writeHead` with a flat list, adding what Node adds when the list does not have it:
   * Date; Connection and Keep-Alive (neither when the list has a Connection header; one that says close
   * closes the connection after); Transfer-Encoding: chunked without a length (a Transfer-Encoding given
   * means chunked: the upstream reader takes no other). Throws on a status Node would refuse. Names and values
   * are not checked again here: the list is the gateway's own headers, a request id it checked, and the
   * service's headers as upstream.ts let them through (tokens, no CR, LF or other control character).
   */
  writeHead(status: number, headers: Array<string | number>) {
    if (!Number.isInteger(status) || status < 100 || status > 999)
      throw new RangeError(`Invalid status code: ${status}`);
    let text = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`;
    let length = false;
    let date = false;
    let connection = false;
    let chunked = false;
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i] as string;
      const value = headers[i + 1]!;
      if (name === 'content-length') length = true;
      else if (name === 'date') date = true;
      else if (name === 'transfer-encoding') chunked = true;
      else if (name === 'connection') {
        connection = true;
        if (asksToClose(String(value))) this.connection.closeAfterAnswer();
      }
      text += `${name}: ${value}\r\n`;
    }
    if (!date) text += `Date: ${httpDate()}\r\n`;
    if (!connection) text += this.persistence;
    this.bodyless = status === 204 || status === 304 || status < 200;
    if (!this.bodyless && (chunked || !length)) {
      this.chunked = true;
      if (!chunked) text += 'Transfer-Encoding: chunked\r\n';
    }
    this.head = `${text}\r\n`;
    this.statusCode = status;
    this.headersSent = true;
    return this;
  }

  write(chunk: Buffer): boolean {
    if (this.destroyed || this.writableEnded) return false;
    return this.send(chunk, false);
  }

  end(chunk?: Buffer | string) {
    if (this.destroyed || this.writableEnded) return this;
    const body = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.writableEnded = true;
    this.send(body, true);
    this.writableFinished = true;
    this.connection.answered();
    this.closeListener?.();
    return this;
  }

  destroy(error?: Error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.connection.destroy(error);
    return this;
  }

  /** The connection closed under the answer (the client left, or it was destroyed). */
  lost() {
    if (this.writableFinished) return;
    this.destroyed = true;
    this.closeListener?.();
  }

  drained() {
    for (const listener of this.drainListeners) listener();
  }

  flushed(): boolean {
    return this.connection.flushed();
  }

  /** One write: the head (first time), the chunk in its framing, and the end of a chunked body when last. */
  private send(chunk: Buffer | undefined, last: boolean): boolean {
    const head = this.head ?? '';
    this.head = null;
    const size = this.bodyless || !chunk ? 0 : chunk.length;
    // Small bodies travel inside the string (one copy); large ones as they are, beside it.
    const inline = size <= 1024;
    if (this.chunked) {
      const open = size ? `${size.toString(16)}\r\n` : '';
      const close = `${size ? '\r\n' : ''}${last ? '0\r\n\r\n' : ''}`;
      if (inline) return this.connection.write(`${head}${open}${size ? chunk!.toString('latin1') : ''}${close}`);
      return this.connection.write(`${head}${open}`, chunk, close);
    }
    if (size === 0) return head ? this.connection.write(head) : true;
    if (inline) return this.connection.write(`${head}${chunk!.toString('latin1')}`);
    return this.connection.write(head, chunk);
  }
}
