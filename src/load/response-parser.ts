/**
 * An incremental HTTP/1.1 response parser for the load connections: framing only (status, Content-Length, chunked,
 * close-delimited), bounded head, body bytes counted and handed on without being buffered.
 */

/** A response that breaks HTTP/1.1 framing: the connection cannot be trusted any further. */
export class ProtocolError extends Error {
  readonly code = 'ERR_LOAD_PROTOCOL';
}

/** What the parser reports as it reads. */
export interface ResponseEvents {
  /** The final (non-1xx) status line and headers were read. */
  onHead(status: number): void;
  /** Some body bytes (a view into the socket's chunk: copy to keep). */
  onBody(bytes: Buffer): void;
  /** The response is complete; `close` when the connection must not be reused. */
  onComplete(close: boolean): void;
}

/** The largest status line plus headers accepted (Node's own default is 16 KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE_BYTES = 1024;
const CRLF_CRLF = Buffer.from('\r\n\r\n');

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'closed';

interface Framing {
  status: number;
  length?: number;
  chunked: boolean;
  close: boolean;
}

/** Reads the framing of one head (status line and headers, without the blank line). */
export function parseHead(head: string, requestMethod = 'GET'): Framing {
  const lines = head.split('\r\n');
  const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (statusLine === null) throw new ProtocolError(`not an HTTP/1.x status line: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
  const http10 = statusLine[1] === '0';
  const status = Number(statusLine[2]);
  let length: number | undefined;
  let chunked = false;
  let connection = '';
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new ProtocolError(`a header line without a name: ${JSON.stringify(line.slice(0, 80))}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,15}$/.test(value) || (length !== undefined && length !== Number(value)))
        throw new ProtocolError(`an invalid Content-Length: ${JSON.stringify(value.slice(0, 40))}`);
      length = Number(value);
    } else if (name === 'transfer-encoding') {
      const codings = value
        .toLowerCase()
        .split(',')
        .map((c) => c.trim());
      if (codings.at(-1) !== 'chunked')
        throw new ProtocolError(`a Transfer-Encoding this client cannot read: ${JSON.stringify(value.slice(0, 40))}`);
      chunked = true;
    } else if (name === 'connection') {
      connection += `,${value.toLowerCase()}`;
    }
  }
  const tokens = connection.split(',').map((c) => c.trim());
  const close = tokens.includes('close') || (http10 && !tokens.includes('keep-alive'));
  // RFC 9112 6.3: no body after 1xx, 204 and 304 (or for HEAD); chunked wins over Content-Length.
  if (status < 200 || status === 204 || status === 304 || requestMethod === 'HEAD') return { status, length: 0, chunked: false, close };
  if (chunked) return { status, chunked: true, close };
  return length === undefined ? { status, chunked: false, close: true } : { status, length, chunked: false, close };
}

/** Parses the responses of one connection, one after another; feed it every chunk, and `end()` when the server closes. */
export class ResponseParser {
  private state: State = 'head';
  private pending: Buffer | undefined;
  private remaining = 0;
  private close = false;
  private readonly events: ResponseEvents;
  private readonly method: string;

  constructor(events: ResponseEvents, method = 'GET') {
    this.events = events;
    this.method = method;
  }

  /** Whether the parser is between responses (nothing of the next one read yet). */
  get idle(): boolean {
    return (this.state === 'head' || this.state === 'closed') && this.pending === undefined;
  }

  /** Whether a close now would cut an answer short: part of one was read, and it is not delimited by the close. */
  get cutShort(): boolean {
    return !this.idle && this.state !== 'until-close';
  }

  /** Reads bytes; throws ProtocolError on a response that breaks framing. After a response that closes the connection, ignores the rest. */
  feed(chunk: Buffer): void {
    let data = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    while (data.length > 0) {
      switch (this.state) {
        case 'closed':
          return;
        case 'head': {
          const end = data.indexOf(CRLF_CRLF);
          if (end === -1) {
            if (data.length > MAX_HEAD_BYTES) throw new ProtocolError(`a response head longer than ${MAX_HEAD_BYTES} bytes`);
            this.pending = data;
            return;
          }
          if (end > MAX_HEAD_BYTES) throw new ProtocolError(`a response head longer than ${MAX_HEAD_BYTES} bytes`);
          const framing = parseHead(data.toString('latin1', 0, end), this.method);
          data = data.subarray(end + 4);
          if (framing.status < 200) continue;
          this.events.onHead(framing.status);
          this.close = framing.close;
          if (framing.chunked) this.state = 'chunk-size';
          else if (framing.length === undefined) this.state = 'until-close';
          else {
            this.remaining = framing.length;
            this.state = 'length';
            if (this.remaining === 0) this.complete();
          }
          break;
        }
        case 'length': {
          const take = Math.min(this.remaining, data.length);
          this.events.onBody(data.subarray(0, take));
          this.remaining -= take;
          data = data.subarray(take);
          if (this.remaining === 0) this.complete();
          break;
        }
        case 'until-close':
          this.events.onBody(data);
          return;
        case 'chunk-size': {
          const end = data.indexOf('\r\n');
          if (end === -1) {
            if (data.length > MAX_CHUNK_LINE_BYTES) throw new ProtocolError('a chunk size line longer than 1024 bytes');
            this.pending = data;
            return;
          }
          const sizeText = data.toString('latin1', 0, end).split(';')[0]?.trim() ?? '';
          if (!/^[0-9a-fA-F]{1,12}$/.test(sizeText))
            throw new ProtocolError(`an invalid chunk size: ${JSON.stringify(sizeText.slice(0, 20))}`);
          this.remaining = parseInt(sizeText, 16);
          data = data.subarray(end + 2);
          this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
          break;
        }
        case 'chunk-data': {
          const take = Math.min(this.remaining, data.length);
          this.events.onBody(data.subarray(0, take));
          this.remaining -= take;
          data = data.subarray(take);
          if (this.remaining === 0) this.state = 'chunk-end';
          break;
        }
        case 'chunk-end': {
          if (data.length < 2) {
            this.pending = data;
            return;
          }
          if (data[0] !== 0x0d || data[1] !== 0x0a) throw new ProtocolError('a chunk not followed by CRLF');
          data = data.subarray(2);
          this.state = 'chunk-size';
          break;
        }
        case 'trailers': {
          const end = data.indexOf('\r\n');
          if (end === -1) {
            if (data.length > MAX_HEAD_BYTES) throw new ProtocolError(`trailers longer than ${MAX_HEAD_BYTES} bytes`);
            this.pending = data;
            return;
          }
          data = data.subarray(end + 2);
          if (end === 0) this.complete();
          break;
        }
      }
    }
  }

  /** The server closed the connection: completes a close-delimited body; throws when a response was cut short. */
  end(): void {
    if (this.state === 'until-close') {
      this.close = true;
      this.complete();
      return;
    }
    if (!this.idle) throw new ProtocolError('the connection closed in the middle of a response');
  }

  private complete(): void {
    this.state = this.close ? 'closed' : 'head';
    this.events.onComplete(this.close);
  }
}
