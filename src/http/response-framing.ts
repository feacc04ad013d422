/**
 * HTTP/1.1 responses as RFC 9112 frames them, read by one set of rules wherever a response is read: under undici for the
 * functional client (response-reader.ts) and by the load connections. A client must take what real servers send: interim
 * 1xx responses are skipped (RFC 9110 §15.2), an obs-fold is replaced by a space (RFC 9112 §5.2), Transfer-Encoding wins
 * over Content-Length (§6.3), a Content-Length repeated with one value is that value (§6.3), a bare LF ends a line (§2.2),
 * and a head is read up to a bound the user can raise. Each head is rewritten in the strict form (`canonical`) undici's
 * parser reads; a body is handed on in pieces as it arrives, never gathered.
 */
import { DEFAULT_MAX_HEADER_BYTES } from '../model/connection.js';

/** Why a response cannot be read: it breaks HTTP/1.1 framing, or its head is over the bound. */
export type ProtocolErrorCode = 'ERR_HTTP_PROTOCOL' | 'ERR_HEAD_TOO_LARGE';

/** A response that cannot be read: the connection cannot be trusted any further. The message says why in words. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly code: ProtocolErrorCode = 'ERR_HTTP_PROTOCOL',
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** The largest head (status line and header lines) read unless a run says otherwise (--max-header-bytes). */
export const DEFAULT_MAX_HEAD_BYTES = DEFAULT_MAX_HEADER_BYTES;
const MAX_CHUNK_LINE_BYTES = 1024;

/** A head over the bound, in words that say how to raise it. */
export function headTooLarge(max: number): ProtocolError {
  return new ProtocolError(
    `the response head is larger than ${max} bytes, this client's limit (--max-header-bytes raises it)`,
    'ERR_HEAD_TOO_LARGE',
  );
}

/** How the body of a response is delimited. */
export type BodyFraming = 'none' | 'length' | 'chunked' | 'until-close';

/** A final response's head: its status, how its body is framed, whether the connection closes after it, and its strict form. */
export interface ResponseHead {
  status: number;
  framing: BodyFraming;
  /** The body's length when `framing` is `length`. */
  length: number;
  close: boolean;
  /** The server answered in HTTP/1.0: it may not read a chunked request body (RFC 9112 §6.1). */
  http10: boolean;
  /** The status line and header lines as undici's strict parser reads them, joined by CRLF, without the blank line. */
  canonical: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?:[ \t](.*))?$/;
const REASON = /^[\t\x20-\x7e\x80-\xff]*$/;
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
const CONTROLS = /[\x00-\x08\x0a-\x1f\x7f]/g;

/** One header field as received: its name, and its value with every obs-fold replaced by a space. */
interface Field {
  name: string;
  lower: string;
  value: string;
}

/** A value without its surrounding whitespace, with every control character but HTAB replaced by a space (RFC 9110 §5.5). */
function cleanValue(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value.charCodeAt(start) === 0x20 || value.charCodeAt(start) === 0x09)) start += 1;
  while (end > start && (value.charCodeAt(end - 1) === 0x20 || value.charCodeAt(end - 1) === 0x09)) end -= 1;
  const trimmed = value.slice(start, end);
  return CONTROL.test(trimmed) ? trimmed.replace(CONTROLS, ' ') : trimmed;
}

