/** The one HTTP client of a run: a bounded undici Agent bound to the base URL's origin. */
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { parseExactJson, stringifyExactJson, type JsonValue } from '../model/json.js';
import type { Exchange, ReceivedResponse, SentRequest, ServerWait } from '../model/exchange.js';
import type { AuthVariant, OperationName } from '../model/scenario.js';
import { RunError } from '../model/errors.js';
import { invalidUtf8Offset } from '../model/utf8.js';
import type { Clock } from '../model/clock.js';
import { REQUEST_BOUNDS, type ConnectionSettings, type ProxyRoute } from '../model/connection.js';
import { authorizationHeader, describeAuthorization } from './credentials.js';
import { routeTo, runRedactor, sentHeaders, serviceTls, shownHeaders } from './connection.js';
import { guardSignal } from './deadline.js';
import { DEFAULT_PACING, Pacer, retryAfterMs, type PacingOptions, type WaitGranted, type WaitRefusal } from './pacer.js';

/** Bounds and identity of the client, and how it reaches the service (trust, client certificate, proxy, extra headers). */
export interface HttpClientOptions extends ConnectionSettings {
  baseUrl: string;
  apiKey: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  /** Deadline for the whole exchange, body included. */
  requestTimeoutMs: number;
  maxResponseBytes: number;
  connections: number;
  /** Rate limit and waiting bounds (default: no rate limit, DEFAULT_PACING's bounds). */
  pacing?: PacingOptions;
  /** Aborts the requests in flight: the run was interrupted and their grace ran out. */
  abort?: AbortSignal;
  /** Told of every wait the server asks for, as it begins (so that a person sees why nothing moves). */
  onWait?: (wait: ServerWait) => void;
  /** What the pacer waits by (default: the real clock). */
  waitClock?: Clock;
}

/** Sensible bounds for a functional run. */
export const DEFAULT_HTTP_OPTIONS = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  ...REQUEST_BOUNDS,
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
  /** The request waited out a deadline (connect excluded): the server took it and did not answer. */
  readonly timedOut: boolean;
  /** How many other requests the server answered while this one waited. */
  readonly answeredMeanwhile: number;

  constructor(
    code: string,
    message: string,
    sent: SentRequest,
    timing: { timedOut: boolean; answeredMeanwhile: number } = { timedOut: false, answeredMeanwhile: 0 },
  ) {
    super(message);
    this.name = 'TransportError';
    this.code = code;
    this.sent = sent;
    this.timedOut = timing.timedOut;
    this.answeredMeanwhile = timing.answeredMeanwhile;
  }
}

/** Error codes of a TLS certificate that failed verification. */
export const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|UNABLE_TO_GET_ISSUER/;
/** Codes of a connection that closed under a request: on a kept-alive connection, the server may have closed it as idle. */
const CLOSED_CONNECTION_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ERR_REQUEST_TIMEOUT']);
/** The first backoff of a throttled request, doubled each time the same request is throttled again. */
const THROTTLE_BACKOFF_MS = 250;
/** After this many requests in a row got no answer at all, the server is gone and the run stops. */
const FAILURES_BEFORE_STOP = 3;

/** Pulls a stable code and a readable reason out of whatever undici or Node threw; every timeout says which bound it hit. */
function describeTransportFailure(error: unknown, options: HttpClientOptions): { code: string; message: string } {
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
  if (code === 'TimeoutError' || code === 'AbortError')
    return { code: 'ERR_REQUEST_TIMEOUT', message: `no complete response within ${options.requestTimeoutMs} ms` };
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { code, message: `no response headers within ${options.headersTimeoutMs} ms` };
  if (code === 'UND_ERR_BODY_TIMEOUT') return { code, message: `the response body stalled for ${options.requestTimeoutMs} ms` };
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { code, message: `could not connect within ${options.connectTimeoutMs} ms` };
  if (CERTIFICATE_CODES.test(code)) return { code, message: `TLS certificate rejected (${reason})` };
  return { code, message: reason === '' ? code : reason };
}

/** A failure on the way: whether any response byte had arrived decides whether it may be retried. */
class AttemptFailure {
  constructor(
    readonly cause: unknown,
    readonly beforeResponse: boolean,
  ) {}
}

