/**
 * The lowest layer of the client: one exchange over undici within one deadline, its body read up to a bound, nothing
 * judged. Its connections are opened by the service connector, which reads every response by the project's own HTTP/1.1
 * rules before undici sees it (interim responses, obs-fold, large heads, Transfer-Encoding beside Content-Length).
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { ConnectionSettings, ProxyRoute } from '../model/connection.js';
import type { Exchange, ReceivedResponse } from '../model/exchange.js';
import { parseExactJson } from '../model/json.js';
import { invalidUtf8Offset } from '../model/utf8.js';
import { type DecodedBody, decodeBody } from './content-coding.js';
import { routeTo, tunnelsThroughProxy } from './connection.js';
import type { RequestFraming } from './framing.js';
import { DEFAULT_MAX_HEAD_BYTES, headTooLarge, ProtocolError } from './response-framing.js';
import type { RunStop } from './run-stop.js';
import { type BodyProgress, CERTIFICATE_CODES, NotSent, type OutgoingRequest, type Sender, TransportError } from './sender.js';
import { proxyName, proxyShown } from './proxy.js';
import { CREDENTIALS_FORM, ProxyError, type ServiceConnectors, serviceConnectors } from './service-connector.js';
import { UNDICI } from './undici-parts.js';

/** The bounds of one exchange and the pool it goes over. */
export interface CaptureOptions extends ConnectionSettings {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  /** Deadline for the whole exchange, body included. */
  requestTimeoutMs: number;
  maxResponseBytes: number;
  connections: number;
}

const TIMEOUT_CODES: ReadonlySet<string> = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ERR_REQUEST_TIMEOUT']);

/** Pulls a stable code and a readable reason out of whatever undici or Node threw; every timeout says which bound it hit. */
function describeTransportFailure(error: unknown, options: CaptureOptions): { code: string; message: string } {
  // The reader's and the proxy connector's errors say what happened in words of their own.
  if (error instanceof ProtocolError)
    return {
      code: error.code,
      message: error.code === 'ERR_HEAD_TOO_LARGE' ? error.message : `an invalid HTTP response: ${error.message}`,
    };
  if (error instanceof ProxyError) return { code: error.code, message: oneLine(error.message) };
  if ((error as { code?: unknown }).code === 'UND_ERR_HEADERS_OVERFLOW')
    return { code: 'ERR_HEAD_TOO_LARGE', message: headTooLarge(options.maxHeaderBytes ?? DEFAULT_MAX_HEAD_BYTES).message };
  const e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code =
    typeof e.code === 'string'
      ? e.code
      : typeof e.cause?.code === 'string'
        ? e.cause.code
        : typeof e.name === 'string'
          ? e.name
          : 'ERR_UNKNOWN';
  const reason =
    typeof e.cause?.message === 'string' && e.cause.message !== ''
      ? e.cause.message
      : typeof e.message === 'string'
        ? e.message
        : String(error);
  // The deadline's own words say how long it waited: a body arriving at a useful pace is given longer than --timeout.
  if (code === 'TimeoutError' || code === 'AbortError')
    return {
      code: 'ERR_REQUEST_TIMEOUT',
      message:
        code === 'TimeoutError' && reason.startsWith('no complete response')
          ? reason
          : `no complete response within ${options.requestTimeoutMs} ms`,
    };
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { code, message: `no response headers within ${options.headersTimeoutMs} ms` };
  if (code === 'UND_ERR_BODY_TIMEOUT') return { code, message: `the response body stalled for ${options.requestTimeoutMs} ms` };
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { code, message: `could not connect within ${options.connectTimeoutMs} ms` };
  if (CERTIFICATE_CODES.test(code)) return { code, message: `TLS certificate rejected (${oneLine(reason)})` };
  if (code.startsWith('ERR_SSL_')) return { code, message: `TLS handshake failed (${openSslWords(reason)})` };
  return { code, message: reason === '' ? code : oneLine(reason) };
}

/**
 * A body as a stream of two chunks: undici sends a stream with chunked transfer coding, without a Content-Length. Both
 * chunks and the end are in the stream before undici reads it, so they leave one right after the other with no wait
 * between: a server that answers from the head and closes without reading the body (a 401) has less time to reset the
 * connection under the chunks still on their way, which loses its answer. Object mode keeps undici from taking the
 * length of a stream already ended and sending a Content-Length instead.
 */
function chunked(body: string | Buffer): Readable {
  const bytes = Buffer.from(body);
  const half = Math.floor(bytes.length / 2);
  const stream = new Readable({ objectMode: true, read: () => undefined });
  stream.push(bytes.subarray(0, half));
  stream.push(bytes.subarray(half));
  stream.push(null);
  return stream;
}

/** A reason on one line: whatever a library wrote over several lines never splits the line that reports it. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\s:]+$/, '');
}

/**
 * OpenSSL's error string (`807C...:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../ssl3_record.c:350:`)
 * as its words alone.
 */
