/**
 * The one HTTP client of a run, composed here of layers over one interface (Sender):
 * slots (--concurrency) → throttle (Retry-After) → stop breaker → connection retry → turns (--rate-limit, the server's pause) → capture (deadline,
 * bounded body) over undici.
 */
import type { Clock } from '../model/clock.js';
import { REQUEST_BOUNDS } from '../model/connection.js';
import type { RunError } from '../model/errors.js';
import type { Exchange, ServerWait } from '../model/exchange.js';
import { type CaptureOptions, UndiciCapture } from './capture.js';
import { runRedactor } from './connection.js';
import { ConnectionRetry } from './connection-retry.js';
import { RequestFraming } from './framing.js';
import { DEFAULT_PACING, Pacer, type PacingOptions } from './pacer.js';
import { RunStop } from './run-stop.js';
import type { OutgoingRequest, Sender } from './sender.js';
import { Slots } from './slots.js';
import { StopBreaker } from './stop-breaker.js';
import { DECODED_CODINGS } from './content-coding.js';
import { Throttle, Turns } from './throttle.js';

export { CERTIFICATE_CODES, type OutgoingRequest, type Sender, TransportError } from './sender.js';

/** Bounds and identity of the client, and how it reaches the service (trust, client certificate, proxy, extra headers). */
export interface HttpClientOptions extends CaptureOptions {
  baseUrl: string;
  apiKey: string;
  /** Rate limit and waiting bounds (default: no rate limit, DEFAULT_PACING's bounds). */
  pacing?: PacingOptions;
  /** Aborts the requests in flight: the run was interrupted and their grace ran out. */
  abort?: AbortSignal;
  /** Told of every wait the server asks for, as it begins (so that a person sees why nothing moves). */
  onWait?: (wait: ServerWait) => void;
  /** What the pacer waits by (default: the real clock). */
  waitClock?: Clock;
  /** A path a pet store answers plainly (the listing): asked when requests in a row got no answer, to tell a server gone from one that refuses some. */
  alivePath?: string;
}

/** Sensible bounds for a functional run. */
export const DEFAULT_HTTP_OPTIONS = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  ...REQUEST_BOUNDS,
  connections: 8,
} as const;

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
export class HttpClient implements Sender {
  readonly base: URL;
  readonly redact: (text: string) => string;
  private readonly framing: RequestFraming;
  private readonly stop: RunStop;
  private readonly pacer: Pacer;
  private readonly capture: UndiciCapture;
  private readonly retry: ConnectionRetry;
  private readonly throttle: Throttle;
  private readonly slots: Slots;

  constructor(options: HttpClientOptions) {
    this.framing = new RequestFraming(options.baseUrl, options.apiKey, options, DECODED_CODINGS);
    this.base = this.framing.base;
    this.redact = runRedactor(options.apiKey, options);
    this.stop = new RunStop(options.abort);
    this.pacer = new Pacer(options.pacing ?? DEFAULT_PACING, options.waitClock);
    this.capture = new UndiciCapture(options, this.framing, this.stop, this.redact);
    this.retry = new ConnectionRetry(new Turns(this.capture, this.pacer, this.stop));
    const alive: OutgoingRequest | undefined =
      options.alivePath === undefined
        ? undefined
        : { method: 'GET', path: options.alivePath, query: [], headers: {}, auth: 'valid', operation: 'listPets' };
    this.throttle = new Throttle(new StopBreaker(this.retry, this.stop, alive), this.pacer, this.stop, options.onWait);
    // As many requests in flight as the pool has connections: a POST's connection of its own included.
    this.slots = new Slots(this.throttle, options.connections);
  }

  /**
   * Sends one request and reads a bounded response. Waits out 429 (and 503 with Retry-After) as the server asks; sends an
   * idempotent request once more on a fresh connection when a kept-alive one closed before any response byte.
   * Throws TransportError when nothing came back, and the client's RunError once it stopped.
   */
  send(request: OutgoingRequest): Promise<Exchange> {
    return this.slots.send(request);
  }

  /** The absolute URL of a relative target: only the path and query change, so the origin is always the base's. */
  urlFor(path: string, query: ReadonlyArray<[string, string]>): URL {
    return this.framing.urlFor(path, query);
  }

  /** Aborted once the client stopped (the server is gone, or asked for more waiting than allowed): nothing more is sent. */
  get stopSignal(): AbortSignal {
    return this.stop.signal;
  }

  /** Why the client stopped, when it did: the run could not be completed. */
  get stopped(): RunError | undefined {
    return this.stop.reason;
  }

  /** How many requests this client has sent, throttled and retried ones included. */
  get requestCount(): number {
    return this.capture.count;
  }

  /** Throttling and connection retries so far. */
  get traffic(): TrafficTotals {
    return { ...this.pacer.totals, connectionRetries: this.retry.count, waits: this.throttle.waits };
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await this.capture.close();
  }
}