/** What the client did besides plain exchanges, for the report. */
export interface TrafficTotals {
  throttledResponses: number;
  waitedMs: number;
  /** Idempotent requests sent again on a fresh connection after a kept-alive one closed under them. */
  connectionRetries: number;
  /** Every wait that added to the time the run waited, in order. */
  waits: ServerWait[];
}

/** Sends requests to one origin with bounded time and size; never follows redirects; waits when the server asks; stops when it is gone. */
export class HttpClient {
  readonly base: URL;
  readonly redact: (text: string) => string;
  /** The proxy the client goes through, when one applies to the base URL. */
  private readonly proxy: ProxyRoute | undefined;
  /** The --header headers as sent and as reports show them, fixed for the run. */
  private readonly extraHeaders: { sent: Record<string, string>; shown: Record<string, string> };
  private readonly agent: Dispatcher;
  private readonly options: HttpClientOptions;
  private readonly pacer: Pacer;
  private readonly stopper = new AbortController();
  private stopReason: RunError | undefined;
  private sent = 0;
  private answered = 0;
  private failuresInARow = 0;
  private connectionRetries = 0;
  private readonly waits: ServerWait[] = [];

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl.slice(0, -1) : options.baseUrl);
    this.redact = runRedactor(options.apiKey, options);
    this.proxy = routeTo(this.base, options);
    this.extraHeaders = { sent: sentHeaders(options), shown: shownHeaders(options) };
    this.pacer = new Pacer(options.pacing ?? DEFAULT_PACING, options.waitClock);
    this.agent = this.newAgent(options.connections);
  }

  /** A pool of `connections` to the origin, through the proxy when one applies; TLS to the origin is verified end to end. */
  private newAgent(connections: number): Dispatcher {
    const { connectTimeoutMs, headersTimeoutMs, requestTimeoutMs } = this.options;
    const tls = { timeout: connectTimeoutMs, ...serviceTls(this.options) };
    const bounds = { headersTimeout: headersTimeoutMs, bodyTimeout: requestTimeoutMs, connections };
    if (this.proxy === undefined) return new Agent({ connect: tls, ...bounds });
    // Plain http goes to the proxy as absolute-form requests (as curl does); https through a CONNECT tunnel, verified against the origin.
    return new ProxyAgent({
      uri: this.proxy.url,
      ...(this.proxy.authorization === undefined ? {} : { token: this.proxy.authorization }),
      proxyTunnel: this.base.protocol === 'https:',
      requestTls: tls,
      proxyTls: { timeout: connectTimeoutMs, ...(tls.ca === undefined ? {} : { ca: tls.ca }) },
      ...bounds,
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

  /** Aborted once the client stopped (the server is gone, or asked for more waiting than allowed): nothing more is sent. */
  get stopSignal(): AbortSignal {
    return this.stopper.signal;
  }

  /** Whether the run was interrupted and its requests in flight aborted. */
  private get aborted(): boolean {
    return this.options.abort?.aborted === true;
  }

  /** Why the client stopped, when it did: the run could not be completed. */
  get stopped(): RunError | undefined {
    return this.stopReason;
  }

  private stop(reason: RunError): RunError {
    this.stopReason ??= reason;
    this.stopper.abort();
    return this.stopReason;
  }

  /**
   * Sends one request and reads a bounded response. Waits out 429 (and 503 with Retry-After) as the server asks; sends an
   * idempotent request once more on a fresh connection when a kept-alive one closed before any response byte.
   * Throws TransportError when nothing came back, and the client's RunError once it stopped.
   */
  async send(req: OutgoingRequest): Promise<Exchange> {
    if (this.stopReason !== undefined) throw this.stopReason;
    if (this.aborted) throw new RunError('ERR_INTERRUPTED', 'interrupted before the request was sent');
    const url = this.urlFor(req.path, req.query);
    // A case's own headers win over --header: a case that tests a header must send what it declares.
    const own = lowerCaseKeys(req.headers);
    const headers: Record<string, string> = { accept: 'application/json', ...this.extraHeaders.sent, ...own };
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
      headers: { ...headers, ...this.extraHeaders.shown, ...own, ...(shown === undefined ? {} : { authorization: shown }) },
      auth: req.auth,
      operation: req.operation,
    };
    if (body !== undefined) sent.body = body;
    if (req.json !== undefined) sent.json = req.json;
    // Two Authorization headers (an auth mutation) go out as two fields, not one joined value.
    const wire: Record<string, string | string[]> = authorization === undefined ? headers : { ...headers, authorization };
    const started = performance.now();
    const answeredBefore = this.answered;
    let connectionRetry: string | undefined;
    let throttled = 0;
    let waitedMs = 0;
    for (;;) {
      const turn = guardSignal(undefined, [this.stopper.signal, this.options.abort]);
      try {
        await this.pacer.turn(turn.signal);
      } catch {
        throw (
          this.stopReason ??
          new RunError(
            this.aborted ? 'ERR_INTERRUPTED' : 'ERR_SERVER_GONE',
            this.aborted ? 'interrupted while waiting out a rate limit' : 'the run stopped',
          )
        );
      } finally {
        turn.dispose();
      }
      this.sent += 1;
      let received: ReceivedResponse;
      try {
        received = await this.attempt(url, req.method, wire, body, connectionRetry === undefined ? this.agent : undefined);
      } catch (error) {
        if (this.stopReason !== undefined) throw this.stopReason;
        if (this.aborted) throw new RunError('ERR_INTERRUPTED', 'interrupted: the request in flight was aborted');
        const failure = error instanceof AttemptFailure ? error : new AttemptFailure(error, true);
        const { code, message } = describeTransportFailure(failure.cause, this.options);
        if (
          connectionRetry === undefined &&
          failure.beforeResponse &&
          IDEMPOTENT_METHODS.has(req.method) &&
          CLOSED_CONNECTION_CODES.has(code)
        ) {
          this.connectionRetries += 1;
          connectionRetry = `the connection closed before any response byte (${code}: ${this.redact(message)}); sent once more on a fresh connection`;
          continue;
        }
        throw this.noteFailure(
          new TransportError(code, this.redact(message), sent, {
            timedOut: TIMEOUT_CODES.has(code),
            answeredMeanwhile: this.answered - answeredBefore,
          }),
        );
      }
      this.answered += 1;
      this.failuresInARow = 0;
      const asked = this.askedToWait(received);
      if (asked === undefined) {
        const exchange: Exchange = { request: sent, response: received, durationMs: performance.now() - started };
        if (connectionRetry !== undefined) exchange.connectionRetry = connectionRetry;
        if (throttled > 0) exchange.throttled = { responses: throttled, waitedMs: Math.round(waitedMs) };
        return exchange;
      }
      throttled += 1;
      // A request throttled again backs off further, whatever the server asks (Retry-After: 0 forever must not become a busy loop).
      const backoff = Math.min(THROTTLE_BACKOFF_MS * 2 ** (throttled - 1), this.pacer.options.maxWaitMs);
      const ms = Math.max(Number.isNaN(asked) ? 1000 : asked, backoff);
      waitedMs += ms;
      const granted = this.pacer.pause(ms);
      if (granted.kind !== 'granted') throw this.stop(this.waitRefused(granted, received, sent));
      if (granted.addedMs > 0) this.noteWait(ms, granted, received, sent);
    }
  }

  /** Records a wait that added to the run's waiting, and tells whoever listens. */
  private noteWait(waitMs: number, granted: WaitGranted, received: ReceivedResponse, sent: SentRequest): void {
    const retryAfter = received.headers['retry-after'];
    const wait: ServerWait = {
      at: new Date().toISOString(),
      method: sent.method,
      target: sent.target,
      status: received.status,
      ...(retryAfter === undefined ? {} : { retryAfter }),
      waitMs: Math.round(waitMs),
      addedMs: Math.round(granted.addedMs),
      spentMs: Math.round(granted.spentMs),
      budgetMs: this.pacer.options.waitBudgetMs,
    };
    this.waits.push(wait);
    this.options.onWait?.(wait);
  }

  /** The wait a throttling response asks for (ms; NaN for a 429 that names none), or undefined when the response is an answer. */
  private askedToWait(received: ReceivedResponse): number | undefined {
    const retryAfter = retryAfterMs(received.headers['retry-after']);
    if (received.status === 429) return retryAfter ?? Number.NaN;
    if (received.status === 503 && retryAfter !== undefined) return retryAfter;
    return undefined;
  }

  private waitRefused(refusal: WaitRefusal, received: ReceivedResponse, sent: SentRequest): RunError {
    const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
    const where = `${sent.method} ${sent.target}`;
    if (refusal.kind === 'too-long') {
      return new RunError(
        'ERR_RATE_LIMITED',
        `the server asked the suite to wait ${seconds(refusal.askedMs)} (${received.status}, Retry-After: ${received.headers['retry-after'] ?? ''} to ${where}), longer than one wait may take (${seconds(this.pacer.options.maxWaitMs)}, --max-wait); the run could not be completed`,
      );
    }
    return new RunError(
      'ERR_RATE_LIMITED',
      `the server kept rate-limiting the run (${received.status} to ${where}): ${seconds(refusal.spentMs)} spent waiting used up the budget of ${seconds(this.pacer.options.waitBudgetMs)} (--wait-budget); the run could not be completed`,
    );
  }

  /** Counts a request that got no answer; enough of them in a row mean the server is gone, and the run stops at once. */
  private noteFailure(error: TransportError): TransportError | RunError {
    this.failuresInARow += 1;
    if (this.failuresInARow < FAILURES_BEFORE_STOP) return error;
    return this.stop(
      new RunError(
        'ERR_SERVER_GONE',
        `the server stopped answering: ${this.failuresInARow} requests in a row got no answer (last: ${error.sent.method} ${error.sent.target}: ${error.message} (${error.code})); the run stopped`,
      ),
    );
  }

  /** One exchange on the shared pool, or on a fresh connection of its own when `agent` is undefined. */
  private async attempt(
    url: URL,
    method: string,
    headers: Record<string, string | string[]>,
    body: string | undefined,
    agent: Dispatcher | undefined,
  ): Promise<ReceivedResponse> {
    const dispatcher = agent ?? this.newAgent(1);
    // One deadline for the whole exchange (connect, headers, every byte of the body), whatever pace the body comes at.
    const deadline = guardSignal(this.options.requestTimeoutMs, [this.stopper.signal, this.options.abort]);
    try {
      let response: Dispatcher.ResponseData;
      try {
        response = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body: body ?? null,
          dispatcher,
          signal: deadline.signal,
        });
      } catch (error) {
        throw new AttemptFailure(error, true);
      }
      try {
        return await this.readResponse(response);
      } catch (error) {
        throw new AttemptFailure(error, false);
      }
    } finally {
      deadline.dispose();
      if (agent === undefined) await dispatcher.close();
    }
  }

  private async readResponse(response: Dispatcher.ResponseData): Promise<ReceivedResponse> {
    const { raw, truncated } = await readBounded(response, this.options.maxResponseBytes);
    const bytes = raw.length;
    const invalidUtf8At = invalidUtf8Offset(raw, truncated);
    // Checks judge what the server sent; a key it echoed back is redacted where the report and the outputs quote it.
    const bodyText = raw.toString('utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const received: ReceivedResponse = { status: response.statusCode, headers, bodyText, bytes, truncated };
    if (invalidUtf8At !== undefined) received.invalidUtf8At = invalidUtf8At;
    if (!truncated && bodyText.trim() !== '') {
      try {
        received.json = parseExactJson(bodyText);
      } catch (error) {
        received.jsonError = (error as Error).message;
      }
    }
    return received;
  }

  /** How many requests this client has sent, throttled and retried ones included. */
  get requestCount(): number {
    return this.sent;
  }

  /** Throttling and connection retries so far. */
  get traffic(): TrafficTotals {
    return { ...this.pacer.totals, connectionRetries: this.connectionRetries, waits: [...this.waits] };
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * Reads the body into one buffer of at most `max` bytes, sized by Content-Length when the server gives one (grown
 * otherwise), each chunk copied in and released as it arrives: a list of chunks joined at the end holds every byte twice.
 */
async function readBounded(response: Dispatcher.ResponseData, max: number): Promise<{ raw: Buffer; truncated: boolean }> {
  const declared = Number(response.headers['content-length']);
  let buffer = Buffer.allocUnsafe(Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, max) : Math.min(64 * 1024, max));
  let length = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
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
  return { raw: buffer.subarray(0, length), truncated: false };
}

function lowerCaseKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]));
}
