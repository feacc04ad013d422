/**
 * A socket as undici reads it, with the responses on it read first by the project's own rules (response-framing.ts).
 * undici's parser is stricter than RFC 9112 asks a client to be: it drops the connection on an unasked 100 Continue,
 * refuses an obs-fold, a Content-Length beside Transfer-Encoding or one repeated, and stops at 16 KiB of head. Here each
 * response is read as the load connections read it, and undici is handed the same response in the strict form it
 * parses: interim responses left out, each head rewritten (`canonical`), a chunked body chunked again as it comes. Bytes
 * only flow through; TLS, the connection and every bound stay where they were.
 */
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { type BodyFraming, ResponseParser } from './response-framing.js';

const CRLF = Buffer.from('\r\n');
const LAST_CHUNK = Buffer.from('0\r\n\r\n');

/**
 * The reader over one socket; see the module's comment. Besides a stream, it has what undici uses of a socket: ref and
 * unref, the keep-alive and delay settings, the addresses its errors name. `method`: the request every response on it
 * answers (HEAD: no body).
 */
export class ResponseReader extends Duplex {
  private framing: BodyFraming = 'none';
  /** The socket ended cleanly: what undici has not read yet must stay readable once the socket closes. */
  private ended = false;

  constructor(
    private readonly socket: Socket,
    maxHeadBytes: number,
    method = 'GET',
  ) {
    super({ allowHalfOpen: true });
    const parser = new ResponseParser(
      {
        onHead: (head) => {
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
    socket.on('data', (chunk: Buffer) => {
      try {
        parser.feed(chunk);
      } catch (error) {
        // The answer came and cannot be read: undici fails the request with why, and the connection goes.
        this.destroy(error as Error);
      }
    });
    socket.on('end', () => {
      // A body delimited by the close is complete; a response cut short reaches undici as the close it is.
      if (!parser.cutShort) parser.end();
      this.ended = true;
      this.push(null);
    });
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => {
      if (!this.ended) this.destroy();
    });
  }

  /** Hands bytes to undici; a full buffer pauses the socket until undici reads again. */
  private forward(bytes: Buffer): void {
    if (!this.push(bytes)) this.socket.pause();
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.socket.write(chunk, encoding, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy(error ?? undefined);
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