function openSslWords(reason: string): string {
  return oneLine(/error:[0-9A-Fa-f]+:[^:]*:[^:]*:([^:]+)/.exec(reason)?.[1] ?? reason);
}

/**
 * What ends a connection of its own once its one exchange is over (nothing is pending on it then). close() would make an
 * error of its own twice per connection (the agent's and its client's), each with its stack: 150 creates a run.
 */
const EXCHANGE_OVER = new Error('the exchange on a connection of its own is over');

/** Sends over a bounded undici pool bound to the base URL's origin (through the proxy when one applies); never follows redirects. */
export class UndiciCapture implements Sender {
  private readonly proxy: ProxyRoute | undefined;
  /** Through a proxy, plain http goes to the proxy itself in absolute form, with the proxy's credentials (as curl does). */
  private readonly forwarded: Record<string, string> | undefined;
  private readonly connectors: ServiceConnectors;
  private readonly agent: Dispatcher;
  private sent = 0;
  /** The large bodies read last, as read: the same bytes again are not decoded and parsed again. */
  private readonly recent = new RecentBodies();
  /** A response in HTTP/1.0 was read: the server need not read a chunked body, so none is sent to it. */
  private http10 = false;

  constructor(
    private readonly options: CaptureOptions,
    private readonly framing: RequestFraming,
    private readonly stop: RunStop,
    private readonly redact: (text: string) => string,
  ) {
    this.proxy = routeTo(framing.base, options);
    this.forwarded =
      this.proxy === undefined || tunnelsThroughProxy(framing.base)
        ? undefined
        : this.proxy.authorization === undefined
          ? {}
          : { 'proxy-authorization': this.proxy.authorization };
    this.connectors = serviceConnectors({
      base: framing.base,
      settings: options,
      connectTimeoutMs: options.connectTimeoutMs,
      maxHeadBytes: options.maxHeaderBytes ?? DEFAULT_MAX_HEAD_BYTES,
      heard: (head) => {
        if (head.http10) this.http10 = true;
      },
    });
    this.agent = this.newAgent(options.connections);
  }

  /** Every exchange begun, retried and throttled ones included. */
  get count(): number {
    return this.sent;
  }

  /**
   * A pool of `connections` to the origin, through the proxy when one applies (TLS to the origin verified end to end),
   * every response read by the project's rules first; `method` when every request on it has that method (HEAD).
   */
  private newAgent(connections: number, method?: string): Dispatcher {
    const { headersTimeoutMs, requestTimeoutMs } = this.options;
    return new UNDICI.Agent({
      connect: this.connectors(method),
      // The reader holds heads to the same bound, and hands undici fewer bytes than it read: undici's is never met first.
      maxHeaderSize: this.options.maxHeaderBytes ?? DEFAULT_MAX_HEAD_BYTES,
      headersTimeout: headersTimeoutMs,
      bodyTimeout: requestTimeoutMs,
      connections,
    });
  }

