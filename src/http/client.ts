/** The one HTTP client of a run: a bounded undici Agent bound to the base URL's origin. */
import { Agent, request, type Dispatcher } from 'undici';
import { parseExactJson, stringifyExactJson, type JsonValue } from '../model/json.js';
import type { Exchange, ReceivedResponse, SentRequest } from '../model/exchange.js';
import type { AuthVariant, OperationName } from '../model/scenario.js';
import { authorizationHeader, describeAuthorization, makeRedactor } from './credentials.js';

/** Bounds and identity of the client. */
export interface HttpClientOptions {
  baseUrl: string;
  apiKey: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  /** Deadline for the whole exchange, body included. */
  requestTimeoutMs: number;
  maxResponseBytes: number;
  connections: number;
  /** Extra trusted CA certificates (PEM) for a server behind a private CA. */
  ca?: string;
}

/** Sensible bounds for a functional run. */
export const DEFAULT_HTTP_OPTIONS = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  maxResponseBytes: 4 * 1024 * 1024,
  connections: 8,
} as const;

/** A request to send, relative to the base URL. */
export interface OutgoingRequest {
  method: string;
  /** Path relative to the base URL, e.g. /pets/42 (already filled, already encoded). */
  path: string;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: string;
  json?: JsonValue;
  auth: AuthVariant;
  operation: OperationName;
}

/** A failure to exchange at all: no response to judge. `code` is stable (undici's or Node's). */
export class TransportError extends Error {
  readonly code: string;
  readonly sent: SentRequest;

  constructor(code: string, message: string, sent: SentRequest) {
    super(message);
    this.name = 'TransportError';
    this.code = code;
    this.sent = sent;
  }
}

const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|UNABLE_TO_GET_ISSUER/;

/** Pulls a stable code and a readable reason out of whatever undici or Node threw. */
function describeTransportFailure(error: unknown): { code: string; message: string } {
  const e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code = typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : typeof e.name === 'string' ? e.name : 'ERR_UNKNOWN';
  const reason = typeof e.cause?.message === 'string' && e.cause.message !== '' ? e.cause.message : typeof e.message === 'string' ? e.message : String(error);
  if (code === 'TimeoutError' || code === 'AbortError') return { code: 'ERR_REQUEST_TIMEOUT', message: 'the whole-request deadline passed' };
  if (CERTIFICATE_CODES.test(code)) return { code, message: `TLS certificate rejected (${reason})` };
  return { code, message: reason };
}

/** Sends requests to one origin with bounded time and size; never follows redirects. */
export class HttpClient {
  readonly base: URL;
  readonly redact: (text: string) => string;
  private readonly agent: Agent;
  private readonly options: HttpClientOptions;
  private sent = 0;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl.slice(0, -1) : options.baseUrl);
    this.redact = makeRedactor(options.apiKey);
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs, ...(options.ca === undefined ? {} : { ca: options.ca }) },
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.requestTimeoutMs,
      connections: options.connections,
    });
  }

  /** The absolute URL of a relative target: only the path and query change, so the origin is always the base's. */
  urlFor(path: string, query: ReadonlyArray<[string, string]>): URL {
    const url = new URL(this.base.href);
    url.pathname = `${this.base.pathname.replace(/\/$/, '')}${path}`;
    const search = new URLSearchParams();
    for (const [k, v] of query) search.append(k, v);
    url.search = search.toString();
    return url;
  }

  /** Sends one request and reads a bounded response. Throws TransportError when nothing came back. */
  async send(req: OutgoingRequest): Promise<Exchange> {
    const url = this.urlFor(req.path, req.query);
    const headers: Record<string, string> = { accept: 'application/json', ...lowerCaseKeys(req.headers) };
    let body = req.body;
    if (req.json !== undefined) {
      body = stringifyExactJson(req.json);
      headers['content-type'] ??= 'application/json';
    }
    const authorization = authorizationHeader(req.auth, this.options.apiKey);
    const shown = describeAuthorization(req.auth);
    const sent: SentRequest = {
      method: req.method,
      url: url.href,
      target: `${req.path}${url.search}`,
      headers: shown === undefined ? { ...headers } : { ...headers, authorization: shown },
      auth: req.auth,
      operation: req.operation,
    };
    if (body !== undefined) sent.body = this.redact(body);
    if (req.json !== undefined) sent.json = req.json;
    if (authorization !== undefined) headers['authorization'] = authorization;
    const started = performance.now();
    this.sent += 1;
    try {
      const response = await request(url, {
        method: req.method as Dispatcher.HttpMethod,
        headers,
        body: body ?? null,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.requestTimeoutMs),
      });
      const received = await this.readResponse(response);
      return { request: sent, response: received, durationMs: performance.now() - started };
    } catch (error) {
      const { code, message } = describeTransportFailure(error);
      throw new TransportError(code, this.redact(message), sent);
    }
  }

  private async readResponse(response: Dispatcher.ResponseData): Promise<ReceivedResponse> {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let truncated = false;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      const room = this.options.maxResponseBytes - bytes;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        bytes += room;
        truncated = true;
        response.body.destroy();
        break;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    }
    // Parsing the redacted text means no check message can quote a key the server echoed back.
    const bodyText = this.redact(Buffer.concat(chunks).toString('utf8'));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = this.redact(Array.isArray(value) ? value.join(', ') : value);
    }
    const received: ReceivedResponse = { status: response.statusCode, headers, bodyText, bytes, truncated };
    if (!truncated && bodyText.trim() !== '') {
      try {
        received.json = parseExactJson(bodyText);
      } catch (error) {
        received.jsonError = (error as Error).message;
      }
    }
    return received;
  }

  /** How many requests this client has sent. */
  get requestCount(): number {
    return this.sent;
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

function lowerCaseKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]));
}
