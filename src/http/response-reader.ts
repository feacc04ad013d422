/**
 * A socket as undici reads it, with the responses on it read first by the project's own rules (response-framing.ts).
 * undici's parser is stricter than RFC 9112 asks a client to be: it drops the connection on an unasked 100 Continue,
 * refuses an obs-fold, a Content-Length beside Transfer-Encoding or one repeated, and stops at 16 KiB of head. Here each
 * response is read as the load connections read it, and undici is handed the same response in the strict form it
 * parses: interim responses left out, each head rewritten (`canonical`), a chunked body chunked again as it comes. Bytes
 * only flow through; TLS, the connection and every bound stay where they were.
 *
 * One thing the reader adds on the way out: a request with a chunked body goes in one write once its last chunk is
 * there. undici writes such a body over several turns of the event loop, chunk by chunk; a server that answers from the
 * head and closes (Django's, Werkzeug's) resets the connection under the next chunk, and that write's error destroys
 * the socket with the answer still unread in it (the run said "could not test" where the server had answered). Sent
 * whole, nothing is written after the server may have closed: its answer is read, then the reset.
 */
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { type BodyFraming, ResponseParser, type ResponseHead } from './response-framing.js';

const CRLF = Buffer.from('\r\n');
const LAST_CHUNK = Buffer.from('0\r\n\r\n');
/** How a chunked request body ends: its last chunk and no trailer (RFC 9112 §7.1). */
const BODY_END = Buffer.from('\r\n0\r\n\r\n');
/** A request head whose body is chunked. */
const CHUNKED_HEAD = /\r\ntransfer-encoding:[ \t]*chunked[ \t]*\r\n/i;

/** The most of a write read for a request's head: a body's bytes after it are never scanned whole. */
const HEAD_SCAN_BYTES = 16 * 1024;

/** Whether bytes begin a request whose body is chunked: its head names the coding. */
function chunkedHead(bytes: Buffer): boolean {
  const start = bytes.subarray(0, HEAD_SCAN_BYTES);
  const end = start.indexOf('\r\n\r\n');
  return CHUNKED_HEAD.test(start.toString('latin1', 0, end === -1 ? start.length : end + 2));
}

/**
 * The reader over one socket; see the module's comment. Besides a stream, it has what undici uses of a socket: ref and
 * unref, the keep-alive and delay settings, the addresses its errors name. `method`: the request every response on it
 * answers (HEAD: no body).
 */
export class ResponseReader extends Duplex {
  private framing: BodyFraming = 'none';
  /** The socket ended cleanly: what undici has not read yet must stay readable once the socket closes. */
  private ended = false;
  /** What the read under way gave undici so far. */
  private out: Buffer[] = [];
  /** A request with a chunked body, held until its last chunk (see above); undefined when none is. */
  private held: Buffer[] | undefined;