  /**
   * One exchange on the shared pool, or on a fresh connection of its own, aborted by the request's signal (the deadline
   * layer's). Throws TransportError (`beforeResponse` says whether a response had been read), or the stop's RunError when
   * the client stopped or the run was interrupted.
   */
  async send(req: OutgoingRequest): Promise<Exchange> {
    if (req.chunked === true && this.http10)
      throw new NotSent(
        'http10',
        'has a chunked body, and the server answers in HTTP/1.0, which need not read one (RFC 9112 §6.1): not sent',
      );
    const framed = this.framing.frame(req);
    this.sent += 1;
    if (req.tally !== undefined) req.tally.sent += 1;
    const started = performance.now();
    // A HEAD is answered without a body whatever its head says: the reader of its connection must know, so it has its own.
    const own = req.freshConnection === true || req.method === 'HEAD';
    const dispatcher = own ? this.newAgent(1, req.method === 'HEAD' ? 'HEAD' : undefined) : this.agent;
    let beforeResponse = true;
    try {
      const response = await UNDICI.request(
        framed.url,
        {
          method: framed.method as Dispatcher.HttpMethod,
          headers: this.forwarded === undefined ? framed.headers : { ...framed.headers, ...this.forwarded },
          body: req.chunked === true && framed.body !== undefined ? chunked(framed.body) : (framed.body ?? null),
          dispatcher,
          signal: req.signal ?? null,
        },
        this.forwarded !== undefined,
        framed.target,
      );
      // Plain http goes to the proxy itself: its 407 is the proxy's refusal, never the service's answer to judge.
      if (response.statusCode === 407 && this.proxy !== undefined && this.forwarded !== undefined) {
        await response.body.dump();
        throw new ProxyError(
          `${proxyName(this.proxy)} asked for credentials (407): give them in its URL (${CREDENTIALS_FORM})`,
          'ERR_PROXY_AUTH',
          proxyShown(this.proxy),
        );
      }
      beforeResponse = false;
      const received = await capture(response, this.options.maxResponseBytes, this.recent, req.progress);
      return { request: framed.sent, response: received, durationMs: performance.now() - started };
    } catch (error) {
      const halted = this.stop.halted('interrupted: the request in flight was aborted');
      if (halted !== undefined) throw halted;
      const { code, message } = describeTransportFailure(error, this.options);
      const via =
        error instanceof ProxyError
          ? error.proxy
          : this.forwarded === undefined || this.proxy === undefined
            ? undefined
            : proxyShown(this.proxy);
      throw new TransportError(code, this.redact(message), framed.sent, {
        timedOut: TIMEOUT_CODES.has(code),
        answeredMeanwhile: 0,
        beforeResponse,
        unreadable: error instanceof ProtocolError || code === 'ERR_HEAD_TOO_LARGE',
        ...(via === undefined ? {} : { via }),
      });
    } finally {
      if (own) await dispatcher.destroy(EXCHANGE_OVER);
    }
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** The response as received: headers lower-cased, the bytes as sent (bounded), the text and, when it parses, the JSON. */
async function capture(
  response: Dispatcher.ResponseData,
  max: number,
  recent: RecentBodies,
  progress?: BodyProgress,
): Promise<ReceivedResponse> {
  const read = await readBounded(response, max, progress);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  // A body cut at the bound cannot be decoded whole: it is kept as sent, and judged as cut.
  const decoded: DecodedBody = read.truncated
    ? { body: read.raw, truncated: true }
    : decodeBody(read.raw, headers['content-encoding'], max);
  const raw = decoded.body;
  const truncated = read.truncated || decoded.truncated;
  const received: ReceivedResponse = { status: response.statusCode, headers, raw, bodyText: '', bytes: read.raw.length, truncated };
  if (decoded.coding !== undefined) received.coding = decoded.coding;
  if (decoded.error !== undefined) {
    received.bodyText = raw.toString('utf8');
    received.jsonError = decoded.error;
    return received;
  }
  return Object.assign(received, recent.read(raw, truncated));
}

/** What the bytes of a body say once decoded as UTF-8 and parsed: the same for the same bytes. */
type BodyReading = Pick<ReceivedResponse, 'bodyText' | 'json' | 'jsonError' | 'invalidUtf8At'>;

/** The bodies this large or larger are remembered by their bytes' digest (one digest costs a tenth of a parse). */
const REMEMBERED_BODY_BYTES = 256 * 1024;
/** How many large bodies are remembered: a few, so that memory stays bounded by the size bound. */
const REMEMBERED_BODIES = 2;

/**
 * The last few large bodies read, by the digest of their bytes: a store that answers the same large page again (nothing
 * changed since the last read) is decoded and parsed once. What a reading holds is never changed by those who read it.
 */
class RecentBodies {
  private readonly readings = new Map<string, BodyReading>();

  read(raw: Buffer, truncated: boolean): BodyReading {
    if (raw.length < REMEMBERED_BODY_BYTES) return readBody(raw, truncated);
    const key = `${truncated ? 't' : 'w'}${createHash('sha256').update(raw).digest('base64')}`;
    const known = this.readings.get(key);
    if (known !== undefined) return known;
    const reading = readBody(raw, truncated);
    this.readings.set(key, reading);
    for (const old of this.readings.keys()) {
      if (this.readings.size <= REMEMBERED_BODIES) break;
      this.readings.delete(old);
    }
    return reading;
  }
}

/** The body's text, where it is not UTF-8, and its JSON (or why it is not JSON); nothing of a cut body is parsed. */
function readBody(raw: Buffer, truncated: boolean): BodyReading {
  const bodyText = raw.toString('utf8');
  const reading: BodyReading = { bodyText };
  const invalidUtf8At = invalidUtf8Offset(raw, truncated);
  if (invalidUtf8At !== undefined) reading.invalidUtf8At = invalidUtf8At;
  if (!truncated && bodyText.trim() !== '') {
    try {
      reading.json = parseExactJson(bodyText);
    } catch (error) {
      reading.jsonError = (error as Error).message;
    }
  }
  return reading;
}

/**
 * Reads the body into one buffer of at most `max` bytes, sized by Content-Length when the server gives one (grown
 * otherwise), each chunk copied in and released as it arrives: a list of chunks joined at the end holds every byte twice.
 */
async function readBounded(
  response: Dispatcher.ResponseData,
  max: number,
  progress: BodyProgress = { bytes: 0 },
): Promise<{ raw: Buffer; truncated: boolean }> {
  const declared = Number(response.headers['content-length']);
  let buffer = Buffer.allocUnsafe(Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, max) : Math.min(64 * 1024, max));
  let length = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    progress.bytes += chunk.length;
    const room = max - length;
    const taken = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (length + taken.length > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(max, Math.max(buffer.length * 2, length + taken.length)));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    taken.copy(buffer, length);
    length += taken.length;
    if (chunk.length > room) {
      response.body.destroy();
      return { raw: buffer.subarray(0, length), truncated: true };
    }
  }
  // The exchange keeps these bytes: a buffer grown past the body would keep its spare room alive with them.
  return { raw: length === buffer.length ? buffer : Buffer.from(buffer.subarray(0, length)), truncated: false };
}