/** The header fields of the lines after the status line: obs-folds joined, whitespace before the first field dropped (§2.2). */
function fieldsOf(lines: readonly string[]): Field[] {
  const fields: Field[] = [];
  for (const line of lines) {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      const previous = fields.at(-1);
      // An obs-fold (§5.2), replaced by one space; before any field, a line a recipient may consume unread (§2.2).
      if (previous !== undefined) previous.value = `${previous.value.replace(/[ \t]+$/, '')} ${line.replace(/^[ \t]+/, '')}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) throw new ProtocolError(`a header line without a name: ${JSON.stringify(line.slice(0, 80))}`);
    // Whitespace before the colon is no part of the name (a proxy must remove it, §5.1).
    const name = line.slice(0, colon).replace(/[ \t]+$/, '');
    if (!TOKEN.test(name)) throw new ProtocolError(`a header name that is not a token: ${JSON.stringify(name.slice(0, 80))}`);
    fields.push({ name, lower: name.toLowerCase(), value: line.slice(colon + 1) });
  }
  for (const field of fields) field.value = cleanValue(field.value);
  return fields;
}

/** The one length a response's Content-Length fields state (a list or repeats of one value are that value), or undefined when none. */
function contentLength(fields: readonly Field[]): number | undefined {
  const values = fields.filter((f) => f.lower === 'content-length').flatMap((f) => f.value.split(',').map((v) => v.trim()));
  if (values.length === 0) return undefined;
  const first = values[0] as string;
  if (!/^\d{1,15}$/.test(first) || values.some((v) => v !== first))
    throw new ProtocolError(`an invalid Content-Length: ${JSON.stringify(values.join(', ').slice(0, 40))}`);
  return Number(first);
}

/**
 * Reads one head (status line and header lines, without the blank line). `requestMethod` decides whether a body follows
 * (none for HEAD). Throws ProtocolError when it cannot be read.
 */
export function parseHead(head: string, requestMethod = 'GET'): ResponseHead {
  const lines = head.split(/\r?\n/);
  const statusLine = STATUS_LINE.exec(lines[0] ?? '');
  if (statusLine === null) throw new ProtocolError(`not an HTTP/1.x status line: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
  const http10 = statusLine[1] === '0';
  const status = Number(statusLine[2]);
  if (status < 100) throw new ProtocolError(`a status code under 100: ${status}`);
  const reason = statusLine[3] ?? '';
  const fields = fieldsOf(lines.slice(1));
  const codings = fields
    .filter((f) => f.lower === 'transfer-encoding')
    .flatMap((f) => f.value.toLowerCase().split(','))
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const transferCoded = codings.length > 0;
  // Transfer-Encoding overrides Content-Length (§6.3): with both, the length is not read and not passed on.
  const length = transferCoded ? undefined : contentLength(fields);
  const tokens = fields
    .filter((f) => f.lower === 'connection')
    .flatMap((f) => f.value.toLowerCase().split(','))
    .map((c) => c.trim());
  const close = tokens.includes('close') || (http10 && !tokens.includes('keep-alive'));
  // A 1xx, 204 or 304 has no body whatever its framing headers say (§6.3): they are not passed on (undici would wait for one).
  const bodiless = status < 200 || status === 204 || status === 304;
  let lengthWritten = false;
  const kept = fields.filter((f) => {
    if (bodiless && (f.lower === 'content-length' || f.lower === 'transfer-encoding')) return false;
    if (f.lower !== 'content-length') return true;
    if (transferCoded || lengthWritten) return false;
    lengthWritten = true;
    return true;
  });
  const canonical = [
    `HTTP/1.${statusLine[1]} ${status} ${REASON.test(reason) ? reason : ''}`,
    ...kept.map((f) => `${f.name}: ${f.lower === 'content-length' ? String(length) : f.value}`),
  ].join('\r\n');
  const framed = { status, close, http10, canonical };
  // No body after 1xx, 204 and 304, or for HEAD (§6.3).
  if (bodiless || requestMethod === 'HEAD') return { ...framed, framing: 'none', length: 0 };
  // In a response, a transfer coding other than a final chunked is read until the close (§6.3).
  if (transferCoded) return { ...framed, framing: codings.at(-1) === 'chunked' ? 'chunked' : 'until-close', length: 0 };
  if (length === undefined) return { ...framed, framing: 'until-close', length: 0, close: true };
  return { ...framed, framing: 'length', length };
}

/** What the parser reports as it reads. */
export interface ResponseEvents {
  /** The final (non-1xx) status line and headers were read. */
  onHead(head: ResponseHead): void;
  /** Some body bytes, transfer coding taken off (a view into the socket's chunk: copy to keep). */
  onBody(bytes: Buffer): void;
  /** The response is complete; `close` when the connection must not be reused. */
  onComplete(close: boolean): void;
}

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'closed';

/** Where the first empty line ends in `data` (CRLF CRLF, or with bare LFs), and where the text before it ends; undefined when none yet. */
function blankLine(data: Buffer): { textEnd: number; end: number } | undefined {
  const crlf = data.indexOf('\n\r\n');
  const lf = data.indexOf('\n\n');
  const at = crlf === -1 ? lf : lf === -1 ? crlf : Math.min(crlf, lf);
  if (at === -1) return undefined;
  return { textEnd: at > 0 && data[at - 1] === 0x0d ? at - 1 : at, end: at + (at === crlf ? 3 : 2) };
}

/** The end of the line that starts `data` (after its LF), and where its text ends (before a CR); undefined when it has no end yet. */
function lineEnd(data: Buffer): { textEnd: number; end: number } | undefined {
  const at = data.indexOf('\n');
  if (at === -1) return undefined;
  return { textEnd: at > 0 && data[at - 1] === 0x0d ? at - 1 : at, end: at + 1 };
}

/** Parses the responses of one connection, one after another; feed it every chunk, and `end()` when the server closes. */
export class ResponseParser {
  private state: State = 'head';
  private pending: Buffer | undefined;
  private remaining = 0;
  private trailerBytes = 0;
  private close = false;

  /** `method`: the request's (a HEAD is answered without a body); `maxHeadBytes`: the largest head read. */
  constructor(
    private readonly events: ResponseEvents,
    private readonly method = 'GET',
    private readonly maxHeadBytes = DEFAULT_MAX_HEAD_BYTES,
  ) {}

  /** Whether the parser is between responses (nothing of the next one read yet). */
  get idle(): boolean {
    return (this.state === 'head' || this.state === 'closed') && this.pending === undefined;
  }

  /** Whether a close now would cut an answer short: part of one was read, and it is not delimited by the close. */
  get cutShort(): boolean {
    return !this.idle && this.state !== 'until-close';
  }

  /** Reads bytes; throws ProtocolError on a response that cannot be read. After a response that closes the connection, ignores the rest. */
  feed(chunk: Buffer): void {
    let data = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    while (data.length > 0) {
      switch (this.state) {
        case 'closed':
          return;
        case 'head': {
          const blank = blankLine(data);
          if (blank === undefined) {
            if (data.length > this.maxHeadBytes) throw headTooLarge(this.maxHeadBytes);
            this.pending = data;
            return;
          }
          if (blank.end > this.maxHeadBytes) throw headTooLarge(this.maxHeadBytes);
          const head = parseHead(data.toString('latin1', 0, blank.textEnd), this.method);
          data = data.subarray(blank.end);
          if (head.status < 200) {
            if (head.status === 101) throw new ProtocolError('a 101 Switching Protocols no request asked for');
            continue;
          }
          this.events.onHead(head);
          this.close = head.close;
          this.begin(head);
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
          const line = lineEnd(data);
          if (line === undefined) {
            if (data.length > MAX_CHUNK_LINE_BYTES) throw new ProtocolError('a chunk size line longer than 1024 bytes');
            this.pending = data;
            return;
          }
          const sizeText = data.toString('latin1', 0, line.textEnd).split(';')[0]?.trim() ?? '';
          if (!/^[0-9a-fA-F]{1,12}$/.test(sizeText))
            throw new ProtocolError(`an invalid chunk size: ${JSON.stringify(sizeText.slice(0, 20))}`);
          this.remaining = parseInt(sizeText, 16);
          data = data.subarray(line.end);
          this.trailerBytes = 0;
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
          // CRLF, or a bare LF (§2.2).
          const end = data[0] === 0x0a ? 1 : data[0] === 0x0d && data[1] === 0x0a ? 2 : data[0] === 0x0d && data.length === 1 ? 0 : -1;
          if (end === -1) throw new ProtocolError('a chunk not followed by CRLF');
          if (end === 0) {
            this.pending = data;
            return;
          }
          data = data.subarray(end);
          this.state = 'chunk-size';
          break;
        }
        case 'trailers': {
          const line = lineEnd(data);
          if (line === undefined) {
            if (this.trailerBytes + data.length > this.maxHeadBytes)
              throw new ProtocolError(`trailers longer than ${this.maxHeadBytes} bytes`);
            this.pending = data;
            return;
          }
          this.trailerBytes += line.end;
          if (this.trailerBytes > this.maxHeadBytes) throw new ProtocolError(`trailers longer than ${this.maxHeadBytes} bytes`);
          data = data.subarray(line.end);
          if (line.textEnd === 0) this.complete();
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

  /** Sets out to read the body `head` frames. */
  private begin(head: ResponseHead): void {
    if (head.framing === 'chunked') this.state = 'chunk-size';
    else if (head.framing === 'until-close') this.state = 'until-close';
    else {
      this.remaining = head.length;
      this.state = 'length';
      if (this.remaining === 0) this.complete();
    }
  }

  private complete(): void {
    this.state = this.close ? 'closed' : 'head';
    this.events.onComplete(this.close);
  }
}