  constructor(
    private readonly socket: Socket,
    maxHeadBytes: number,
    method = 'GET',
    /** Told of every final head read (the client notes a server that answers in HTTP/1.0). */
    heard?: (head: ResponseHead) => void,
  ) {
    // As much buffered as undici's own sockets hold (its connector's highWaterMark), so that a read is never split for the reader.
    super({ allowHalfOpen: true });
    const parser = new ResponseParser(
      {
        onHead: (head) => {
          heard?.(head);
          this.framing = head.framing;
          this.forward(Buffer.from(`${head.canonical}\r\n\r\n`, 'latin1'));
        },
        onBody: (bytes) => {
          if (this.framing !== 'chunked') {
            this.forward(bytes);
            return;
          }
          this.forward(Buffer.from(`${bytes.length.toString(16)}\r\n`, 'latin1'));
          this.forward(bytes);
          this.forward(CRLF);
        },
        onComplete: () => {
          if (this.framing === 'chunked') this.forward(LAST_CHUNK);
        },
      },
      method,
      maxHeadBytes,
    );
    let broken = false;
    socket.on('data', (chunk: Buffer) => {
      if (broken) return;
      try {
        parser.feed(chunk);
      } catch (error) {
        // The answer came and cannot be read: what came before it is handed on (undici reads it at once), then undici
        // fails the request under way with why, and the connection goes; nothing after it is read.
        broken = true;
        this.flush();
        setImmediate(() => this.destroy(error as Error));
        return;
      }
      this.flush();
    });
    socket.on('end', () => {
      if (broken) return;
      // A body delimited by the close is complete; a response cut short reaches undici as the close it is.
      if (!parser.cutShort) parser.end();
      this.flush();
      this.ended = true;
      this.push(null);
    });
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => {
      if (!this.ended) this.destroy();
    });
  }

  /** Gathers bytes for undici: what one read of the socket gave is handed on at once, as one chunk, as the socket would. */
  private forward(bytes: Buffer): void {
    if (bytes.length > 0) this.out.push(bytes);
  }

  /** Hands what one read gave to undici; a full buffer pauses the socket until undici reads again. */
  private flush(): void {
    if (this.out.length === 0) return;
    const bytes = this.out.length === 1 ? (this.out[0] as Buffer) : Buffer.concat(this.out);
    this.out = [];
    if (!this.push(bytes)) this.socket.pause();
  }

  override _read(): void {
    this.socket.resume();
  }

  // What undici writes goes to the socket at once, as it would without the reader: a request's head and body corked into
  // one write, the next write held only while the socket's buffer is full (a failure reaches undici as the socket's error);
  // a request with a chunked body, once it is whole (see above).
  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this._writev([{ chunk, encoding }], callback);
  }

  override _writev(chunks: Array<{ chunk: Buffer; encoding: BufferEncoding }>, callback: (error?: Error | null) => void): void {
    const bytes = chunks.map(({ chunk, encoding }) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding)));
    if (this.held === undefined && bytes.length > 0 && !chunkedHead(bytes[0] as Buffer)) {
      this.send(bytes, callback);
      return;
    }
    this.held = [...(this.held ?? []), ...bytes];
    const whole = Buffer.concat(this.held);
    if (!whole.subarray(-BODY_END.length).equals(BODY_END)) {
      callback();
      return;
    }
    this.held = undefined;
    this.send([whole], callback);
  }

  /** Writes bytes to the socket in one go; `callback` once the socket has room again. */
  private send(bytes: readonly Buffer[], callback: (error?: Error | null) => void): void {
    this.socket.cork();
    let room = true;
    for (const chunk of bytes) room = this.socket.write(chunk);
    this.socket.uncork();
    if (room) callback();
    else this.socket.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Why the reader goes is undici's to hear; the socket under it just closes (an error of its own would be a second one).
    this.socket.destroy();
    callback(error);
  }

  ref(): this {
    this.socket.ref();
    return this;
  }

  unref(): this {
    this.socket.unref();
    return this;
  }

  setKeepAlive(enable?: boolean, initialDelay?: number): this {
    this.socket.setKeepAlive(enable, initialDelay);
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }

  setTimeout(timeout: number, callback?: () => void): this {
    this.socket.setTimeout(timeout, callback);
    return this;
  }

  /** The ALPN protocol a TLS socket agreed (undici picks HTTP/1.1 or HTTP/2 by it). */
  get alpnProtocol(): string | false | undefined {
    return (this.socket as Socket & { alpnProtocol?: string | false }).alpnProtocol;
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  get remotePort(): number | undefined {
    return this.socket.remotePort;
  }

  get remoteFamily(): string | undefined {
    return this.socket.remoteFamily;
  }

  get localAddress(): string | undefined {
    return this.socket.localAddress;
  }

  get localPort(): number | undefined {
    return this.socket.localPort;
  }

  get bytesRead(): number {
    return this.socket.bytesRead;
  }

  get bytesWritten(): number {
    return this.socket.bytesWritten;
  }

  /** The socket undici is given: this reader, which it uses as the socket it stands for. */
  asSocket(): Socket {
    return this as unknown as Socket;
  }
}
