/**
 * The client of a run, as the engine sees it: the Sender every request goes through, and what the run reads of it (where it
 * sends, whether it stopped, what it cost). openClient (open-client.ts) is the one place that composes one of its layers.
 */
import type { Clock } from '../model/clock.js';
import { REQUEST_BOUNDS } from '../model/connection.js';
import type { RunError } from '../model/errors.js';
import type { ServerWait } from '../model/exchange.js';
import type { CaptureOptions } from './capture.js';
import type { ExchangeObserver } from './observe.js';
import type { PacingOptions } from './pacer.js';
import type { OutgoingRequest, Sender } from './sender.js';
import type { WriteLimits } from './write-gate.js';

export { NotSent, type OutgoingRequest, TransportError } from './sender.js';

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
  /**
   * A request a pet store answers plainly (the listing): asked when requests in a row got no answer, to tell a server gone
   * from one that refuses some.
   */
  alive?: OutgoingRequest;
}

/** What a client adds to the run's client options: who is told of every exchange, and the write gate's limits. */
export interface ClientLayers {
  /** Told of every exchange of every phase (the store model), through the observe layer. */
  observer?: ExchangeObserver;
  /** Read-only mode and --max-writes; no write gate when absent. */
  writes?: WriteLimits;
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

/**
 * Sends requests to one origin with bounded time and size; never follows redirects; waits when the server asks; stops when
 * it is gone. `send` throws TransportError when nothing came back, the client's RunError once it stopped, and WriteRefused
 * when its write gate holds a write back.
 */
export interface Client extends Sender {
  /** The base URL every request is relative to. */
  readonly base: URL;
  /** Aborted once the client stopped (the server is gone, or asked for more waiting than allowed): nothing more is sent. */
  readonly stopSignal: AbortSignal;
  /** Why the client stopped, when it did: the run could not be completed. */
  readonly stopped: RunError | undefined;
  /** How many requests this client has sent, throttled and retried ones included. */
  readonly requestCount: number;
  /** Throttling and connection retries so far. */
  readonly traffic: TrafficTotals;
  /** What the write gate says of --max-writes: spent once every pet it allows is created or being created (never, without a gate). */
  readonly writeBudget: { readonly spent: boolean };
  /** The absolute URL of a relative target: only the path and query change, so the origin is always the base's. */
  urlFor(path: string, query: ReadonlyArray<[string, string]>): URL;
  /** Closes every connection. */
  close(): Promise<void>;
}
